/**
 * Where parse tasks run: a Piscina pool of preloaded workers, or inline on the HTTP thread
 * (tests and the load-test baseline). Routes see only this interface.
 */
import type { WorkerReply, WorkerTask } from './wire.js';

export type RunFailureReason = 'timeout' | 'crashed' | 'closed';

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
  /** Runs one task; `transferList` buffers are moved, not copied. Rejects only with RunFailure. */
  run(task: WorkerTask, transferList?: ArrayBuffer[]): Promise<WorkerReply>;
  /** Tasks handed to the runner and not yet settled (running or queued). */
  readonly active: number;
  /** Tasks waiting for a worker. */
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
