/**
 * One stream's state: the library's stream parser, the framing of its shape, and the chunks as
 * they were cut. The same class runs on the HTTP thread (each chunk as it arrives) and in a
 * worker (a replay for the final parse of a long stream): the parser and the framing are
 * deterministic, so a replay of the same chunks says exactly what the HTTP thread said, and
 * only the tail after it is new.
 */
import { createStreamParser, type ParseOptions, type StreamParser } from '../../compose/index.js';
import type { StreamEvent } from '../../compose/stream/events.js';
import type { ToolRegistry } from '../../dialects/index.js';
import type { StreamEndTask, StreamFailure, StreamSpec } from '../runner/wire.js';
import { framingFor, type StreamFraming, type WireFailure } from './framing.js';

export type EventCounts = Record<string, number>;

function count(events: readonly StreamEvent[], into: EventCounts): void {
  for (const event of events) into[event.type] = (into[event.type] ?? 0) + 1;
}

/** The library options a spec stands for. */
export function parseOptionsOf(spec: StreamSpec, registry: ToolRegistry | null): ParseOptions {
  const options: ParseOptions = { tools: registry };
  if (spec.toolFormat !== undefined) options.tool_format = spec.toolFormat;
  if (spec.callIdStart !== undefined) options.call_id_start = spec.callIdStart;
  const { profile, validate, shape, include, reasoning_started: started } = spec.reading;
  if (profile !== undefined) options.profile = profile;
  if (validate !== undefined) options.validate = validate;
  if (shape !== undefined) options.shape = shape;
  if (include !== undefined) options.include = include;
  if (started !== undefined) options.reasoning_started = started;
  return options;
}

export class StreamSession {
  /** Null once the final parse has been handed to the pool: the text then lives in the task only. */
  #parser: StreamParser | null;
  readonly #framing: StreamFraming;
  readonly #chunks: string[] = [];
  #chars = 0;
  /** Events said so far, by type; reset by `takeCounts`. */
  #counts: EventCounts = {};

  constructor(readonly spec: StreamSpec, registry: ToolRegistry | null) {
    this.#parser = createStreamParser(parseOptionsOf(spec, registry));
    this.#framing = framingFor(spec);
  }

  get contentType(): string {
    return this.#framing.contentType;
  }

  #live(): StreamParser {
    if (this.#parser === null) throw new Error('the stream was handed to the pool');
    return this.#parser;
  }

  /** Characters received so far. */
  get chars(): number {
    return this.#chars;
  }

  head(): string {
    return this.#framing.head();
  }

  /** The framed events this chunk made certain ('' when none). */
  push(chunk: string): string {
    if (chunk.length === 0) return '';
    this.#chunks.push(chunk);
    this.#chars += chunk.length;
    const events = this.#live().push(chunk);
    if (events.length === 0) return '';
    count(events, this.#counts);
    return this.#framing.events(events);
  }

  /** The framed close, parsed here: the remaining events and the result (partial after a failure). */
  end(failure: WireFailure | null): string {
    const end = this.#live().end();
    count(end.events, this.#counts);
    this.#chunks.length = 0;
    return this.#framing.end(end, failure);
  }

  abort(failure: WireFailure): string {
    return this.#framing.abort(failure);
  }

  /** The final parse as a pool task: the chunks and their cuts, so the worker can replay them. */
  endTask(failure: StreamFailure | null): StreamEndTask {
    const cuts = new Uint32Array(this.#chunks.length);
    for (let i = 0; i < this.#chunks.length; i++) cuts[i] = this.#chunks[i]!.length;
    const text = this.#chunks.join('');
    this.#chunks.length = 0;
    this.#parser = null;
    return { op: 'stream-end', spec: this.spec, text, cuts, failure };
  }

  /** The event counts since the last call. */
  takeCounts(): EventCounts {
    const counts = this.#counts;
    this.#counts = {};
    return counts;
  }
}

/**
 * A worker's half of `endTask`: the stream replayed chunk by chunk, every byte it already sent
 * thrown away, and the framed close returned with the counts of the events in it.
 */
export function replayEnd(task: StreamEndTask, registry: ToolRegistry | null): { body: string; counts: EventCounts } {
  const session = new StreamSession(task.spec, registry);
  session.head();
  let at = 0;
  for (const cut of task.cuts) {
    session.push(task.text.slice(at, at + cut));
    at += cut;
  }
  session.takeCounts();
  const body = session.end(task.failure);
  return { body, counts: session.takeCounts() };
}
