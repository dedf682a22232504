/**
 * `createStreamParser`: the text of one response as it is generated, in chunks cut anywhere.
 *
 *   push(chunk)* --> events as they become certain
 *   end()        --> the remaining events, and exactly `parseToolCalls(whole text, options)`
 *
 * The whole text is kept (the final result is the one-shot parse of it, so the stream can never
 * disagree with it); chunks are joined once, at the end.
 */
import { parseTurn, type ParseOptions } from '../parse.js';
import { shapeResult, type ShapedResult } from '../shape.js';
import type { ParseResult } from '../types.js';
import { nothingEmitted, remainingEvents, type StreamEvent } from './events.js';

export interface StreamEnd {
  /** The events not emitted by `push`, in order. */
  readonly events: StreamEvent[];
  /** What `parseToolCalls(text, options)` returns for the whole text. */
  readonly result: ParseResult | ShapedResult;
}

export interface StreamParser {
  /** Feeds the next chunk; returns the events it made certain. */
  push(chunk: string): StreamEvent[];
  /** Ends the text; returns the remaining events and the final result. */
  end(): StreamEnd;
  /** The characters received so far. */
  readonly length: number;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

class TextStreamParser implements StreamParser {
  private readonly chunks: string[] = [];
  private received = 0;
  private ended = false;
  private readonly emitted = nothingEmitted();

  constructor(private readonly options: ParseOptions | undefined) {}

  get length(): number {
    return this.received;
  }

  push(chunk: string): StreamEvent[] {
    if (typeof chunk !== 'string') throw new TypeError(`chunk must be a string; got ${typeName(chunk)}`);
    if (this.ended) throw new Error('push() after end()');
    if (chunk.length === 0) return [];
    this.chunks.push(chunk);
    this.received += chunk.length;
    return [];
  }

  end(): StreamEnd {
    if (this.ended) throw new Error('end() called twice');
    this.ended = true;
    const text = this.chunks.join('');
    this.chunks.length = 0;
    const turn = parseTurn(text, this.options);
    const events: StreamEvent[] = [];
    remainingEvents(turn, this.emitted, events);
    const { shape, include } = turn.options;
    const shaped = shape === 'tool-parse' && include === null ? turn.result : shapeResult(turn.result, shape, include, turn.parts);
    const result = turn.trace === null ? shaped : { ...shaped, trace: turn.trace };
    return { events, result };
  }
}

/**
 * A parser for one response arriving in chunks. Takes the options of `parseToolCalls`, checked
 * at once (a wrong option throws here, not at the first chunk).
 */
export function createStreamParser(options?: ParseOptions): StreamParser {
  parseTurn('', options);
  return new TextStreamParser(options);
}
