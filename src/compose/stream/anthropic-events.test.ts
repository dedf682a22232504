import { describe, expect, it } from 'vitest';
import { AnthropicEventEncoder } from './anthropic-events.js';
import type { StreamEvent } from './events.js';

const call = { id: 'tc_0', name: 'look', arguments: { path: 'a' } };

describe('AnthropicEventEncoder', () => {
  it('opens one block per run of a kind, numbers blocks in order, and closes a call at its call_end', () => {
    const encoder = new AnthropicEventEncoder({ id: 'm1', model: 'x' });
    const events: StreamEvent[] = [
      { type: 'reasoning', text: 'plan' },
      { type: 'text', text: 'Hi' },
      { type: 'text', text: '.' },
      { type: 'call_start', index: 0, id: 'tc_0', name: 'look' },
      { type: 'call_arguments_delta', index: 0, delta: '{"path":' },
      { type: 'call_arguments_delta', index: 0, delta: '"a"}' },
      { type: 'call_end', index: 0, call },
      { type: 'error', message: 'ignored here' },
    ];
    const out = [...encoder.encode(events), ...encoder.finish()];
    expect(out.map((e) => e.type === 'content_block_delta' ? `${e.index}:${e.delta.type}` : 'index' in e ? `${e.index}:${e.type}` : e.type)).toEqual([
      'message_start',
      '0:content_block_start', '0:thinking_delta', '0:content_block_stop',
      '1:content_block_start', '1:text_delta', '1:text_delta', '1:content_block_stop',
      '2:content_block_start', '2:input_json_delta', '2:input_json_delta', '2:content_block_stop',
      'message_delta', 'message_stop',
    ]);
    expect(out.at(-2)).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 0 } });
    expect(out[8]).toEqual({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'tc_0', name: 'look', input: {} } });
  });

  it('ends a turn without calls with end_turn, says message_start once, and refuses a second finish', () => {
    const encoder = new AnthropicEventEncoder({ id: 'm2', model: 'x' });
    expect(encoder.start().map((e) => e.type)).toEqual(['message_start']);
    expect(encoder.encode([{ type: 'text', text: 'ok' }]).map((e) => e.type)).toEqual(['content_block_start', 'content_block_delta']);
    expect(encoder.finish().map((e) => e.type === 'message_delta' ? e.delta.stop_reason : e.type)).toEqual(['content_block_stop', 'end_turn', 'message_stop']);
    expect(() => encoder.finish()).toThrow(/twice/);
  });
});
