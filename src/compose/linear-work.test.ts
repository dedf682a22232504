/**
 * Linear work of the whole parse on the benchmark's adversarial inputs (bench/adversarial.ts):
 * 8x the input must cost at most about 10x the work. Work is counted, never timed: the string
 * reads of test/support/string-work.ts, plus the searches and copies a composer rescan would
 * show up in (`includes`, `trim*`, `toLowerCase`, `split`, joins, slices), plus the size of
 * everything the parse hands back (a ladder that dropped the rest of the text per unit would
 * make the ledger itself quadratic).
 */
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL } from '../../bench/adversarial.js';
import { dropHeavyResponse } from '../../bench/drop-heavy.js';
import { seedShapedResponse, SEED_TOOLS } from '../../bench/seed-shaped.js';
import { countCopiesAndSearches, countStringWork } from '../../test/support/string-work.js';
import { parseToolCalls } from './parse.js';
import type { ParseResult } from './types.js';

const tools = [...SEED_TOOLS];

function resultSize(result: ParseResult): number {
  let size = result.prose.length + result.canonical_text.length + (result.user_response?.length ?? 0);
  for (const d of result.dropped) size += d.text.length + 1;
  for (const e of result.tool_parse_errors) size += e.length + 1;
  for (const v of result.protocol_violations) size += v.message.length + (v.excerpt?.length ?? 0) + 1;
  return size + result.calls.length;
}

function parseWork(text: string): { reads: number; copies: number; output: number } {
  let result: ParseResult | null = null;
  let copies = 0;
  const reads = countStringWork(() => {
    copies = countCopiesAndSearches(() => {
      result = parseToolCalls(text, { tools });
    });
  });
  return { reads, copies, output: resultSize(result!) };
}

const inputs: [string, (n: number) => string][] = [
  ...Object.entries(ADVERSARIAL),
  ['seed-shaped response', (n) => seedShapedResponse(Math.max(1, n >> 4))],
  // The bench's drop-heavy row (hundreds of dropped fragments feed the tool-shape findings)
  // and its reasoning row (one long block), at sizes that follow n.
  ['drop-heavy response', (n) => dropHeavyResponse(n * 10)],
  ['reasoning block, then an answer', (n) => `<think>${'The user wants the weather, so I call the tool.\n'.repeat(n)}</think>It is sunny.`],
];

describe('parseToolCalls does linear work on adversarial input', () => {
  for (const [name, build] of inputs) {
    it(`${name}: 8x the input costs at most 10x the work`, () => {
      const n = 1000;
      const small = parseWork(build(n));
      const large = parseWork(build(8 * n));
      // Every input does some work of each kind worth comparing.
      expect(small.reads).toBeGreaterThan(0);
      expect(large.reads / small.reads).toBeLessThanOrEqual(10);
      expect((large.copies + 1) / (small.copies + 1)).toBeLessThanOrEqual(10);
      expect((large.output + 1) / (small.output + 1)).toBeLessThanOrEqual(10);
    });
  }

  it('counts a rescan: a per-unit search to the end of the text shows as quadratic', () => {
    const text = 'x\n'.repeat(1000);
    const rescan = (t: string) => {
      for (let i = 0; i < t.length; i += 2) t.slice(i).includes('y');
    };
    const small = countCopiesAndSearches(() => rescan(text));
    const large = countCopiesAndSearches(() => rescan(text.repeat(8)));
    expect(large / small).toBeGreaterThan(40);
  });
});
