/**
 * Parses on the HTTP thread. No isolation: a runaway parse cannot be stopped and blocks the
 * event loop, so this is for tests and as the load-test baseline, not for production.
 */
import { createTaskHandler, type TaskHandler } from '../worker/handle.js';
import { RunFailure, type ParseRunner, type RunnerEvents } from './types.js';
import type { ItemTask, WorkerLimits, WorkerReply, WorkerTask } from './wire.js';
import { warmupTask } from './warmup.js';

export class InlineRunner implements ParseRunner {
  readonly kind = 'inline';
  readonly queueSize = 0;
  readonly saturated = false;
  readonly threads = 0;
  #busy = 0;
  #ready = false;
  #closed = false;
  readonly #handle: TaskHandler;
  readonly #events: RunnerEvents;

  constructor(limits: WorkerLimits, events: RunnerEvents = {}) {
    this.#handle = createTaskHandler(limits);
    this.#events = events;
  }

  get active(): number {
    return this.#busy;
  }

  get utilization(): number {
    return this.#busy > 0 ? 1 : 0;
  }

  get ready(): boolean {
    return this.#ready && !this.#closed;
  }

  admits(): boolean {
    return true;
  }

  async runItems(items: readonly ItemTask[], signal?: AbortSignal): Promise<WorkerReply[]> {
    const replies: WorkerReply[] = [];
    for (const item of items) replies.push(await this.run(item, undefined, signal));
    return replies;
  }

  async run(task: WorkerTask, _transferList?: ArrayBuffer[], signal?: AbortSignal): Promise<WorkerReply> {
    if (this.#closed) throw new RunFailure('closed');
    if (signal?.aborted) throw new RunFailure('aborted');
    this.#busy += 1;
    try {
      const reply = this.#handle(task);
      if (reply.workSeconds !== undefined) this.#events.onTaskWork?.(reply.workSeconds, 'main');
      return reply;
    } finally {
      this.#busy -= 1;
    }
  }

  async warm(): Promise<void> {
    const reply = await this.run(warmupTask().task);
    if (reply.kind !== 'answer' || reply.status !== 200) throw new Error('warm-up parse failed');
    this.#ready = true;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
