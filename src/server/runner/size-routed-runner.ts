/**
 * The pool with a short cut for small bodies: a request body under `inlineBelowBytes` is parsed
 * on the HTTP thread, everything else goes to the pool.
 *
 * Why: a tiny parse costs less than handing it to a worker (about 0.1 ms of parsing against
 * the message round trip and, under load, the wait behind big tasks in the pool's FIFO queue).
 * The parse is linear in the body and its answer is linear in the body too (at most
 * 16 bytes per text byte plus 64 KiB; README, "Output bound"), so a body under the bound can
 * hold the event loop neither by parsing nor by serialising; docs/performance.md has the figures
 * behind the default.
 *
 * Only whole request bodies are routed by size. The items of a split batch always go to the
 * pool: a batch is split precisely because it is large in total.
 */
import type { ParseRunner } from './types.js';
import type { ItemTask, WorkerReply, WorkerTask } from './wire.js';

export class SizeRoutedRunner implements ParseRunner {
  readonly kind = 'piscina';
  readonly #pool: ParseRunner;
  readonly #inline: ParseRunner;
  readonly #inlineBelowBytes: number;

  constructor(pool: ParseRunner, inline: ParseRunner, inlineBelowBytes: number) {
    this.#pool = pool;
    this.#inline = inline;
    this.#inlineBelowBytes = inlineBelowBytes;
  }

  run(task: WorkerTask, transferList?: ArrayBuffer[], signal?: AbortSignal): Promise<WorkerReply> {
    if (task.op === 'request' && task.body.byteLength < this.#inlineBelowBytes) return this.#inline.run(task, undefined, signal);
    return this.#pool.run(task, transferList, signal);
  }

  runItems(items: readonly ItemTask[], signal?: AbortSignal): Promise<WorkerReply[]> {
    return this.#pool.runItems(items, signal);
  }

  admits(tasks: number): boolean {
    return this.#pool.admits(tasks);
  }

  get active(): number {
    return this.#pool.active + this.#inline.active;
  }

  get queueSize(): number {
    return this.#pool.queueSize;
  }

  get saturated(): boolean {
    return this.#pool.saturated;
  }

  get utilization(): number {
    return this.#pool.utilization;
  }

  get threads(): number {
    return this.#pool.threads;
  }

  get ready(): boolean {
    return this.#pool.ready && this.#inline.ready;
  }

  async warm(): Promise<void> {
    await Promise.all([this.#pool.warm(), this.#inline.warm()]);
  }

  async close(): Promise<void> {
    await Promise.all([this.#pool.close(), this.#inline.close()]);
  }
}
