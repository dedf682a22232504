/**
 * Full duplex with the library's incremental release: a client writes a chunk, waits for the
 * events it makes certain, then writes the next. The call's events come while the request body
 * is still open, right after the chunk that holds `</tool_call>`; the prose before the call
 * comes before the call. Loopback only; every wait bounded in time.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import { inlineApp, listen } from '../server/helpers.js';
import { duplex, ndjson, ndjsonLine } from './client.js';

const CALL = 'Hi.\n<tool_call>{"name": "look", "arguments": {"path": "a"}}</tool_call>\n';
const MORE = 'Then more prose, still being written.';

let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  app = await inlineApp();
  base = await listen(app);
});
afterAll(async () => {
  await app.close();
});

describe('events while the request body still arrives', () => {
  for (const form of ['ndjson', 'text/plain'] as const) {
    it(`sends the call's events after the chunk holding </tool_call>, before the body ends (${form})`, async () => {
      const stream = form === 'ndjson' ? duplex(base, '/parse/stream', 'application/x-ndjson') : duplex(base, '/parse/stream?tools=look', 'text/plain');
      onTestFinished(() => stream.destroy());
      const send = (text: string) => stream.write(form === 'ndjson' ? ndjsonLine({ text }) : text);
      if (form === 'ndjson') await stream.write(ndjsonLine({ tools: ['look'] }));
      const close = CALL.indexOf('</tool_call>') + '</tool_call>'.length;
      // Up to the closing marker, in two pieces; then the rest of the body waits for the events.
      await send(CALL.slice(0, 20));
      await send(CALL.slice(20, close));
      const said = await stream.until((text) => text.includes('"type":"call_end"'));
      expect(stream.ended).toBe(false);
      const early = ndjson(said);
      const types = early.map((e) => e.type);
      expect(types).toContain('call_start');
      expect(types.indexOf('call_start')).toBeLessThan(types.indexOf('call_end'));
      expect(early.find((e) => e.type === 'call_end')!.call).toEqual(parseToolCalls(CALL, { tools: ['look'] }).calls[0]);
      // What prose was said before the call is the start of the final prose, never taken back.
      const earlyProse = early.filter((e) => e.type === 'text').map((e) => e.text).join('');
      expect(parseToolCalls(CALL + MORE, { tools: ['look'] }).prose.startsWith(earlyProse)).toBe(true);
      await send(CALL.slice(close) + MORE);
      stream.end();
      const all = ndjson(await stream.done);
      expect(all.slice(0, early.length)).toEqual(early);
      expect(all.at(-1)).toEqual({ type: 'result', partial: false, result: parseToolCalls(CALL + MORE, { tools: ['look'] }) });
    });
  }
});
