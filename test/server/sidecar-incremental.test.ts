/**
 * The stream relay against a stream parser that releases events as `push` goes (the lead is
 * making the real one incremental; today it says everything at `end()`). The stand-in gives the
 * real parser's events for the whole text, spread over the pushes, each call's arguments split
 * in two fragments: the answer a client assembles must be the same as with today's parser, and
 * parsed calls must now go out before the upstream's stream ends.
 */
import OpenAI from 'openai';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ParseOptions, StreamEvent, StreamParser } from '../../src/index.js';
import { buildApp } from '../../src/server/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { listen } from './helpers.js';

/** The whole text each stand-in parser will be fed, and how many pushes it will get. */
const plan = { text: '', pushes: 1 };

vi.mock('../../src/compose/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/compose/index.js')>();
  const incremental = (options?: ParseOptions): StreamParser => {
    const whole = real.createStreamParser(options);
    const early = whole.push(plan.text);
    const { events: rest, result } = whole.end();
    const all = [...early, ...rest];
    const events: StreamEvent[] = all.flatMap((e) =>
      e.type === 'call_arguments_delta' && e.delta.length > 1
        ? [{ ...e, delta: e.delta.slice(0, 1) }, { ...e, delta: e.delta.slice(1) }]
        : [e]);
    let pushed = 0;
    let released = 0;
    let received = 0;
    return {
      get length() {
        return received;
      },
      get work() {
        return received;
      },
      get copied() {
        return 0;
      },
      push(chunk: string) {
        received += chunk.length;
        pushed++;
        const upTo = Math.min(events.length, Math.floor((events.length * pushed) / (plan.pushes + 1)));
        const out = events.slice(released, upTo);
        released = Math.max(released, upTo);
        return out;
      },
      end() {
        return { events: events.slice(released), result };
      },
    };
  };
  return { ...real, createStreamParser: incremental };
});

const TOOLS = [
  { type: 'function' as const, function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
  { type: 'function' as const, function: { name: 'run', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } } },
];
const TEXTS: Record<string, string> = {
  hermes: 'Reading it.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>\nThen\n<tool_call>\n{"name": "run", "arguments": {"cmd": "ls"}}\n</tool_call>',
  think: '<think>Which one? a.rs.</think>I will look.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>',
};
const PIECE = 7;

let upstream: FakeUpstream;
let app: FastifyInstance;
let client: OpenAI;
let base: string;

beforeAll(async () => {
  upstream = await startFakeUpstream({
    answers: { ...Object.fromEntries(Object.entries(TEXTS).map(([k, content]) => [k, { content, piece: PIECE }])), 'slow-hermes': { content: TEXTS.hermes!, piece: PIECE } },
    pieceDelayMs: 5,
  });
  app = await buildApp({ pool: 'inline', defaultMetrics: false, upstreamUrl: upstream.url });
  base = await listen(app);
  client = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'k', maxRetries: 0 });
});

afterAll(async () => {
  await app.close();
  await upstream.close();
});

describe('stream relay with an incremental parser', () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    it(`${name}: the client assembles the same calls, ids, content and reasoning`, async () => {
      plan.text = text;
      plan.pushes = Math.ceil(text.length / PIECE);
      const stream = client.chat.completions.stream({ model: name, messages: [], tools: TOOLS });
      const final = await stream.finalChatCompletion();
      const message = final.choices[0]!.message as typeof final.choices[0]['message'] & { reasoning_content?: string };
      // What the whole text parses to (the stand-in's end() result is the real parser's).
      const expected = (await import('../../src/index.js')).parseToolCalls(text, { tools: TOOLS, profile: 'gateway' });
      expect(message.tool_calls!.map((c) => ('function' in c ? [c.function.name, JSON.parse(c.function.arguments) as unknown] : null))).toEqual(expected.calls.map((c) => [c.name, c.arguments]));
      expect(message.tool_calls!.map((c) => c.id)).toEqual(expected.calls.map((c) => c.id));
      expect(message.content).toBe(expected.prose);
      expect(message.reasoning_content ?? null).toBe(expected.reasoning ?? null);
      expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    });
  }

  it('a parsed call reaches the client while the upstream is still sending', async () => {
    plan.text = TEXTS.hermes!;
    plan.pushes = Math.ceil(plan.text.length / PIECE);
    const before = upstream.contentDeltas;
    const stream = await client.chat.completions.create({ model: 'slow-hermes', messages: [], tools: TOOLS, stream: true });
    let sentWhenFirstCall: number | null = null;
    for await (const chunk of stream) {
      if (sentWhenFirstCall === null && chunk.choices[0]?.delta.tool_calls) sentWhenFirstCall = upstream.contentDeltas - before;
    }
    expect(sentWhenFirstCall).not.toBeNull();
    expect(sentWhenFirstCall!).toBeLessThan(plan.pushes);
    expect(upstream.contentDeltas - before).toBe(plan.pushes);
  });
});
