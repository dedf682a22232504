import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanBareCalls } from '../lex/bare-calls.js';
import { normalizeTools } from '../dialects/registry.js';

// The walk skips the sniffer for stray text holding neither `(` nor `{` (walk.ts, sniffStray).
// This pins the claim that makes the skip exact: such text never yields a call or an error.
const PIECES = [
  'run', 'look', 'edit', 'ledger', 'load_skill', 'bash', 'frobnicate', 'tool_code:', 'Hint:', ' ', '\t', '\n', '\r', '\f',
  '<', '>', '<tool_call>', '</tool_call>', '<toolcall>', '<think>', '</think>', '```', '```json\n', '`', '"', "'", ':', '[', ']',
  '}', ')', '"name"', '"arguments"', '"function"', '<<EOF\n', 'EOF', 'x', '["name", "run"]', ',',
];

describe('stray sniff skip', () => {
  it('text without ( and { yields no call and no error, for any registry form', () => {
    const registry = normalizeTools(['run', 'look', 'edit']);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(/[({]/.test(text)).toBe(false);
        const scan = scanBareCalls(text, registry);
        expect(scan.calls).toEqual([]);
        expect(scan.errors).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('the same text with one ( or { added can yield a call (the skip is not vacuous)', () => {
    const registry = normalizeTools(['run']);
    expect(scanBareCalls('run({"command": "ls"})', registry).calls).toHaveLength(1);
    expect(scanBareCalls('[{"name":"run","arguments":{}}]', registry).calls).toHaveLength(1);
  });
});
