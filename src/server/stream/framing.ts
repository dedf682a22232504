/**
 * How a stream's events go on the wire, one framing per output shape:
 *
 *   tool-parse  application/x-ndjson  one event per line; the last line `{"type":"result", ...}`
 *   openai      text/event-stream     `chat.completion.chunk` objects, a finish chunk, `data: [DONE]`
 *   anthropic   text/event-stream     Anthropic's message stream events, `message_stop` last
 *
 * A framing is stateful (the encoders remember what they said), and deterministic: the same
 * events in the same order give the same bytes, which is what lets a worker replay a stream
 * and answer only its tail.
 */
import { AnthropicEventEncoder, OpenAIChunkEncoder, type AnthropicStreamEvent, type OpenAIChunk } from '../../compose/index.js';
import type { StreamEnd } from '../../compose/stream/parser.js';
import type { StreamEvent } from '../../compose/stream/events.js';
import type { AnthropicShaped, OpenAIShaped } from '../../compose/shape.js';
import type { ParseResult } from '../../compose/types.js';
import type { ErrorCodeValue } from '../errors.js';
import type { StreamSpec } from '../runner/wire.js';
import { projectCall, projectResult, projectViolation } from '../worker/project.js';

export interface WireFailure {
  code: ErrorCodeValue;
  message: string;
}

export interface StreamFraming {
  readonly contentType: string;
  /** What opens the stream, before any event ('' when the shape has no head). */
  head(): string;
  events(events: readonly StreamEvent[]): string;
  /**
   * The close: the remaining events, then the result; after a failure (the stream ended early),
   * the remaining events of the partial text, the failure, then the partial result where the
   * shape has one.
   */
  end(end: StreamEnd, failure: WireFailure | null): string;
  /** The close when no result can be given (the final parse itself failed). */
  abort(failure: WireFailure): string;
}

/** A `call_end` and a `violation` carry only their documented fields, as the one-shot answer does. */
function wireEvent(event: StreamEvent): StreamEvent {
  if (event.type === 'call_end') return { type: 'call_end', index: event.index, call: projectCall(event.call) };
  if (event.type === 'violation') return { type: 'violation', violation: projectViolation(event.violation) };
  return event;
}

/** The end result as the one-shot answer gives it: a full tool-parse result is projected onto its schema. */
function wireResult(result: StreamEnd['result'], spec: StreamSpec): unknown {
  const { shape, include } = spec.reading;
  if ((shape === undefined || shape === 'tool-parse') && include === undefined) return projectResult(result as ParseResult);
  return result;
}

class NdjsonFraming implements StreamFraming {
  readonly contentType = 'application/x-ndjson; charset=utf-8';
  constructor(private readonly spec: StreamSpec) {}

  head(): string {
    return '';
  }

  events(events: readonly StreamEvent[]): string {
    let out = '';
    for (const event of events) out += JSON.stringify(wireEvent(event)) + '\n';
    return out;
  }

  end(end: StreamEnd, failure: WireFailure | null): string {
    let out = this.events(end.events);
    if (failure !== null) out += this.abort(failure);
    out += JSON.stringify({ type: 'result', partial: failure !== null, result: wireResult(end.result, this.spec) }) + '\n';
    return out;
  }

  abort(failure: WireFailure): string {
    return JSON.stringify({ type: 'stream_error', error: { code: failure.code, message: failure.message } }) + '\n';
  }
}

const sse = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;

class OpenAIFraming implements StreamFraming {
  readonly contentType = 'text/event-stream; charset=utf-8';
  readonly #encoder: OpenAIChunkEncoder;
  constructor(spec: StreamSpec) {
    this.#encoder = new OpenAIChunkEncoder(spec.identity);
  }

  head(): string {
    return '';
  }

  events(events: readonly StreamEvent[]): string {
    let out = '';
    for (const chunk of this.#encoder.encode(events)) out += sse(chunk);
    return out;
  }

  /** The finish chunk carries the diagnostics beside `choices`, as the one-shot openai shape does beside the message. */
  end(end: StreamEnd, failure: WireFailure | null): string {
    let out = this.events(end.events);
    if (failure !== null) return out + this.abort(failure);
    const shaped = end.result as OpenAIShaped;
    const finish: OpenAIChunk & { diagnostics?: unknown } = this.#encoder.finish(shaped.finish_reason);
    finish.diagnostics = shaped.diagnostics;
    out += sse(finish) + 'data: [DONE]\n\n';
    return out;
  }

  /** An `error` object where a chunk would be: the openai client raises it as an APIError. */
  abort(failure: WireFailure): string {
    return sse({ error: { code: failure.code, type: failure.code, message: failure.message } }) + 'data: [DONE]\n\n';
  }
}

const named = (event: { readonly type: string }): string => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

class AnthropicFraming implements StreamFraming {
  readonly contentType = 'text/event-stream; charset=utf-8';
  readonly #encoder: AnthropicEventEncoder;
  constructor(spec: StreamSpec) {
    this.#encoder = new AnthropicEventEncoder({ id: spec.identity.id, model: spec.identity.model });
  }

  head(): string {
    return this.#encoder.start().map(named).join('');
  }

  events(events: readonly StreamEvent[]): string {
    return this.#encoder.encode(events).map(named).join('');
  }

  /** `message_delta` carries the diagnostics beside the stop reason. */
  end(end: StreamEnd, failure: WireFailure | null): string {
    let out = this.events(end.events);
    if (failure !== null) return out + this.abort(failure);
    const shaped = end.result as AnthropicShaped;
    for (const event of this.#encoder.finish(shaped.stop_reason)) {
      const withDiagnostics: AnthropicStreamEvent & { diagnostics?: unknown } = event.type === 'message_delta' ? { ...event, diagnostics: shaped.diagnostics } : event;
      out += named(withDiagnostics);
    }
    return out;
  }

  /** Anthropic's own error event: the client raises it. */
  abort(failure: WireFailure): string {
    const event = { type: 'error', error: { type: failure.code, message: failure.message } };
    return named(event);
  }
}

export function framingFor(spec: StreamSpec): StreamFraming {
  switch (spec.reading.shape) {
    case 'openai':
      return new OpenAIFraming(spec);
    case 'anthropic':
      return new AnthropicFraming(spec);
    default:
      return new NdjsonFraming(spec);
  }
}
