/**
 * Every field grammar in one response, in turn between prose paragraphs (the bench's mixed
 * input): no flag, one pass, and every call comes back in order with nothing lost.
 */
import { describe, expect, it } from 'vitest';
import { MIXED_TOOLS, mixedGrammarResponse } from '../bench/mixed-grammar.js';
import { parseToolCalls } from '../src/index.js';

describe('a response mixing every field grammar', () => {
  it('reads every call, in order, with no error', () => {
    const { text, calls } = mixedGrammarResponse(40_000);
    const result = parseToolCalls(text, { tools: MIXED_TOOLS });
    expect(result.calls).toHaveLength(calls);
    expect(result.calls.map((c) => c.arguments.path)).toEqual(Array.from({ length: calls }, (_, i) => `src/file_${i}.ts`));
    expect(result.tool_parse_errors).toEqual([]);
  });
});
