/**
 * UPSTREAM_REASONING_STARTED through the sidecar: with `false`, a plain answer's lines reach an
 * OpenAI client as the upstream writes them; unset, the text decides (a close with no open could
 * still make it reasoning), so a plain answer comes at the end. Both assemble to the same message.
 */
import OpenAI from 'openai';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { listen } from './helpers.js';

const TOOLS = [{ type: 'function' as const, function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const PLAIN = 'Here is the plan.\nFirst, read the file.\nThen, change it.\nThat is all.';
const THINKING = 'The user wants a plan.</think>Here is the plan.\nRead it.';

let upstream: FakeUpstream;
const apps: FastifyInstance[] = [];
const clients: Record<string, OpenAI> = {};

beforeAll(async () => {
  upstream = await startFakeUpstream({ answers: { plain: { content: PLAIN, piece: 5 }, thinking: { content: THINKING, piece: 5 } }, pieceDelayMs: 2 });
  for (const [name, started] of [['auto', null], ['false', false], ['true', true]] as const) {
    const app = await buildApp({ pool: 'inline', defaultMetrics: false, upstreamUrl: upstream.url, upstreamReasoningStarted: started });
    apps.push(app);
    clients[name] = new OpenAI({ baseURL: `${await listen(app)}/v1`, apiKey: 'test', maxRetries: 0 });
  }
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await upstream.close();
});

async function streamed(client: OpenAI, model: string): Promise<{ contents: string[]; reasoning: string }> {
  const stream = await client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'plan' }], tools: TOOLS });
  const contents: string[] = [];
  let reasoning = '';
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
    if (typeof delta?.content === 'string' && delta.content !== '') contents.push(delta.content);
    if (typeof delta?.reasoning_content === 'string') reasoning += delta.reasoning_content;
  }
  return { contents, reasoning };
}

describe('sidecar: UPSTREAM_REASONING_STARTED', () => {
  it('false: a plain answer streams line by line; auto: it comes whole at the end; the same content either way', async () => {
    const early = await streamed(clients.false!, 'plain');
    const whole = await streamed(clients.auto!, 'plain');
    expect(early.contents.join('')).toBe(PLAIN);
    expect(whole.contents.join('')).toBe(PLAIN);
    expect(early.contents.length).toBeGreaterThanOrEqual(3);
    expect(whole.contents).toHaveLength(1);
  });

  it('true: the text before the close is reasoning, also for a whole answer', async () => {
    const got = await streamed(clients.true!, 'thinking');
    expect(got.reasoning).toBe('The user wants a plan.');
    expect(got.contents.join('')).toBe('Here is the plan.\nRead it.');
    const once = await clients.true!.chat.completions.create({ model: 'thinking', messages: [{ role: 'user', content: 'plan' }], tools: TOOLS });
    const message = once.choices[0]!.message as { content: string | null; reasoning_content?: string };
    expect(message.reasoning_content).toBe('The user wants a plan.');
    expect(message.content).toBe('Here is the plan.\nRead it.');
  });
});
