import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTools } from '../dialects/registry.js';
import { scanBareCalls } from './sniff/bare-calls.js';
import type { KnownNames } from './sniff/names.js';
import { sniff } from './sniff/sniff.js';
import { maySniffCall } from './sniff-gate.js';

// Pieces that, joined at random, reach every sniffer path: line calls, labels, aliases, thinking
// and wrapper edits that join text, code wrappers, heredocs and native JSON payloads.
const PIECES = [
  'run', 'look', 'edit', 'ledger', 'bash', 'frobnicate', 'tool_code:', 'Hint:', 'if', ' ', '\t', '\n', '\r', '\f', '<', '>',
  '<tool_call>', '</tool_call>', '<toolcall>', '<think>', '</think>', '```', '```json\n', '`', '"', "'", ':', '[', ']', '}',
  ')', '(', '{', ' (', '( ', '{ ', ' {', '"name"', '"arguments"', '"function"', '"command"', '<<EOF\n', 'EOF', 'x', ',', '1',
  '\u00a0', '\v', '\u0085', '\ufeff', 'return ', '= ', 'call:', ' <', '$', '0', 'read', 'run(x=1)', 'look.at(', '[ ', ' [',
];

const registry = normalizeTools(['run', 'look', 'edit']);

/** Checks that the gate says false only for texts whose sniff (`sniffOf`) finds no call and no error, and not vacuously. */
function gateHolds(sniffOf: (text: string) => { calls: readonly unknown[]; errors: readonly unknown[] }): void {
  let skipped = 0;
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
      const text = pieces.join('');
      if (maySniffCall(text)) return;
      skipped++;
      const scan = sniffOf(text);
      expect(scan.calls).toEqual([]);
      expect(scan.errors).toEqual([]);
    }),
    { numRuns: 20000 },
  );
  // The property must not hold vacuously: many generated texts are skipped.
  expect(skipped).toBeGreaterThan(100);
}

describe('maySniffCall', () => {
  it('is false only for text whose sniff finds no call and no error', () => {
    gateHolds((text) => scanBareCalls(text, registry));
  });

  it('is false only for text whose gateway sniff (look-alikes, pythonic lists included) finds no call and no error', () => {
    const gateway: KnownNames = { has: (name) => name === 'run' || name === 'look', sorted: ['look', 'run'], folds: false, lookAlikes: true };
    gateHolds((text) => sniff(text, gateway, { steps: 0 }, 0));
  });

  it('keeps every text where an edit or a payload could bring a call into view', () => {
    const found = [
      'run({"command": "ls"})',
      'run<think>x</think>({"command": "ls"})',
      '[{"name":"run","arguments":{}}]',
      '{<tool_call>"name":"run","arguments":{}}',
      'tool_code: run({"command": "ls"})',
      'run("ls")',
    ];
    for (const text of found) {
      expect(maySniffCall(text)).toBe(true);
      const scan = scanBareCalls(text, registry);
      expect(scan.calls.length + scan.errors.length).toBeGreaterThan(0);
    }
  });

  it('skips prose and code whose brackets stand after blanks', () => {
    expect(maySniffCall('Check the loader.\n```ts\nif (a0 ')).toBe(false);
    expect(maySniffCall('if (a < b) { return x; }')).toBe(false);
    expect(maySniffCall('< b0) { return load(a0); }')).toBe(false);
    expect(maySniffCall('x = run({ command: "ls" })')).toBe(false);
    expect(maySniffCall('done.\n  < load(a0)')).toBe(true);
    expect(maySniffCall('`run({})`')).toBe(true);
  });
});
