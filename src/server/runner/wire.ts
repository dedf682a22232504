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

export type WorkerTask = RequestTask | ItemTask;

/** A finished answer: the HTTP status and the serialised body. */
export interface Answer {
  kind: 'answer';
  status: number;
  body: string;
  /** Why a 500 happened, for the HTTP thread's log only; never sent to the client. */
  logDetail?: string;
  /** Seconds the handler spent on this task (decode, validate, parse, serialise), queue wait excluded. */
  workSeconds?: number;
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
