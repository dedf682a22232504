/**
 * The pool-versus-library target as an A/B: three services up at once (the pool with the shipped
 * WORKER_NICE, the pool with WORKER_NICE=0, and inline), each scenario sent to them in
 * alternating rounds, medians compared. Only the one being measured is busy. Single 8 s runs one
 * after another moved this ratio by a quarter between identical runs on this machine (typical:
 * 0.68 to 0.87), which is more than the margin the target leaves.
 */
import { median, table } from '../bench/harness.js';
import { checkOnce, load, warmUp } from './load.js';
import type { Scenario } from './scenarios.js';
import { startServer, type RunningServer } from './server.js';

export interface PoolAB {
  scenario: string;
  pool: number[];
  poolNice0: number[];
  inline: number[];
  poolOverInline: number;
  poolNice0OverInline: number;
}

interface Options {
  threads: number;
  rounds: number;
  seconds: number;
  connections: number;
}

/** Same environment as the throughput phase's modes (every body to the pool, batches not shed). */
const POOL_ENV = { POOL: 'piscina', INLINE_BELOW_BYTES: '0', MAX_QUEUE: '1024' };

export async function poolVsInlineAB(scenarios: Scenario[], opts: Options, failures: string[], md: string[]): Promise<PoolAB[]> {
  const threads = String(opts.threads);
  const servers: [string, RunningServer][] = [];
  try {
    servers.push(['pool', await startServer({ ...POOL_ENV, THREADS: threads })]);
    servers.push(['poolNice0', await startServer({ ...POOL_ENV, THREADS: threads, WORKER_NICE: '0' })]);
    servers.push(['inline', await startServer({ POOL: 'inline' })]);
    const out: PoolAB[] = [];
    for (const scenario of scenarios) {
      const rps: Record<string, number[]> = { pool: [], poolNice0: [], inline: [] };
      let broken = false;
      for (const [name, server] of servers) {
        const problem = await checkOnce(server, scenario);
        if (problem) {
          failures.push(`pool A/B ${name}/${scenario.name}: ${problem}`);
          broken = true;
        } else {
          await warmUp(server, scenario, opts.connections);
        }
      }
      if (broken) continue;
      for (let round = 0; round < opts.rounds; round++) {
        // Rotate the order so no service always runs first.
        for (let k = 0; k < servers.length; k++) {
          const [name, server] = servers[(round + k) % servers.length]!;
          const r = await load(server, scenario, opts.seconds, opts.connections);
          if (r.errors || r.timeouts || r.non2xx) failures.push(`pool A/B ${name}/${scenario.name}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
          rps[name]!.push(r.requests.average);
        }
      }
      out.push({
        scenario: scenario.name, pool: rps.pool!, poolNice0: rps.poolNice0!, inline: rps.inline!,
        poolOverInline: median(rps.pool!) / median(rps.inline!),
        poolNice0OverInline: median(rps.poolNice0!) / median(rps.inline!),
      });
    }
    const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    md.push(`\n## Pool versus inline as an A/B (THREADS=${opts.threads}, ${opts.rounds} alternating rounds of ${opts.seconds} s, ${opts.connections} connections; medians)\n`);
    md.push(table([
      ['scenario', 'pool req/s (WORKER_NICE=10)', 'pool req/s (WORKER_NICE=0)', 'inline req/s', 'pool / inline', 'pool nice 0 / inline'],
      ...out.map((r) => [r.scenario, list(r.pool), list(r.poolNice0), list(r.inline), r.poolOverInline, r.poolNice0OverInline]),
    ]));
    return out;
  } finally {
    for (const [, server] of servers) await server.stop();
  }
}
