/**
 * The messages that cross the thread boundary between the HTTP thread and a parse worker.
 * Plain data only: raw body bytes go in (transferred, never copied), serialised JSON strings
 * come out, so neither side clones an object graph.
 */

import type { ParseOptions, ResultField, Shape } from '../../compose/index.js';

export type RouteName = 'parse' | 'scan';

/** A whole HTTP body, still undecoded. `body`'s buffer is moved to the worker. */
export interface RequestTask {
  op: 'request';
  route: RouteName;
  body: Uint8Array;
}

/** One response of a batch, already validated by the worker that split the batch. */
export interface ItemTask {
  op: 'item';
  text: string;
  /** The effective registry as canonical JSON (the registry cache key), or null for none. */
  toolsJson: string | null;
  toolFormat: string | null;
  /** The batch's reading options (`profile`, `validate`, `shape`, `include`) and the response's (or batch's) `reasoning_started`. */
  reading?: ReadingOptions;
}

/** The reading options of a validated body: the body schema holds them to the library's lists. */
export interface ReadingOptions {
  profile?: NonNullable<ParseOptions['profile']>;
  validate?: NonNullable<ParseOptions['validate']>;
  shape?: Shape;
  include?: ResultField[];
  reasoning_started?: boolean;
}

/** The reading options a (validated) body carries, and only those it sets. */
export function readingOf(body: ReadingOptions): ReadingOptions {
  const reading: ReadingOptions = {};
  if (body.profile !== undefined) reading.profile = body.profile;
  if (body.validate !== undefined) reading.validate = body.validate;
  if (body.shape !== undefined) reading.shape = body.shape;
  if (body.include !== undefined) reading.include = body.include;
  if (body.reasoning_started !== undefined) reading.reasoning_started = body.reasoning_started;
  return reading;
}

/**
 * What a stream was opened with, as plain data: enough for a worker to build the same parser
 * and the same framing, and so to replay the stream (docs/performance.md, "Streaming").
 */
export interface StreamSpec {
  /** The registry as JSON text (the registry cache key), or null for none. */
  toolsJson: string | null;
  toolFormat?: string;
  callIdStart?: number;
  reading: ReadingOptions;
  /** The id, creation time and model the SSE shapes put on every chunk or message. */
  identity: { id: string; created: number; model: string };
}

/** Why a stream ended before its body did, with the catalogue's code. */
export interface StreamFailure {
  code: 'stream_idle_timeout' | 'body_too_large' | 'invalid_stream' | 'overloaded' | 'shutting_down';
  message: string;
}

/**
 * A long stream's final parse. The worker replays the stream (the same chunks, in the same cuts,
 * through the same parser and framing, so its events are the ones the HTTP thread already sent)
 * and answers only what follows them: the framed tail, ready to write.
 */
export interface StreamEndTask {
  op: 'stream-end';
  spec: StreamSpec;
  /** The chunks joined (one string crosses the thread boundary instead of thousands). */
  text: string;
  /** Each chunk's length in UTF-16 code units, in order. */
  cuts: Uint32Array;
  failure: StreamFailure | null;
}

export type WorkerTask = RequestTask | ItemTask | StreamEndTask;

/** A finished answer: the HTTP status and the serialised body. */
export interface Answer {
  kind: 'answer';
  status: number;
  body: string;
  /** Why a 500 happened, for the HTTP thread's log only; never sent to the client. */
  logDetail?: string;
  /** Seconds the handler spent on this task (decode, validate, parse, serialise), queue wait excluded. */
  workSeconds?: number;
  /** A stream's tail only: how many events of each type it carries (for the metrics). */
  streamEvents?: Record<string, number>;
}

/**
 * A validated batch large enough to be worth spreading over the pool: the HTTP thread runs
 * each item as its own task and joins the answers in order. `idsJson` are the items' ids,
 * already JSON-encoded, so the HTTP thread only concatenates strings.
 */
export interface Split {
  kind: 'split';
  idsJson: string[];
  items: ItemTask[];
  /** Seconds the handler spent decoding and validating the batch. */
  workSeconds?: number;
}

export type WorkerReply = Answer | Split;

/** What a worker needs to know about the service's limits (cloned once per worker). */
export interface WorkerLimits {
  maxBatch: number;
  /** Batches whose texts total fewer UTF-16 code units than this are parsed in one task. */
  splitMinChars: number;
  /** Answers larger than this many bytes are a 422 instead. */
  maxResponseBytes: number;
}

/** What each pool worker is started with. */
export interface WorkerData extends WorkerLimits {
  /** Scheduling niceness each worker thread takes at start (0 = unchanged; Linux only). */
  nice: number;
}
