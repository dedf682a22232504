/**
 * The gateway's pythonic look-alike after a label (pythonic.ts): read as the JSON payload
 * beside prose is, and in linear work.
 */
import { describe, expect, it } from 'vitest';
import { countStringWork } from '../../../test/support/string-work.js';
import { parseToolCalls } from '../parse.js';
import type { KnownNames } from './names.js';
import { pythonicListCalls } from './pythonic.js';

const tools = [{ name: 'get_weather' }, { name: 'search' }];
const gateway = (text: string, withTools: unknown = tools) => parseToolCalls(text, { tools: withTools, profile: 'gateway' });
const GATEWAY_NAMES: KnownNames = { has: (name) => name === 'get_weather' || name === 'search', sorted: ['get_weather', 'search'], folds: false, lookAlikes: true };

describe('a pythonic list after a label', () => {
  it('is calls when every name is registered, the label the prose, as the JSON look-alike there is', () => {
    const pythonic = gateway("Sure: [get_weather(city='Paris'), search(query='x')]");
    expect(pythonic.calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Paris' }], ['search', { query: 'x' }]]);
    expect(pythonic.prose).toBe('Sure:');
    const json = gateway('Sure: {"name": "get_weather", "arguments": {"city": "Paris"}}');
    expect([json.calls.length, json.prose]).toEqual([1, 'Sure:']);
  });

  it('takes the blanks before a payload with it when a blank, a line break or the end follows (gateway), as a stream releases that prose', () => {
    const wrote = (payload: string, after: string) => gateway(`Hi  ${payload}${after}`);
    for (const payload of ['{"name": "get_weather", "arguments": {"city": "Paris"}}', "[get_weather(city='Paris')]"]) {
      expect(wrote(payload, '\n\nok').prose, payload).toBe('Hi\n\nok');
      expect(wrote(payload, '').prose, payload).toBe('Hi');
    }
    const json = '{"name": "get_weather", "arguments": {"city": "Paris"}}';
    expect(wrote(json, ' now.').prose).toBe('Hi now.');
    expect(wrote(json, ', then').prose).toBe('Hi  , then');
    expect(parseToolCalls('Hi {"name": "get_weather", "arguments": {}}\nok', { tools, profile: 'harn' }).prose).toBe('Hi \nok');
  });

  it('stays prose with an unregistered name, with no registry, glued to a word, and under harn', () => {
    for (const [text, options] of [
      ["Sure: [get_weather(city='Paris'), send_email(to='x')]", { tools, profile: 'gateway' }],
      ["Sure: [get_weather(city='Paris')]", { profile: 'gateway' }],
      ["Use items[get_weather(city='Paris')] here", { tools, profile: 'gateway' }],
      ["Sure: [get_weather(city='Paris')]", { tools, profile: 'harn' }],
    ] as const) {
      const result = parseToolCalls(text, options);
      expect(result.calls, text).toEqual([]);
      expect(result.tool_parse_errors, text).toEqual([]);
      expect(result.prose, text).toBe(text);
    }
  });

  it('reads each candidate forward once: broken and unregistered lists do not make it quadratic', () => {
    const shapes: Record<string, (n: number) => string> = {
      'lists cut inside a string': (n) => " [get_weather(city='".repeat(n),
      'lists of unregistered calls': (n) => " [other(x=1)]".repeat(n),
      'calls that never close': (n) => ' [get_weather(city=1, '.repeat(n),
      'nested lists': (n) => ' [get_weather(city=['.repeat(n),
    };
    for (const [label, make] of Object.entries(shapes)) {
      const work = (n: number): number => countStringWork(() => pythonicListCalls(make(n), GATEWAY_NAMES, { steps: 0 }));
      const small = work(500);
      const large = work(4000);
      expect(large, label).toBeLessThanOrEqual(10 * small + 4096);
    }
  });
});
