/**
 * `node --import tsx bench/stream-placement.ts [--quick]`: where a stream's parser state should
 * live (docs/performance.md, "Streaming"), measured on this machine.
 *
 *   1. the incremental part, per chunk: `push` on the HTTP thread (with the NDJSON line it came
 *      in and its framing), against moving each chunk to a worker that holds the stream's state
 *      and getting its events back (the HTTP thread's busy time per chunk, and the round trip);
 *   2. the final parse (`end()`: one parse of the whole text), by size: on the HTTP thread, against
 *      replaying the stream in the Piscina pool (the HTTP thread's busy time, and the wall time).
 *
 * Each figure is the least of its rounds, after a warm-up round: on a shared machine the least
 * disturbed round is the closest to the work itself. Ratios matter, not the absolute times.
 */
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import { parseToolCalls } from '../src/compose/index.js';
import { PiscinaRunner } from '../src/server/runner/piscina-runner.js';
import { ndjsonReader } from '../src/server/stream/body-reader.js';
import { StreamSession } from '../src/server/stream/session.js';
import type { StreamSpec } from '../src/server/runner/wire.js';
import { table } from './harness.js';
import { responseOfSize } from './seed-shaped.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 9;
const SPEC: StreamSpec = { toolsJson: null, reading: {}, identity: { id: 'b', created: 0, model: 'b' } };
const encoder = new TextEncoder();

/** The least of `rounds` samples, after one sample thrown away (warm-up). */
function least(samples: () => number, rounds = ROUNDS): number {
  samples();
  return Math.min(...Array.from({ length: rounds }, samples));
}

async function leastAsync<T extends Record<string, number>>(sample: () => Promise<T>): Promise<T> {
  await sample();
  const all: T[] = [];
  for (let i = 0; i < ROUNDS; i++) all.push(await sample());
  const out: Record<string, number> = {};
  for (const key of Object.keys(all[0]!)) out[key] = Math.min(...all.map((s) => s[key]!));
  return out as T;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Milliseconds of the one-shot parse of `text`. */
function oneShotMs(text: string): number {
  const reps = Math.max(3, Math.floor(200_000 / text.length));
  return least(() => {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) parseToolCalls(text);
    return (performance.now() - t0) / reps;
  });
}

/** Microseconds per chunk on the HTTP thread: the NDJSON line decoded and read, pushed, framed. */
function inlinePushUs(pieces: readonly string[]): number {
  const lines = pieces.map((piece) => encoder.encode(JSON.stringify({ text: piece }) + '\n'));
  const first = encoder.encode('{}\n');
  return least(() => {
    const t0 = performance.now();
    const reader = ndjsonReader();
    reader.feed(first);
    const session = new StreamSession(SPEC, null);
    for (const line of lines) for (const item of reader.feed(line)) if (item.kind === 'text') session.push(item.text);
    return ((performance.now() - t0) * 1000) / pieces.length;
  });
}

/**
 * Per chunk, with the state in a worker: the HTTP thread's busy time (event-loop utilisation:
 * posting the chunk, receiving the framed events) and the round trip, one chunk in flight at a time.
 */
async function workerPushUs(worker: Piscina<{ id: number; chunk?: string; end?: boolean }, string>, pieces: readonly string[]): Promise<{ busyUs: number; roundTripUs: number }> {
  let id = 0;
  return leastAsync(async () => {
    const stream = ++id;
    const elu = performance.eventLoopUtilization();
    const t0 = performance.now();
    for (const piece of pieces) await worker.run({ id: stream, chunk: piece });
    const wall = performance.now() - t0;
    const used = performance.eventLoopUtilization(elu);
    await worker.run({ id: stream, end: true });
    return { busyUs: (used.active * 1000) / pieces.length, roundTripUs: (wall * 1000) / pieces.length };
  });
}

/** A session fed `pieces`, ready for its final parse. */
function fed(pieces: readonly string[]): StreamSession {
  const session = new StreamSession(SPEC, null);
  for (const piece of pieces) session.push(piece);
  return session;
}

function inlineEndMs(pieces: readonly string[]): number {
  return least(() => {
    const session = fed(pieces);
    const t0 = performance.now();
    session.end(null);
    return performance.now() - t0;
  });
}

/** The HTTP thread's busy time: building the task, handing it over, taking the answer back. */
async function poolEndMs(runner: PiscinaRunner, pieces: readonly string[]): Promise<{ busyMs: number; wallMs: number }> {
  return leastAsync(async () => {
    const session = fed(pieces);
    const elu = performance.eventLoopUtilization();
    const t0 = performance.now();
    await runner.run(session.endTask(null));
    return { wallMs: performance.now() - t0, busyMs: performance.eventLoopUtilization(elu).active };
  });
}

async function main(): Promise<void> {
  const worker = new Piscina<{ id: number; chunk?: string; end?: boolean }, string>({
    filename: new URL('./stream-worker.ts', import.meta.url).href, minThreads: 1, maxThreads: 1, execArgv: ['--import', 'tsx'],
  });
  await worker.run({ id: 0, chunk: 'warm' });
  const incremental: (string | number)[][] = [['response', 'chars', 'chunk', 'one-shot parse µs per chunk-sized piece', 'HTTP thread push µs/chunk', 'worker: HTTP thread busy µs/chunk', 'worker: round trip µs/chunk', 'worker busy / push']];
  for (const [name, text] of [['typical 8 KB', responseOfSize(8_000, 1)], ['large 80 KB', responseOfSize(80_000, 2)]] as const) {
    const perChar = (oneShotMs(text) * 1000) / text.length;
    for (const size of [4, 64]) {
      const pieces = chunks(text, size);
      const push = inlinePushUs(pieces);
      const viaWorker = await workerPushUs(worker, quick ? pieces.slice(0, 2_000) : pieces);
      incremental.push([name, text.length, size, perChar * size, push, viaWorker.busyUs, viaWorker.roundTripUs, viaWorker.busyUs / push]);
    }
  }
  await worker.close();

  const runner = new PiscinaRunner({
    threads: 1, maxQueue: 64, taskTimeoutMs: 30_000, workerNice: 0, closeTimeoutMs: 5_000,
    limits: { maxBatch: 256, splitMinChars: 2048, maxResponseBytes: 32 * 1024 * 1024 },
  });
  await runner.warm();
  const finals: (string | number)[][] = [['chars', 'chunks (4 chars)', 'end() on the HTTP thread ms', 'pool: HTTP thread busy ms', 'pool: wall ms', 'HTTP thread ms saved']];
  for (const size of quick ? [1_000, 16_000, 64_000] : [1_000, 4_000, 16_000, 64_000, 256_000]) {
    const pieces = chunks(responseOfSize(size, 7), 4);
    const inline = inlineEndMs(pieces);
    const pool = await poolEndMs(runner, pieces);
    finals.push([size, pieces.length, inline, pool.busyMs, pool.wallMs, inline - pool.busyMs]);
  }
  await runner.close();

  console.log(`Incremental part, per chunk (node ${process.version}; least of ${ROUNDS} rounds):\n`);
  console.log(table(incremental));
  console.log('\nFinal parse, by size (the stream fed in 4-character chunks first):\n');
  console.log(table(finals));
}

await main();
