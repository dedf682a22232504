/**
 * Soak: a steady rate below saturation (half the warm-up throughput) for `seconds`, with the
 * stalled-upload and batch floods (floods.ts) run once early on; passes when no steady request
 * fails (503 while the batch flood fills the queue is shedding, not failure), the floods pass
 * their own checks, and RSS after a forced GC (SIGUSR2, see start.ts) at the end is within 10% of
 * its value after warm-up, or after the floods when they raised it: the allocator keeps pages
 * a flood used (measured in docs/performance.md, "Floods"), and what must not grow is the steady
 * state after it.
 */
import { table } from '../bench/harness.js';
import { floodEnv, floods, type FloodReport } from './floods.js';
import { load, mib } from './load.js';
import type { Scenario } from './scenarios.js';
import { forceGc, rssOf, startServer } from './server.js';

export const SOAK_GROWTH_LIMIT = 0.1;

export async function soak(opts: { threads: number; seconds: number; smoke: boolean }, typical: Scenario, batch: Scenario, failures: string[], md: string[]) {
  const floodOpts = { smoke: opts.smoke, bodyTimeoutMs: opts.smoke ? 1000 : 2000 };
  const server = await startServer({ POOL: 'piscina', THREADS: String(opts.threads), ...floodEnv(floodOpts) });
  try {
    const warm = await load(server, typical, Math.min(5, opts.seconds), 2);
    const rate = Math.max(10, Math.floor(warm.requests.average * 0.5));
    await forceGc(server);
    const rssWarm = rssOf(server.pid);
    const steady = load(server, typical, opts.seconds, 4, { overallRate: rate });
    // The floods start a sixth of the way in, so the steady load runs before, through and well after them.
    await new Promise((r) => setTimeout(r, (opts.seconds * 1000) / 6));
    const flooded: FloodReport = await floods(server, floodOpts, typical, batch, 'Soak', failures, md);
    const rssFlooded = flooded.batches.rssAfterGc;
    const result = await steady;
    const shed = result.statusCodeStats?.['503']?.count ?? 0;
    await forceGc(server);
    const rssEnd = rssOf(server.pid);
    const rssBase = rssWarm === null ? null : Math.max(rssWarm, rssFlooded ?? 0);
    const growth = rssBase !== null && rssEnd !== null ? rssEnd / rssBase - 1 : null;
    md.push(`\n## Soak (${opts.seconds} s at ${rate} req/s, typical responses, THREADS=${opts.threads})\n`);
    md.push(table([
      ['requests', 'errors', 'timeouts', 'non-2xx', '503 of them', 'p99 ms', 'RSS after warm-up + GC MiB', 'RSS after floods + GC MiB', 'RSS at end + GC MiB', 'growth'],
      [result.requests.total, result.errors, result.timeouts, result.non2xx, shed, result.latency.p99, mib(rssWarm), mib(rssFlooded), mib(rssEnd), growth === null ? '-' : `${(growth * 100).toFixed(1)}%`],
    ]));
    if (result.requests.total === 0) failures.push('soak: no request was answered');
    if (result.errors || result.non2xx > shed || result.timeouts) failures.push(`soak: ${result.errors} errors, ${result.non2xx - shed} non-2xx other than 503, ${result.timeouts} timeouts`);
    if (growth === null) failures.push('soak: the service process was gone before the end (no RSS)');
    else if (growth > SOAK_GROWTH_LIMIT) {
      const message = `soak: RSS grew ${(growth * 100).toFixed(1)}% (limit ${SOAK_GROWTH_LIMIT * 100}%)`;
      // A 4-second soak is too short for a stable RSS figure: reported, not enforced, in --smoke.
      if (opts.smoke) console.warn(`warning (not enforced in --smoke): ${message}`);
      else failures.push(message);
    }
    return { rate, seconds: opts.seconds, requests: result.requests.total, errors: result.errors, shed, rssWarm, rssFlooded, rssEnd, growth, floods: flooded };
  } finally {
    await server.stop();
  }
}
