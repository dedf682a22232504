/**
 * Soak: a steady rate below saturation (half the warm-up throughput) for `seconds`; passes when
 * no request fails and RSS after a forced GC (SIGUSR2, see start.ts) is within 10% of its value
 * after warm-up.
 */
import { table } from '../bench/harness.js';
import { load, mib } from './load.js';
import type { Scenario } from './scenarios.js';
import { forceGc, rssOf, startServer } from './server.js';

export const SOAK_GROWTH_LIMIT = 0.1;

export async function soak(opts: { threads: number; seconds: number; smoke: boolean }, typical: Scenario, failures: string[], md: string[]) {
  const server = await startServer({ POOL: 'piscina', THREADS: String(opts.threads) });
  try {
    const warm = await load(server, typical, Math.min(5, opts.seconds), 2);
    const rate = Math.max(10, Math.floor(warm.requests.average * 0.5));
    await forceGc(server);
    const rssWarm = rssOf(server.pid);
    const result = await load(server, typical, opts.seconds, 4, { overallRate: rate });
    await forceGc(server);
    const rssEnd = rssOf(server.pid);
    const growth = rssWarm !== null && rssEnd !== null ? rssEnd / rssWarm - 1 : null;
    md.push(`\n## Soak (${opts.seconds} s at ${rate} req/s, typical responses, THREADS=${opts.threads})\n`);
    md.push(table([
      ['requests', 'errors', 'timeouts', 'non-2xx', 'p99 ms', 'RSS after warm-up + GC MiB', 'RSS at end + GC MiB', 'growth'],
      [result.requests.total, result.errors, result.timeouts, result.non2xx, result.latency.p99, mib(rssWarm), mib(rssEnd), growth === null ? '-' : `${(growth * 100).toFixed(1)}%`],
    ]));
    if (result.requests.total === 0) failures.push('soak: no request was answered');
    if (result.errors || result.non2xx || result.timeouts) failures.push(`soak: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
    if (growth === null) failures.push('soak: the service process was gone before the end (no RSS)');
    else if (growth > SOAK_GROWTH_LIMIT) {
      const message = `soak: RSS grew ${(growth * 100).toFixed(1)}% (limit ${SOAK_GROWTH_LIMIT * 100}%)`;
      // A 4-second soak is too short for a stable RSS figure: reported, not enforced, in --smoke.
      if (opts.smoke) console.warn(`warning (not enforced in --smoke): ${message}`);
      else failures.push(message);
    }
    return { rate, seconds: opts.seconds, requests: result.requests.total, errors: result.errors, rssWarm, rssEnd, growth };
  } finally {
    await server.stop();
  }
}
