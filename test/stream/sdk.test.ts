/**
 * The SSE shapes of POST /parse/stream read by the providers' own clients: the official `openai`
 * package's streaming helper (`chat.completions.stream`, accumulating `delta.tool_calls`) and
 * `@anthropic-ai/sdk`'s `messages.stream` (accumulating `input_json_delta`) get the calls the
 * one-shot parse gives in that shape. Each client's `fetch` is pointed at the stream route, so
 * the bytes they read are the service's, unchanged. Loopback only.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolCalls, type AnthropicShaped, type OpenAIShaped } from '../../src/index.js';
import { inlineApp, listen } from '../server/helpers.js';
import { ndjsonLine } from './client.js';

const TOOLS = ['look', 'edit'];
const TEXT =
  '<think>Two files to read.</think>Reading them.\n' +
  '<tool_call>{"name": "look", "arguments": {"path": "a.rs"}}</tool_call>\n' +
  '<tool_call>{"name": "edit", "arguments": {"path": "b.rs", "lines": [1, 2], "note": "é ｜ 𝄞"}}</tool_call>';

let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  app = await inlineApp();
  base = await listen(app);
});
afterAll(async () => {
  await app.close();
});

/** A `fetch` for an SDK client: whatever it asks, the stream route answers `TEXT` in `shape`, in 4-character lines. */
function streamFetch(shape: 'openai' | 'anthropic', text: string): typeof fetch {
  return (async () => {
    let body = ndjsonLine({ tools: TOOLS, shape });
    for (let i = 0; i < text.length; i += 4) body += ndjsonLine({ text: text.slice(i, i + 4) });
    return fetch(`${base}/parse/stream`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body, signal: AbortSignal.timeout(20_000) });
  }) as typeof fetch;
}

describe('shape openai, read by the openai client', () => {
  it('accumulates the tool calls, content and finish reason of the one-shot openai shape', async () => {
    const client = new OpenAI({ apiKey: 'x', baseURL: `${base}/v1`, fetch: streamFetch('openai', TEXT), maxRetries: 0 });
    const stream = client.chat.completions.stream({ model: 'any', messages: [{ role: 'user', content: 'go' }] });
    let deltas = 0;
    stream.on('chunk', () => {
      deltas += 1;
    });
    const completion = await stream.finalChatCompletion();
    const oneShot = parseToolCalls(TEXT, { tools: TOOLS, shape: 'openai' }) as unknown as OpenAIShaped;
    const choice = completion.choices[0]!;
    expect(choice.message.tool_calls).toEqual(oneShot.message.tool_calls);
    expect(choice.message.tool_calls).toHaveLength(2);
    expect(choice.finish_reason).toBe(oneShot.finish_reason);
    expect(choice.message.content).toBe(oneShot.message.content);
    expect(deltas).toBeGreaterThan(3);
  });

  it('raises the error a stream ends with as an APIError', async () => {
    const failing = (async () => {
      const body = ndjsonLine({ tools: TOOLS, shape: 'openai' }) + ndjsonLine({ text: 'Hi.' }) + '{"nope": 1}\n';
      return fetch(`${base}/parse/stream`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body });
    }) as typeof fetch;
    const client = new OpenAI({ apiKey: 'x', baseURL: `${base}/v1`, fetch: failing, maxRetries: 0 });
    const stream = client.chat.completions.stream({ model: 'any', messages: [{ role: 'user', content: 'go' }] });
    await expect(stream.finalChatCompletion()).rejects.toThrow(/line 3\.nope is not a known field/);
  });
});

describe('shape anthropic, read by the Anthropic client', () => {
  it('accumulates the tool_use blocks of the one-shot anthropic shape, and its stop reason', async () => {
    const client = new Anthropic({ apiKey: 'x', baseURL: base, fetch: streamFetch('anthropic', TEXT), maxRetries: 0 });
    const stream = client.messages.stream({ model: 'any', max_tokens: 16, messages: [{ role: 'user', content: 'go' }] });
    const message = await stream.finalMessage();
    const oneShot = parseToolCalls(TEXT, { tools: TOOLS, shape: 'anthropic' }) as unknown as AnthropicShaped;
    const toolUses = (blocks: readonly { type: string }[]) => blocks.filter((b) => b.type === 'tool_use');
    expect(toolUses(message.content)).toEqual(toolUses(oneShot.message.content));
    expect(toolUses(message.content)).toHaveLength(2);
    expect(message.stop_reason).toBe(oneShot.stop_reason);
    const thinking = message.content.filter((b) => b.type === 'thinking').map((b) => (b as { thinking: string }).thinking);
    expect(thinking).toEqual(['Two files to read.']);
  });
});
