/**
 * The whole-answer rewrite on its own: a pool that fills while the upstream was generating does
 * not cost the answer (it is parsed on the HTTP thread instead), and without that fallback the
 * pool's 503 is what the caller gets.
 */
import { describe, expect, it } from 'vitest';
import { parseToolCalls, type OpenAIShaped } from '../../src/index.js';
import type { ParseRunner } from '../../src/server/runner/types.js';
import { ParseRefused, rewriteCompletion, type Completion } from '../../src/server/sidecar/completion.js';

const TOOLS = [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const TEXT = 'Reading.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>';
/** A pool at MAX_QUEUE: dispatch answers 503 without running anything. */
const fullPool = { saturated: true, run: () => Promise.reject(new Error('not to be called')) } as unknown as ParseRunner;

const completion = (): Completion => ({
  id: 'c1', object: 'chat.completion', created: 1, model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
});

describe('rewriteCompletion', () => {
  const context = { runner: fullPool, maxResponseBytes: 1 << 20, toolsJson: JSON.stringify(TOOLS), callIdStart: 0, signal: new AbortController().signal };

  it('parses on this thread when the pool is full', async () => {
    const c = completion();
    const inline = (text: string) => parseToolCalls(text, { tools: TOOLS, shape: 'openai' }) as OpenAIShaped;
    const diagnostics = await rewriteCompletion(c, { ...context, inline });
    expect(c.choices[0]!.message!.tool_calls).toEqual([{ id: 'tc_0', type: 'function', function: { name: 'look', arguments: '{"path":"a.rs"}' } }]);
    expect(c.choices[0]!.message!.content).toBe('Reading.');
    expect(c.choices[0]!.finish_reason).toBe('tool_calls');
    expect(c.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
    expect(diagnostics[0]).toMatchObject({ index: 0, parsed_calls: 1, upstream_calls: 0 });
  });

  it("answers the pool's 503 without the fallback", async () => {
    const error = await rewriteCompletion(completion(), context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseRefused);
    expect((error as ParseRefused).outcome.status).toBe(503);
  });

  it('leaves a choice without text alone, and keeps a cut-off answer length', async () => {
    const c = completion();
    c.choices.push({ index: 1, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{}' } }] }, finish_reason: 'tool_calls' });
    c.choices[0]!.finish_reason = 'length';
    const inline = (text: string) => parseToolCalls(text, { tools: TOOLS, shape: 'openai' }) as OpenAIShaped;
    const diagnostics = await rewriteCompletion(c, { ...context, inline });
    expect(c.choices[0]!.finish_reason).toBe('length');
    expect(c.choices[1]!.message).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{}' } }] });
    expect(diagnostics.map((d) => [d.index, d.parsed_calls, d.upstream_calls])).toEqual([[0, 1, 0], [1, 0, 1]]);
  });
});
