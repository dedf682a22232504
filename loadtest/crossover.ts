/**
 * Where the pool starts to pay: the same response of growing size against POOL=piscina (every
 * body to the pool, INLINE_BELOW_BYTES=0) and POOL=inline, in the same run. The largest size at
 * which inline still serves at least as many requests per second is the measured crossover.
 */
import { table } from '../bench/harness.js';
import { checkOnce, load, warmUp } from './load.js';
import { sizedScenario } from './scenarios.js';
import { meanMsBetween, workTotals } from './server-metrics.js';
import { startServer } from './server.js';

export const CROSSOVER_SIZES = [256, 512, 1_024, 2_048, 4_096, 8_192, 16_384, 65_536, 262_144, 1_048_576];

export interface CrossoverRow {
  bytes: number;
  poolRps: number;
  inlineRps: number;
  poolP50: number;
  inlineP50: number;
  /** Mean ms a task spent in the worker, from the service's histogram. */
  workerMs: number | null;
}

export async function crossover(opts: { threads: number; duration: number; connections: number }, sizes: readonly number[], failures: string[], md: string[]) {
  const [pool, inline] = await Promise.all([
    startServer({ POOL: 'piscina', THREADS: String(opts.threads), INLINE_BELOW_BYTES: '0' }),
    startServer({ POOL: 'inline' }),
  ]);
  const rows: CrossoverRow[] = [];
  try {
    for (const bytes of sizes) {
      const s = sizedScenario(bytes);
      const measured: { rps: number; p50: number }[] = [];
      let workerMs: number | null = null;
      for (const server of [pool, inline]) {
        const problem = await checkOnce(server, s);
        if (problem) failures.push(`crossover ${bytes} B: ${problem}`);
        await warmUp(server, s, opts.connections);
        const before = server === pool ? await workTotals(server.url, 'worker') : null;
        const r = await load(server, s, opts.duration, opts.connections);
        if (before) workerMs = meanMsBetween(before, await workTotals(server.url, 'worker'));
        if (r.errors || r.timeouts || r.non2xx) failures.push(`crossover ${bytes} B: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
        measured.push({ rps: r.requests.average, p50: r.latency.p50 });
      }
      rows.push({ bytes, poolRps: measured[0]!.rps, inlineRps: measured[1]!.rps, poolP50: measured[0]!.p50, inlineP50: measured[1]!.p50, workerMs });
      console.log(`crossover ${String(bytes).padStart(8)} B  pool ${measured[0]!.rps.toFixed(0)} req/s  inline ${measured[1]!.rps.toFixed(0)} req/s`);
    }
  } finally {
    await Promise.all([pool.stop(), inline.stop()]);
  }
  const inlineWins = rows.filter((r) => r.inlineRps >= r.poolRps).map((r) => r.bytes);
  // The crossover: the first size, from the top, below which inline never loses.
  let crossoverBytes = 0;
  for (const r of rows) {
    if (r.inlineRps >= r.poolRps) crossoverBytes = r.bytes * 2;
    else break;
  }
  md.push(`\n## Crossover: pool (INLINE_BELOW_BYTES=0) versus inline by response size (${opts.connections} connections, ${opts.duration} s each)\n`);
  md.push(table([
    ['bytes', 'pool req/s', 'inline req/s', 'pool / inline', 'pool p50 ms', 'inline p50 ms', 'pool MB/s', 'inline MB/s', 'worker ms per task'],
    ...rows.map((r) => [r.bytes, r.poolRps, r.inlineRps, r.poolRps / r.inlineRps, r.poolP50, r.inlineP50, (r.poolRps * r.bytes) / 1e6, (r.inlineRps * r.bytes) / 1e6, r.workerMs ?? '-']),
  ]));
  md.push(`\nInline serves at least as many requests per second at: ${inlineWins.length ? inlineWins.join(', ') + ' B' : 'no size'}; measured crossover (inline wins at every size below): ${crossoverBytes} B.`);
  return { rows, inlineWins, crossoverBytes };
}
