import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayEndBodyAt } from './body-end.js';
import { jsonOpenAt } from './closers.js';
import { ValueDepth } from './value-depth.js';

describe('ValueDepth', () => {
  it('resumed over a growing text, answers as one look over the whole of it (jsonOpenAt)', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', '(', ')', '"', "'", '\\', 'a', ' ', ':', ',');
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 8 }), { minLength: 1, maxLength: 12 }), (chunks) => {
        const depth = new ValueDepth();
        let text = '';
        for (const chunk of chunks) {
          text += chunk.join('');
          depth.advance(text, 0, text.length);
          expect(depth.open).toBe(jsonOpenAt(text, 0, text.length));
        }
      }),
      { numRuns: 2000, seed: 20261202 },
    );
  });

  it('reads each character once over a run of looks, and again only after a reset', () => {
    const depth = new ValueDepth();
    const text = '<tool_call>{"a": {"b": [1, 2]}}';
    let read = 0;
    for (let end = 1; end <= text.length; end++) read += depth.advance(text, 0, end);
    expect(read).toBe(text.length);
    depth.reset();
    expect(depth.advance(text, 0, text.length)).toBe(text.length);
  });
});

describe('mayEndBodyAt', () => {
  const looks = (text: string) => mayEndBodyAt(text, 0, new ValueDepth()) >= 0;

  it('says yes where a body has ended: a closed value, a call close, a fence, before a marker begins', () => {
    expect(looks('<tool_call>{"name": "look", "arguments": {}}')).toBe(true);
    expect(looks('<tool_call>{"name": "look", "arguments": {}}</tool')).toBe(true);
    expect(looks('<tool_call>{"name": "look", "arguments": {}}\n  ')).toBe(true);
    expect(looks('<tool_call>\n<function=look>\n<parameter=path>\na\n</parameter>\n</function>')).toBe(true);
    expect(looks('<｜tool▁call▁begin｜>function<｜tool▁sep｜>look\n```json\n{}\n```')).toBe(true);
  });

  it('says no inside a value, inside a string, or after an opening tag', () => {
    expect(looks('<tool_call>{"name": "look", "arguments": {}')).toBe(false);
    expect(looks('<tool_call>{"name": "look", "arguments": {"p": "}"')).toBe(false);
    expect(looks('<tool_call>\n<function=look>\n<parameter=path>')).toBe(false);
    expect(looks('<tool_call>')).toBe(false);
  });
});
