/**
 * Stream events as Anthropic message stream events, the body of each server-sent event of a
 * streamed message: `message_start`, then one content block at a time (`content_block_start`,
 * its `content_block_delta`s, `content_block_stop`), then `message_delta` with the stop reason
 * and `message_stop`. Prose is a `text` block (`text_delta`), reasoning a `thinking` block
 * (`thinking_delta`), a call a `tool_use` block whose input arrives as `input_json_delta`.
 *
 * A block stays open while events of its kind follow, so consecutive text events are one block;
 * a call's block closes at its `call_end`. An open model's reasoning carries no signature, so a
 * thinking block's `signature` is the empty string, as in the one-shot anthropic shape.
 */
import type { StreamEvent } from './events.js';

export type AnthropicStartBlock =
  | { type: 'text'; text: '' }
  | { type: 'thinking'; thinking: ''; signature: '' }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, never> };

export type AnthropicDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'input_json_delta'; partial_json: string };

export type AnthropicStopReason = 'end_turn' | 'tool_use' | 'max_tokens';

export interface AnthropicMessageStart {
  type: 'message_start';
  message: {
    id: string;
    type: 'message';
    role: 'assistant';
    model: string;
    content: [];
    stop_reason: null;
    stop_sequence: null;
    usage: { input_tokens: number; output_tokens: number };
  };
}

export type AnthropicStreamEvent =
  | AnthropicMessageStart
  | { type: 'content_block_start'; index: number; content_block: AnthropicStartBlock }
  | { type: 'content_block_delta'; index: number; delta: AnthropicDelta }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: AnthropicStopReason; stop_sequence: null }; usage: { output_tokens: number } }
  | { type: 'message_stop' };

export interface MessageIdentity {
  readonly id: string;
  readonly model: string;
}

type OpenBlock = 'text' | 'thinking' | 'tool_use' | null;

/** Turns one stream's events into message stream events; remembers the open block and whether a call was seen. */
export class AnthropicEventEncoder {
  private started = false;
  private finished = false;
  private open: OpenBlock = null;
  /** The index the next block takes. */
  private blocks = 0;
  private calls = 0;

  constructor(private readonly identity: MessageIdentity) {}

  private begin(out: AnthropicStreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    const { id, model } = this.identity;
    out.push({
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } },
    });
  }

  private close(out: AnthropicStreamEvent[]): void {
    if (this.open === null) return;
    out.push({ type: 'content_block_stop', index: this.blocks - 1 });
    this.open = null;
  }

  private openBlock(block: AnthropicStartBlock, out: AnthropicStreamEvent[]): number {
    this.close(out);
    const index = this.blocks++;
    this.open = block.type;
    out.push({ type: 'content_block_start', index, content_block: block });
    return index;
  }

  /** The index of an open block of `kind`, opening one when another kind (or none) is open. */
  private blockFor(kind: 'text' | 'thinking', out: AnthropicStreamEvent[]): number {
    if (this.open === kind) return this.blocks - 1;
    return this.openBlock(kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' }, out);
  }

  /** `message_start` alone, for a stream that wants its head before any event. */
  start(out: AnthropicStreamEvent[] = []): AnthropicStreamEvent[] {
    this.begin(out);
    return out;
  }

  /** The stream events for `events` (diagnostics make none). */
  encode(events: readonly StreamEvent[], out: AnthropicStreamEvent[] = []): AnthropicStreamEvent[] {
    this.begin(out);
    for (const event of events) {
      switch (event.type) {
        case 'text':
          if (event.text !== '') out.push({ type: 'content_block_delta', index: this.blockFor('text', out), delta: { type: 'text_delta', text: event.text } });
          break;
        case 'reasoning':
          if (event.text !== '') out.push({ type: 'content_block_delta', index: this.blockFor('thinking', out), delta: { type: 'thinking_delta', thinking: event.text } });
          break;
        case 'call_start':
          this.calls++;
          this.openBlock({ type: 'tool_use', id: event.id, name: event.name, input: {} }, out);
          break;
        case 'call_arguments_delta':
          if (this.open === 'tool_use') out.push({ type: 'content_block_delta', index: this.blocks - 1, delta: { type: 'input_json_delta', partial_json: event.delta } });
          break;
        case 'call_end':
          if (this.open === 'tool_use') this.close(out);
          break;
        default:
          break;
      }
    }
    return out;
  }

  /** The closing events: `tool_use` when the stream held a call, else `end_turn` (or the reason given). */
  finish(reason?: AnthropicStopReason, out: AnthropicStreamEvent[] = []): AnthropicStreamEvent[] {
    if (this.finished) throw new Error('finish() called twice');
    this.finished = true;
    this.begin(out);
    this.close(out);
    out.push({ type: 'message_delta', delta: { stop_reason: reason ?? (this.calls > 0 ? 'tool_use' : 'end_turn'), stop_sequence: null }, usage: { output_tokens: 0 } });
    out.push({ type: 'message_stop' });
    return out;
  }
}
