/**
 * A call grammar's block quoted as inline code mid-line (`` Put `<tool_call>…</tool_call>` around
 * it. ``) is a sentence about the grammar in the one-shot parse. A chunk that ends right after
 * the block's close, before the backtick that closes the inline code, must not let the stream
 * read the block as a region: its line's prose came out garbled and twice.
 */
import { describe, expect, it } from 'vitest';
import { createStreamParser, parseToolCalls, type ParseOptions } from '../../src/index.js';

function streamed(chunks: readonly string[], options: ParseOptions): { text: string; calls: number } {
  const parser = createStreamParser(options);
  let text = '';
  let calls = 0;
  const take = (events: readonly { type: string; text?: string }[]) => {
    for (const e of events) {
      if (e.type === 'text') text += e.text;
      if (e.type === 'call_end') calls++;
    }
  };
  for (const chunk of chunks) take(parser.push(chunk));
  take(parser.end().events);
  return { text, calls };
}

const OPTIONS: ParseOptions = { tools: ['search'] };
const QUOTED = ['Put `<tool_call>...</tool_call>', '` around each JSON call.'];

describe('a block quoted as inline code, cut right after its close', () => {
  it('gives the one-shot prose when the line ends after it', () => {
    const chunks = [QUOTED[0]!, `${QUOTED[1]!}\n`];
    const oneShot = parseToolCalls(chunks.join(''), OPTIONS);
    expect(oneShot.prose).toBe('Put `<tool_call>...</tool_call>` around each JSON call.');
    expect(streamed(chunks, OPTIONS)).toEqual({ text: oneShot.prose, calls: 0 });
  });

  it('gives the one-shot prose and call when a call follows it', () => {
    const call = '<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"query": "ramen"}<|tool_call_end|><|tool_calls_section_end|>';
    const chunks = [QUOTED[0]!, QUOTED[1]! + call];
    const oneShot = parseToolCalls(chunks.join(''), OPTIONS);
    expect(oneShot.calls).toHaveLength(1);
    expect(streamed(chunks, OPTIONS)).toEqual({ text: oneShot.prose, calls: 1 });
  });

  it('still reads the block as a region when its line ends with no backtick after it', () => {
    const chunks = ['Put `<tool_call>{"name": "search", "arguments": {"query": "a"}}</tool_call>', '\nDone.'];
    const oneShot = parseToolCalls(chunks.join(''), OPTIONS);
    expect(oneShot.calls).toHaveLength(1);
    expect(streamed(chunks, OPTIONS)).toEqual({ text: oneShot.prose, calls: 1 });
  });
});
