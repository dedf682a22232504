import { GCProfiler, getHeapStatistics } from 'node:v8';

/** A minimal timing harness: warm up, then time batches until a budget is spent; report the median. */
export interface Timing {
  /** Median milliseconds per call. */
  ms: number;
  samples: number;
}

export function measure(fn: () => unknown, { warmup = 20, minSamples = 30, budgetMs = 1500 } = {}): Timing {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < minSamples || performance.now() - started < budgetMs) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
    if (samples.length >= 5000) break;
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[Math.floor(samples.length / 2)]!, samples: samples.length };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const mbPerSecond = (chars: number, ms: number): number => chars / 1e6 / (ms / 1e3);

export function table(rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? formatNumber(c) : c)));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [line(cells[0]!), '| ' + widths.map((w) => '-'.repeat(w)).join(' | ') + ' |', ...cells.slice(1).map(line)].join('\n');
}

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
}

/**
 * Best-of-`rounds` CPU milliseconds per call, each round after a forced GC when `--expose-gc` is
 * on. CPU time (not wall time) keeps the 8n/n growth ratios steady on a shared machine.
 */
export function cpuMs(fn: () => unknown, { reps = 1, rounds = 5 } = {}): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  fn(); // warm-up: the first call pays for compilation, which is not the growth being measured
  let best = Infinity;
  for (let k = 0; k < rounds; k++) {
    gc?.();
    const start = process.cpuUsage();
    for (let r = 0; r < reps; r++) fn();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000 / reps);
  }
  return best;
}

/** CPU milliseconds (user + system, every thread of the process) since `start`. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * CPU milliseconds per call of each function, measured in interleaved rounds (each round times
 * every function in turn, in batches of at least `batchMs`, after a warm-up each), so
 * a slow spell of a shared machine lands on all of them; returns the per-round figures
 * (`perRound[round][fn]`). CPU
 * time, not wall time: on a machine shared with other jobs, time spent descheduled is not the
 * parser's.
 */
export function interleaved(fns: readonly (() => unknown)[], { rounds = 5, roundMs = 150, batchMs = 5, warmMs = 500 } = {}): number[][] {
  const batch = fns.map((fn) => {
    // Warm-up of at least 100 calls and `warmMs` (at most 4 s): a response mixing every grammar
    // reaches each reader only a few times per parse, and its first 100 parses run 2 to 15 times
    // slower than later ones while the JIT catches up.
    const warm = process.cpuUsage();
    for (let i = 0; (i < 100 || cpuSince(warm) < warmMs) && cpuSince(warm) < 4000; i++) fn();
    const t0 = process.cpuUsage();
    let n = 0;
    while (cpuSince(t0) < batchMs) {
      fn();
      n++;
    }
    return Math.max(1, n);
  });
  const perRound: number[][] = [];
  for (let r = 0; r < rounds; r++) {
    perRound.push(
      fns.map((fn, i) => {
        const samples: number[] = [];
        const round = process.cpuUsage();
        do {
          const t0 = process.cpuUsage();
          for (let k = 0; k < batch[i]!; k++) fn();
          samples.push(cpuSince(t0) / batch[i]!);
        } while (cpuSince(round) < roundMs || samples.length < 3);
        return median(samples);
      }),
    );
  }
  return perRound;
}

/**
 * Bytes allocated per call, from V8's heap statistics around a batch of calls: the growth of
 * the used heap plus external memory (typed arrays' stores) over the batch, plus what every
 * garbage collection inside the batch freed (the GC profiler reports the heap before and
 * after each). Null without `--expose-gc`.
 */
export function allocatedPerCall(fn: () => unknown, calls: number): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  for (let i = 0; i < 5; i++) fn();
  gc();
  const used = (): number => {
    const s = getHeapStatistics();
    return s.used_heap_size + s.external_memory;
  };
  const profiler = new GCProfiler();
  const before = used();
  profiler.start();
  for (let i = 0; i < calls; i++) fn();
  const after = used();
  const report = profiler.stop();
  let freed = 0;
  for (const s of report?.statistics ?? []) {
    const b = s.beforeGC.heapStatistics;
    const a = s.afterGC.heapStatistics;
    freed += b.usedHeapSize + b.externalMemory - (a.usedHeapSize + a.externalMemory);
  }
  return (after - before + freed) / calls;
}
