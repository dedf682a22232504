/**
 * Where parse tasks run: a Piscina pool of preloaded workers, or inline on the HTTP thread
 * (tests and the load-test baseline). Routes see only this interface.
 */
import type { ItemTask, WorkerReply, WorkerTask } from './wire.js';

/** `aborted`: the caller's signal fired (its client went away); the task was stopped. */
export type RunFailureReason = 'timeout' | 'crashed' | 'closed' | 'aborted';

/** Why a task produced no reply. The cause is for the log only. */
export class RunFailure extends Error {
  readonly reason: RunFailureReason;
  constructor(reason: RunFailureReason, cause?: unknown) {
    super(`parse task ${reason}`, { cause });
    this.name = 'RunFailure';
    this.reason = reason;
  }
}

export interface RunnerEvents {
  /** A worker died (crash, timeout kill, out of memory) and was replaced. */
  onWorkerRestart?: () => void;
  /** A task ran (or waited) past the task timeout. */
  onTaskTimeout?: () => void;
  /** A pool fault not tied to a task. */
  onPoolError?: (error: unknown) => void;
  /** A task finished; `seconds` were spent handling it in the thread that ran it. */
  onTaskWork?: (seconds: number, thread: 'worker' | 'main') => void;
}

export interface ParseRunner {
  readonly kind: 'piscina' | 'inline';
  /**
   * Runs one task; `transferList` buffers are moved, not copied. `signal` stops it (a queued
   * task leaves the queue, a running one's worker is replaced). Rejects only with RunFailure.
   */
  run(task: WorkerTask, transferList?: ArrayBuffer[], signal?: AbortSignal): Promise<WorkerReply>;
  /**
   * Runs a split batch's items, a few at a time (one per thread), answers in order. The items
   * not yet handed to the pool count against the queue (`saturated`, `admits`) until they are.
   * The first failure stops the rest and rejects.
   */
  runItems(items: readonly ItemTask[], signal?: AbortSignal): Promise<WorkerReply[]>;
  /** True when `tasks` more tasks fit under the queue limit (or nothing waits, so they must be let in). */
  admits(tasks: number): boolean;
  /** Tasks handed to the runner and not yet settled (running or queued). */
  readonly active: number;
  /** Tasks waiting: in the pool's queue, plus a split batch's items not yet handed to it. */
  readonly queueSize: number;
  /** True when the queue is at its limit: new requests are shed with 503. */
  readonly saturated: boolean;
  /** Busy fraction of the pool, 0..1. */
  readonly utilization: number;
  /** Live worker threads (0 inline). */
  readonly threads: number;
  /** Started and warmed. */
  readonly ready: boolean;
  /** Runs one sample parse per worker; rejects if the workers cannot parse it. */
  warm(): Promise<void>;
  close(): Promise<void>;
}
