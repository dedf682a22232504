/**
 * The stray ladder's char-code scans against the plain statements they replaced (lower-case
 * the whole text and search each spelling; walk every line), on random protocol-ish text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../dialects/index.js';
import { hasResponseProtocolFragment, holdsCanonicalToolFence, isCanonicalToolFenceInfo } from './stray.js';

const SPELLINGS = DIALECTS.TAGGED_DIALECT.flatMap((d) => [...d.spellings]);
const SPACES = [' ', '\t', '\n', '\r', '\f', '\v'];

function plainProtocolFragment(text: string): boolean {
  const lowered = text.toLowerCase();
  if (lowered.includes('_call>')) return true;
  for (const spelling of SPELLINGS) {
    for (const opener of [`<${spelling}`, `</${spelling}`]) {
      for (let at = lowered.indexOf(opener); at >= 0; at = lowered.indexOf(opener, at + 1)) {
        const after = at + opener.length;
        if (after >= lowered.length || lowered[after] === '>' || SPACES.includes(lowered[after]!)) return true;
      }
    }
  }
  return false;
}

function plainCanonicalFence(text: string): boolean {
  return text.split('\n').some((line) => {
    const body = line.replace(/^[ \t\r\f\v]*/, '');
    return ['```', '~~~'].some((m) => body.startsWith(m) && isCanonicalToolFenceInfo(body.slice(m.length)));
  });
}

const piece = fc.constantFrom(
  '<', '</', '>', '_call>', '_CALL>', '_Call', 'tool_call', 'TOOL_CALL', 'toolcall', 'assistant_prose', 'User_Response',
  'done', 'DONE', 'İ', '\u212A', ' ', '\t', '\n', '\r', 'x', '```', '~~~', 'tool', 'Tool python', 'tool_call', 'json', '-x', '`',
);
const protocolish = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(''));

describe('stray scans', () => {
  it('hasResponseProtocolFragment equals lower-casing the text and searching each spelling', () => {
    fc.assert(fc.property(fc.oneof(protocolish, fc.string()), (text) => {
      expect(hasResponseProtocolFragment(text)).toBe(plainProtocolFragment(text));
    }), { numRuns: 3000 });
  });

  it('holdsCanonicalToolFence equals checking every line', () => {
    fc.assert(fc.property(fc.oneof(protocolish, fc.string()), (text) => {
      expect(holdsCanonicalToolFence(text)).toBe(plainCanonicalFence(text));
    }), { numRuns: 3000 });
  });

  it('finds the fragments the plain statement finds in edge positions', () => {
    expect(hasResponseProtocolFragment('<Tool_Call')).toBe(true);
    expect(hasResponseProtocolFragment('a_Call>')).toBe(true);
    expect(hasResponseProtocolFragment('<assİstant_prose>')).toBe(false);
    expect(hasResponseProtocolFragment('</done\u00a0')).toBe(false);
    expect(holdsCanonicalToolFence('x ```tool')).toBe(false);
    expect(holdsCanonicalToolFence('x\n\t ~~~Tool-x\ny')).toBe(true);
  });
});
