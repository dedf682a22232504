/**
 * The stream relay on hand-made upstream bodies: two choices interleaved, events split across
 * reads and written with CRLF, a usage chunk, the upstream's own reasoning under either name,
 * an upstream error event passed on, and a body that says nothing at all.
 */
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import { relayStream, type StreamSummary } from '../../src/server/sidecar/stream.js';

const TOOLS = [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const TEXT_0 = 'First.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>';
const TEXT_1 = 'Second, no call.';

const chunk = (index: number, delta: object, finish: string | null = null) =>
  JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 7, model: 'up-model', choices: [{ index, delta, finish_reason: finish }] });

/** `events` as one SSE text with CRLF line ends, cut into reads of `size` bytes. */
async function* body(events: string[], size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(events.map((data) => `data: ${data}\r\n\r\n`).join(''), 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function relay(events: string[], size = 5): Promise<{ frames: string[]; summary: StreamSummary }> {
  const summary: StreamSummary = { choices: [], ending: 'done', failure: null };
  let text = '';
  for await (const piece of relayStream({ body: body(events, size), tools: TOOLS, callIdStart: 0, diagnosticsInBody: false, parseWhole: null }, summary)) text += piece;
  return { frames: text.split('\n\n').filter((f) => f !== ''), summary };
}

describe('relayStream', () => {
  it('relays two interleaved choices, each parsed on its own, with the upstream identity and usage', async () => {
    const pieces = (s: string) => s.match(/[\s\S]{1,6}/g)!;
    const a = pieces(TEXT_0);
    const b = pieces(TEXT_1);
    const events: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] !== undefined) events.push(chunk(0, { content: a[i] }));
      if (b[i] !== undefined) events.push(chunk(1, { content: b[i] }));
    }
    events.push(chunk(0, {}, 'stop'), chunk(1, {}, 'stop'));
    events.push(JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 7, model: 'up-model', choices: [], usage: { total_tokens: 9 } }));
    events.push('[DONE]');
    const { frames, summary } = await relay(events);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)) as { id: string; created: number; model: string; usage?: unknown; choices: { index: number; delta: { content?: string; tool_calls?: { function: { name?: string; arguments: string } }[] }; finish_reason: string | null }[] });
    expect(new Set(chunks.map((c) => `${c.id} ${c.created} ${c.model}`))).toEqual(new Set(['chatcmpl-up 7 up-model']));
    const of = (index: number) => chunks.flatMap((c) => c.choices.filter((ch) => ch.index === index));
    const content = (index: number) => of(index).map((ch) => ch.delta.content ?? '').join('');
    expect(content(0)).toBe(parseToolCalls(TEXT_0, { tools: TOOLS }).prose);
    expect(content(1)).toBe(TEXT_1);
    expect(of(0).flatMap((ch) => ch.delta.tool_calls ?? []).map((c) => c.function.arguments).join('')).toBe('{"path":"a.rs"}');
    expect(of(1).some((ch) => ch.delta.tool_calls !== undefined)).toBe(false);
    expect(of(0).at(-1)!.finish_reason).toBe('tool_calls');
    expect(of(1).at(-1)!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage).toEqual({ total_tokens: 9 });
    expect(summary.ending).toBe('done');
    expect(summary.choices.map((c) => [c.index, c.parsed_calls])).toEqual([[0, 1], [1, 0]]);
  });

  it("passes the upstream's own reasoning on, under vLLM's `reasoning` as under `reasoning_content`, and leaves empty fields out", async () => {
    const events = [
      chunk(0, { role: 'assistant', content: '', reasoning: null, refusal: null }),
      chunk(0, { reasoning: 'The server split ' }),
      chunk(0, { reasoning: 'this off.', content: null }),
      chunk(0, { reasoning_content: 'Older name.' }),
      ...TEXT_0.match(/[\s\S]{1,6}/g)!.map((piece) => chunk(0, { content: piece })),
      chunk(0, {}, 'stop'),
      '[DONE]',
    ];
    const { frames } = await relay(events);
    const deltas = frames.slice(0, -1).map((f) => (JSON.parse(f.slice(6)) as { choices: { delta: Record<string, unknown> }[] }).choices[0]!.delta);
    expect(deltas.map((d) => d.reasoning ?? '').join('')).toBe('The server split this off.');
    expect(deltas.map((d) => d.reasoning_content ?? '').join('')).toBe('Older name.');
    expect(deltas.some((d) => 'refusal' in d)).toBe(false);
    expect(deltas.filter((d) => d.role !== undefined)).toHaveLength(1);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(parseToolCalls(TEXT_0, { tools: TOOLS }).prose);
    expect(deltas.flatMap((d) => (d.tool_calls as { function: { arguments: string } }[] | undefined) ?? []).map((c) => c.function.arguments).join('')).toBe('{"path":"a.rs"}');
  });

  it('passes an upstream error event on as it came, then closes the choice with length', async () => {
    const error = JSON.stringify({ error: { message: 'engine died', code: 500 } });
    const { frames, summary } = await relay([chunk(0, { content: 'Part' }), error], 3);
    expect(frames).toContain(`data: ${error}`);
    const last = JSON.parse(frames.at(-2)!.slice(6)) as { choices: { finish_reason: string }[] };
    expect(last.choices[0]!.finish_reason).toBe('length');
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(summary.ending).toBe('cut');
  });

  it('answers a body that says nothing with one closed choice and [DONE]', async () => {
    const { frames } = await relay([]);
    expect(frames).toHaveLength(3);
    const [open, last] = [frames[0]!, frames[1]!].map((f) => JSON.parse(f.slice(6)) as { choices: { delta: { role?: string }; finish_reason: string | null }[] });
    expect(open!.choices[0]!.delta.role).toBe('assistant');
    expect(last!.choices[0]!.finish_reason).toBe('length');
    expect(frames[2]).toBe('data: [DONE]');
  });
});
