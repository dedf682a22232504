/**
 * A Piscina pool of parse workers. Each worker loads the vocabulary and composer once and keeps
 * its registry cache; the HTTP thread moves raw body bytes in and gets JSON strings back.
 *
 * - Threads are fixed (`minThreads = maxThreads`), so no worker is re-initialised on idle.
 * - The queue bound is enforced by the caller through `saturated` (shed with 503); Piscina's
 *   own queue is left unbounded so a batch's items never bounce off it.
 * - Every task carries its own timeout signal. Fastify's `request.signal` is not used: on
 *   5.12.8 it fires once a POST body is consumed, which would kill a worker per request.
 *   A timed-out task's worker is terminated and replaced by Piscina.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FixedQueue, Piscina } from 'piscina';
import { RunFailure, type ParseRunner, type RunnerEvents } from './types.js';
import type { ItemTask, WorkerData, WorkerLimits, WorkerReply, WorkerTask } from './wire.js';
import { warmupTask } from './warmup.js';

/** Loading the library in a fresh worker can take seconds on a cold, busy machine. */
const WARMUP_TIMEOUT_MS = 30_000;

export interface PiscinaRunnerOptions {
  threads: number;
  maxQueue: number;
  taskTimeoutMs: number;
  limits: WorkerLimits;
  /** Niceness each worker thread takes at start (0 = unchanged). */
  workerNice: number;
  /** Upper bound for draining running tasks on close. */
  closeTimeoutMs: number;
  /** The worker module; defaults to workers/parse (.ts from source, .js from dist). */
  workerFile?: string | URL;
  events?: RunnerEvents;
}

/** `workers/parse` next to this build: `.ts` when running from source, `.js` from dist. */
export function defaultWorkerFile(): URL {
  const ext = extname(fileURLToPath(import.meta.url));
  return new URL(`../../../workers/parse${ext}`, import.meta.url);
}

/** A `.ts` worker needs the tsx loader; workers do not inherit vitest's transform. */
function execArgvFor(file: string): string[] | undefined {
  return file.endsWith('.ts') ? ['--import', 'tsx'] : undefined;
}

export class PiscinaRunner implements ParseRunner {
  readonly kind = 'piscina';
  readonly #pool: Piscina<WorkerTask, WorkerReply>;
  readonly #maxQueue: number;
  readonly #timeoutMs: number;
  readonly #threads: number;
  readonly #events: RunnerEvents;
  #ready = false;
  #closing = false;
  #active = 0;
  /** Items of admitted split batches not yet handed to the pool. */
  #backlog = 0;

  constructor(options: PiscinaRunnerOptions) {
    const file = options.workerFile ?? defaultWorkerFile();
    const filename = file instanceof URL ? file.href : file;
    this.#maxQueue = options.maxQueue;
    this.#timeoutMs = options.taskTimeoutMs;
    this.#threads = options.threads;
    this.#events = options.events ?? {};
    this.#pool = new Piscina<WorkerTask, WorkerReply>({
      filename,
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      taskQueue: new FixedQueue(),
      workerData: { ...options.limits, nice: options.workerNice } satisfies WorkerData,
      execArgv: execArgvFor(file instanceof URL ? fileURLToPath(file) : filename),
      closeTimeout: options.closeTimeoutMs,
    });
    // Without a listener, a fault of an idle worker would be an uncaught exception.
    this.#pool.on('error', (error: unknown) => this.#events.onPoolError?.(error));
    this.#pool.on('workerDestroy', () => {
      if (!this.#closing) this.#events.onWorkerRestart?.();
    });
  }

  get active(): number {
    return this.#active;
  }

  get queueSize(): number {
    return this.#pool.queueSize + this.#backlog;
  }

  get saturated(): boolean {
    return this.queueSize >= this.#maxQueue;
  }

  admits(tasks: number): boolean {
    const waiting = this.queueSize;
    return waiting === 0 || waiting + tasks <= this.#maxQueue;
  }

  get utilization(): number {
    return this.#pool.utilization;
  }

  get threads(): number {
    return this.#pool.threads.length;
  }

  get ready(): boolean {
    return this.#ready && !this.#closing;
  }

  run(task: WorkerTask, transferList?: ArrayBuffer[], signal?: AbortSignal): Promise<WorkerReply> {
    return this.#runWithin(this.#timeoutMs, task, transferList, signal);
  }

  async runItems(items: readonly ItemTask[], signal?: AbortSignal): Promise<WorkerReply[]> {
    const replies: WorkerReply[] = new Array<WorkerReply>(items.length);
    let next = 0;
    let failure: unknown = null;
    this.#backlog += items.length;
    // One lane per thread: the pool's queue holds at most a thread's worth of this batch, and
    // the rest waits here, counted in `queueSize`, so other requests see the queue as it is.
    const lane = async (): Promise<void> => {
      while (failure === null && next < items.length) {
        const i = next++;
        this.#backlog -= 1;
        try {
          replies[i] = await this.run(items[i]!, undefined, signal);
        } catch (error) {
          failure ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#threads, items.length) }, lane));
    this.#backlog -= items.length - next;
    if (failure !== null) throw failure;
    return replies;
  }

  async #runWithin(timeoutMs: number, task: WorkerTask, transferList?: ArrayBuffer[], caller?: AbortSignal): Promise<WorkerReply> {
    if (this.#closing) throw new RunFailure('closed');
    if (caller?.aborted) throw new RunFailure('aborted');
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = caller === undefined ? timeout : AbortSignal.any([timeout, caller]);
    this.#active += 1;
    try {
      const reply = await this.#pool.run(task, { signal, transferList });
      if (reply.workSeconds !== undefined) this.#events.onTaskWork?.(reply.workSeconds, 'worker');
      return reply;
    } catch (error) {
      if (caller?.aborted) throw new RunFailure('aborted', error);
      if (timeout.aborted) {
        this.#events.onTaskTimeout?.();
        throw new RunFailure('timeout', error);
      }
      throw new RunFailure(this.#closing ? 'closed' : 'crashed', error);
    } finally {
      this.#active -= 1;
    }
  }

  /**
   * One sample parse per thread, all at once, so each worker has loaded the library before
   * the service reports ready. A worker whose module fails to load never answers (Piscina
   * then stops respawning), so the per-task timeout turns that into a rejection here.
   */
  async warm(): Promise<void> {
    const runs: Promise<WorkerReply>[] = [];
    for (let i = 0; i < this.#threads; i++) {
      const { task, transferList } = warmupTask();
      runs.push(this.#runWithin(Math.max(this.#timeoutMs, WARMUP_TIMEOUT_MS), task, transferList));
    }
    const replies = await Promise.all(runs);
    for (const reply of replies) {
      if (reply.kind !== 'answer' || reply.status !== 200) throw new Error('warm-up parse failed in a worker');
    }
    this.#ready = true;
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#pool.close();
  }
}
