import { describe, expect, it } from 'vitest';
import { hasResponseProtocolFragment, holdsCanonicalToolFence, isCanonicalToolFenceInfo } from './stray.js';

describe('stray helpers', () => {
  it('recognises response protocol fragments', () => {
    expect(hasResponseProtocolFragment('see foo_call> here')).toBe(true);
    expect(hasResponseProtocolFragment('text </user_response>')).toBe(true);
    expect(hasResponseProtocolFragment('text <DONE')).toBe(true);
    expect(hasResponseProtocolFragment('<assistant_prose x')).toBe(true);
    expect(hasResponseProtocolFragment('<donework> and <tool_caller')).toBe(false);
    expect(hasResponseProtocolFragment('plain prose')).toBe(false);
  });

  it('classifies fence infos', () => {
    expect(isCanonicalToolFenceInfo('tool')).toBe(true);
    expect(isCanonicalToolFenceInfo(' Tool python')).toBe(true);
    expect(isCanonicalToolFenceInfo('tool-x')).toBe(true);
    expect(isCanonicalToolFenceInfo('tool_call')).toBe(false);
    expect(isCanonicalToolFenceInfo('json')).toBe(false);
    expect(isCanonicalToolFenceInfo('tools')).toBe(false);
  });

  it('finds a canonical tool fence on any line', () => {
    expect(holdsCanonicalToolFence('intro\n  ```tool\n{"name":"run"}\n```')).toBe(true);
    expect(holdsCanonicalToolFence('~~~tool')).toBe(true);
    expect(holdsCanonicalToolFence('```json\n{}\n```')).toBe(false);
  });
});
