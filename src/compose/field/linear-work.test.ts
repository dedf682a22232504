/**
 * Linear work of the gateway profile's field lane on adversarial input built from every field
 * grammar's record (bench/adversarial-field.ts): 8x the input costs at most 10x the work,
 * counted as string reads and searches, copies, and the size of the result.
 */
import { describe, expect, it } from 'vitest';
import { FIELD_ADVERSARIAL } from '../../../bench/adversarial-field.js';
import { countCopiesAndSearches, countStringWork } from '../../../test/support/string-work.js';
import { parseToolCalls } from '../parse.js';
import type { ParseResult } from '../types.js';

const tools = [{ name: 'f' }, { name: 'get_weather' }];

function resultSize(result: ParseResult): number {
  let size = result.prose.length + result.canonical_text.length;
  for (const d of result.dropped) size += d.text.length + 1;
  for (const e of result.tool_parse_errors) size += e.length + 1;
  for (const v of result.protocol_violations) size += v.message.length + 1;
  return size + result.calls.length;
}

function work(text: string): { reads: number; copies: number; output: number } {
  let result: ParseResult | null = null;
  let copies = 0;
  const reads = countStringWork(() => {
    copies = countCopiesAndSearches(() => {
      result = parseToolCalls(text, { tools, profile: 'gateway' });
    });
  });
  return { reads, copies, output: resultSize(result!) };
}

/** Mentions of an opener: many on one long line, each declined for a different reason. */
const MENTIONS: Readonly<Record<string, (n: number) => string>> = {
  'mentions: openers mid-line on one long line': (n) => `say ${'a <tool_call> b '.repeat(n)}`,
  'mentions: openers followed by a body start on one line': (n) => `say ${'a <tool_call> { '.repeat(n)}`,
  'mentions: openers with a close far away': (n) => `${'a <tool_call> b\n'.repeat(n)}</tool_call>`,
};

describe('the field lane does linear work on adversarial input', () => {
  for (const [name, build] of Object.entries({ ...FIELD_ADVERSARIAL, ...MENTIONS })) {
    it(`${name}: 8x the input costs at most 10x the work`, () => {
      const small = work(build(300));
      const large = work(build(2400));
      expect(small.reads).toBeGreaterThan(0);
      expect(large.reads / small.reads).toBeLessThanOrEqual(10);
      expect((large.copies + 1) / (small.copies + 1)).toBeLessThanOrEqual(10);
      expect((large.output + 1) / (small.output + 1)).toBeLessThanOrEqual(10);
    });
  }
});
