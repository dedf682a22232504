import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../parse.js';
import { createStreamParser } from './parser.js';
import type { StreamEvent } from './events.js';

function streamed(text: string, size: number, options?: Parameters<typeof createStreamParser>[0]) {
  const stream = createStreamParser(options);
  const events: StreamEvent[] = [];
  for (let i = 0; i < text.length; i += size) events.push(...stream.push(text.slice(i, i + size)));
  const end = stream.end();
  return { events: [...events, ...end.events], result: end.result };
}

describe('createStreamParser', () => {
  const text = 'Reading it.\n<tool_call>{"name": "look", "arguments": {"path": "a.rs"}}</tool_call>\nDone.';

  it('ends with exactly the one-shot result, and its events spell the result out', () => {
    const { events, result } = streamed(text, 3, { tools: ['look'] });
    expect(result).toEqual(parseToolCalls(text, { tools: ['look'] }));
    const one = parseToolCalls(text, { tools: ['look'] });
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('')).toBe(one.prose);
    expect(events.flatMap((e) => (e.type === 'call_end' ? [e.call] : []))).toEqual(one.calls);
    const args = events.flatMap((e) => (e.type === 'call_arguments_delta' ? [e.delta] : [])).join('');
    expect(args).toBe(JSON.stringify(one.calls[0]!.arguments));
  });

  it('checks its options up front and refuses misuse', () => {
    expect(() => createStreamParser({ profile: 'nope' as never })).toThrow(/profile/);
    const stream = createStreamParser();
    expect(() => stream.push(3 as never)).toThrow(/chunk must be a string/);
    stream.end();
    expect(() => stream.push('x')).toThrow(/after end/);
  });
});

describe('reasoning_started, three ways', () => {
  it('unset: a close before any other marker ends reasoning; false: it is a stray marker; true: reasoning ran from the start', () => {
    const text = 'x</think>y';
    expect(parseToolCalls(text).reasoning).toBe('x');
    expect(parseToolCalls(text, { reasoning_started: true }).reasoning).toBe('x');
    const stray = parseToolCalls(text, { reasoning_started: false });
    expect([stray.reasoning, stray.prose]).toEqual([null, 'x\n\ny']);
    expect(parseToolCalls('all thought', { reasoning_started: true }).reasoning).toBe('all thought');
    expect(parseToolCalls('all thought', { reasoning_started: false }).reasoning).toBeNull();
  });
});
