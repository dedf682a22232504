/**
 * `createStreamParser`: the text of one response as it is generated, in chunks cut anywhere.
 *
 *   push(chunk)* --> events as they become certain
 *   end()        --> the remaining events, and exactly `parseToolCalls(whole text, options)`
 *
 * Each chunk is searched once, with a short overlap, for field-grammar openers and markers
 * (watch.ts). While the held text holds an opener, a completed marker sends it to `releasable`
 * (segment.ts), which reads it as the one-shot parse will and releases the regions that no
 * later text can change, with the text before them. The whole text is kept, and `end()` parses
 * it once, so the final result is the one-shot parse by construction; the released events are
 * a prefix of what that parse says (docs/design.md, "Streaming").
 *
 * perf: a try reads the held text again, so tries are bounded by a budget: no try once the
 * characters tried exceed 1.5 times the characters received. The work over a stream is then
 * at most the tries, the text between released regions read by the rest lane, and the final
 * parse: 3.5 texts' worth at the very worst, 2.3 measured on a 200 KB agent turn in 1-, 4- and
 * 64-character chunks (test/stream/release.test.ts), however the text is cut.
 */
import { parseTurn, turnReader, type ParseOptions, type TurnReader } from '../parse.js';
import { shapeResult, type ShapedResult } from '../shape.js';
import type { ParseResult } from '../types.js';
import { nothingEmitted, remainingEvents, callEvents, type Emitted, type StreamEvent } from './events.js';
import { releasable, type Release } from './segment.js';
import { chunkWatch, completesMarker, type ChunkWatch } from './watch.js';

/** Characters a stream may try per character received (see the perf note above). */
const TRY_BUDGET = 1.5;

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
  /** Characters handed to a reader so far (tries, released pieces and the final parse): the stream's work. */
  readonly work: number;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

class TextStreamParser implements StreamParser {
  private readonly chunks: string[] = [];
  private received = 0;
  private ended = false;
  private readonly emitted: Emitted = nothingEmitted();
  private readonly watch: ChunkWatch;
  private readonly reader: TurnReader;
  /** The text not yet released, in pieces (joined only when it is tried). */
  private held: string[] = [];
  private heldLength = 0;
  /** The first opener in the held text (an index into it), or -1. */
  private opener = -1;
  /** The last characters received, for markers split across chunks. */
  private tail = '';
  private afterRegion = false;
  private tried = 0;
  private worked = 0;

  constructor(private readonly options: ParseOptions | undefined) {
    this.watch = chunkWatch();
    this.reader = turnReader(options);
  }

  get length(): number {
    return this.received;
  }

  get work(): number {
    return this.worked;
  }

  push(chunk: string): StreamEvent[] {
    if (typeof chunk !== 'string') throw new TypeError(`chunk must be a string; got ${typeName(chunk)}`);
    if (this.ended) throw new Error('push() after end()');
    if (chunk.length === 0) return [];
    const window = this.tail + chunk;
    const from = this.tail.length;
    // Where `window` begins in the held text (it may reach back before it).
    const windowAt = this.heldLength - from;
    if (this.opener < 0) {
      const hit = this.watch.openers.next(window, Math.max(0, -windowAt));
      if (hit !== null) this.opener = windowAt + hit.index;
    }
    const completes = this.opener >= 0 && completesMarker(this.watch, window, from);
    this.chunks.push(chunk);
    this.held.push(chunk);
    this.heldLength += chunk.length;
    this.received += chunk.length;
    this.tail = window.length > this.watch.overlap ? window.slice(window.length - this.watch.overlap) : window;
    const events: StreamEvent[] = [];
    if (completes && this.tried <= TRY_BUDGET * this.received) this.tryRelease(events);
    return events;
  }

  private tryRelease(events: StreamEvent[]): void {
    const held = this.held.length === 1 ? this.held[0]! : this.held.join('');
    this.held = [held];
    this.tried += held.length;
    this.worked += held.length;
    const release = releasable(held, this.reader, this.afterRegion, this.reader.idStart + this.emitted.calls);
    if (release === null) return;
    this.worked += release.restLength;
    this.emit(release, events);
    const rest = held.slice(release.end);
    this.held = rest === '' ? [] : [rest];
    this.heldLength = rest.length;
    this.afterRegion = true;
    const hit = this.watch.openers.next(rest, 0);
    this.opener = hit === null ? -1 : hit.index;
  }

  private emit(release: Release, events: StreamEvent[]): void {
    const { result, parts } = release;
    const emitted = this.emitted;
    for (const part of parts) {
      if (part.kind === 'call') {
        const call = result.calls[part.index];
        if (call === undefined) continue;
        callEvents(call, emitted.calls, events);
        emitted.calls++;
      } else if (part.kind === 'text') {
        const text = emitted.text === 0 ? part.text : '\n\n' + part.text;
        events.push({ type: 'text', text });
        emitted.text += text.length;
      } else {
        const text = emitted.reasoning === 0 ? part.text : '\n\n' + part.text;
        events.push({ type: 'reasoning', text });
        emitted.reasoning += text.length;
      }
    }
  }

  end(): StreamEnd {
    if (this.ended) throw new Error('end() called twice');
    this.ended = true;
    const text = this.chunks.join('');
    this.chunks.length = 0;
    this.held = [];
    this.worked += text.length;
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
