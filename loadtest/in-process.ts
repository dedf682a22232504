/**
 * The same work timed in the load-test process (wall time, like the worker's figure), as the baseline for the worker figures: the
 * library alone (parse, project, serialise: what makes the answer) and the service's whole task
 * handler (decode, validate, parse, serialise) running here instead of in a worker.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseToolCalls } from '../src/compose/index.js';
import { DEFAULT_MAX_BATCH, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_SPLIT_MIN_CHARS } from '../src/server/config.js';
import { createTaskHandler } from '../src/server/worker/handle.js';
import { projectResult } from '../src/server/worker/project.js';

const handler = createTaskHandler({ maxBatch: DEFAULT_MAX_BATCH, splitMinChars: DEFAULT_SPLIT_MIN_CHARS, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES });
const encoder = new TextEncoder();

/** Mean milliseconds per call over `runs` calls, after as many warm-up calls (the worker's clock). */
export function meanMs(fn: () => unknown, runs: number): number {
  for (let i = 0; i < runs; i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - t0) / runs;
}

/** The library's answer as the service would send it: parse, project, serialise. */
function libraryAnswer(text: string, registry: unknown): string {
  return JSON.stringify(projectResult(parseToolCalls(text, { tools: registry })));
}

export function libraryMs(text: string, registry: unknown, runs: number): number {
  return meanMs(() => libraryAnswer(text, registry), runs);
}

/**
 * Mean milliseconds of the library call (as `libraryMs`) when each call comes after the thread
 * has waited 1 ms, as a request handler's does between requests, instead of back to back: a
 * call that follows a wait finds the CPU's caches and predictors cold (docs/performance.md,
 * "Service overhead per response").
 */
export async function libraryAfterIdleMs(text: string, registry: unknown, runs: number): Promise<number> {
  const call = (): string => libraryAnswer(text, registry);
  for (let i = 0; i < Math.min(runs, 20); i++) call();
  let total = 0;
  for (let i = 0; i < runs; i++) {
    await sleep(1);
    const t0 = performance.now();
    call();
    total += performance.now() - t0;
  }
  return total / runs;
}

export function handlerMs(body: string, runs: number): number {
  const bytes = encoder.encode(body);
  // The handler reads the bytes and never detaches them, so one copy serves every run.
  return meanMs(() => handler({ op: 'request', route: 'parse', body: bytes }), runs);
}
