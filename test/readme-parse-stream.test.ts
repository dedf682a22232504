/**
 * The README's `POST /parse/stream` examples run as written (curl against the service on a
 * loopback port instead of localhost:8080), and answer what the README shows: the NDJSON events
 * of the first (fragments of one text or one call's arguments may be cut differently, so runs
 * of them are joined before comparing) and the final result `/parse` gives; the OpenAI chunks of
 * the second.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolCalls } from '../src/index.js';
import { inlineApp, listen } from './server/helpers.js';
import { ndjson, sseEvents } from './stream/client.js';

const HAS_CURL = spawnSync('curl', ['--version'], { encoding: 'utf8' }).status === 0;
const run = promisify(execFile);
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('### `POST /parse/stream`'), readme.indexOf('### Operations'));
const blocks = (lang: string): string[] => [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

type Event = Record<string, unknown>;

/** Consecutive text events, and consecutive argument fragments of one call, as one event each. */
function joined(events: readonly Event[]): Event[] {
  const out: Event[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (last?.type === 'text' && event.type === 'text') last.text = String(last.text) + String(event.text);
    else if (last?.type === 'call_arguments_delta' && event.type === 'call_arguments_delta' && last.index === event.index) last.delta = String(last.delta) + String(event.delta);
    else out.push({ ...event });
  }
  return out;
}

let app: FastifyInstance;
let host: string;
beforeAll(async () => {
  app = await inlineApp();
  host = new URL(await listen(app)).host;
});
afterAll(async () => {
  await app.close();
});

const shell = async (script: string): Promise<string> =>
  (await run('bash', ['-c', script.replaceAll('localhost:8080', host)], { encoding: 'utf8', timeout: 20_000 })).stdout;

describe('README, POST /parse/stream', () => {
  it('has the two examples and the answer it shows', () => {
    expect(blocks('sh')).toHaveLength(2);
    expect(blocks('json')).toHaveLength(1);
  });

  it.skipIf(!HAS_CURL)('the NDJSON example answers the events shown, and last the /parse result', async () => {
    const lines = ndjson(await shell(blocks('sh')[0]!));
    const shown = blocks('json')[0]!.trim().split('\n');
    const shownEvents = shown.slice(0, -1).map((line) => JSON.parse(line) as Event);
    expect(joined(lines.slice(0, -1))).toEqual(shownEvents);
    const text = 'Hi.\n<tool_call>{"name": "look", "arguments": {"path": "a.rs"}}</tool_call>\n';
    expect(lines.at(-1)).toEqual({ type: 'result', partial: false, result: parseToolCalls(text, { tools: ['look'] }) });
    // The shown result line is that result, cut short.
    const [head] = shown.at(-1)!.split(',...');
    expect(JSON.stringify(lines.at(-1)).startsWith(head!)).toBe(true);
  });

  it.skipIf(!HAS_CURL)('the text/plain example answers OpenAI chunks with the call, a finish reason and [DONE]', async () => {
    const events = sseEvents(await shell(blocks('sh')[1]!));
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as { object: string; choices: { delta: { tool_calls?: { function: { name?: string; arguments: string } }[] }; finish_reason: string | null }[] });
    expect(new Set(chunks.map((c) => c.object))).toEqual(new Set(['chat.completion.chunk']));
    const calls = chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []);
    expect(calls[0]!.function.name).toBe('look');
    expect(calls.map((c) => c.function.arguments).join('')).toBe('{"path":"a.rs"}');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });
});
