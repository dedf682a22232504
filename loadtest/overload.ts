/**
 * Overload: more connections than THREADS + MAX_QUEUE can hold, sending 80 KB bodies. Passes when
 * the excess gets 503 with Retry-After, nothing else fails, no connection errors occur, the
 * health probes (timed from their own thread) answer within 100 ms, and the service serves
 * normally afterwards. Then the stalled-upload and batch floods (floods.ts) on a service sized as
 * a 1 GiB container.
 */
import { table } from '../bench/harness.js';
import { floodEnv, floods } from './floods.js';
import { load, post, warmUp } from './load.js';
import { startProbe } from './probe.js';
import type { Scenario } from './scenarios.js';
import { startServer, type RunningServer } from './server.js';

export const PROBE_LIMIT_MS = 100;

export interface OverloadOptions {
  threads: number;
  duration: number;
  smoke: boolean;
}

export async function overload(opts: OverloadOptions, big: Scenario, flood: { typical: Scenario; batch: Scenario }, failures: string[], md: string[]) {
  const shed = await shedding(opts, big, failures, md);
  const floodOpts = { smoke: opts.smoke, bodyTimeoutMs: opts.smoke ? 1000 : 2000 };
  const server = await startServer({ POOL: 'piscina', THREADS: String(opts.threads), ...floodEnv(floodOpts) });
  try {
    return { ...shed, floods: await floods(server, floodOpts, flood.typical, flood.batch, 'Overload', failures, md) };
  } finally {
    await server.stop();
  }
}

async function shedding(opts: OverloadOptions, big: Scenario, failures: string[], md: string[]) {
  const maxQueue = 4;
  const server = await startServer({ POOL: 'piscina', THREADS: String(opts.threads), MAX_QUEUE: String(maxQueue), INLINE_BELOW_BYTES: '0' });
  try {
    // Like every other phase, the service is warmed first (1 s of the same bodies at a load it
    // can hold): the figure is about a flood reaching a running service, not a cold start.
    await warmUp(server, big, opts.threads);
    const probe = await startProbe(server.url);
    const connections = opts.threads + maxQueue + 28;
    const result = await load(server, big, opts.duration, connections);
    const { latencies, statuses } = await probe.stop();
    const shed = result.statusCodeStats?.['503']?.count ?? 0;
    const ok = result['2xx'];
    const other = result.non2xx - shed;
    const retry = await retryAfterSeen(server, big, connections);
    const after = await post(`${server.url}/parse`, big.body);
    const afterProblem = big.check(after.status, after.json);
    const sorted = [...latencies].sort((a, b) => a - b);
    const worst = sorted.at(-1) ?? 0;
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
    md.push(`\n## Overload (${connections} connections, THREADS=${opts.threads}, MAX_QUEUE=${maxQueue}, 80 KB bodies, ${opts.duration} s)\n`);
    md.push(table([
      ['2xx', '503', 'other non-2xx', 'errors', 'timeouts', 'Retry-After on 503', 'health probes', 'probe p50 ms', 'probe p99 ms', 'probe max ms', 'serves afterwards'],
      [ok, shed, other, result.errors, result.timeouts, retry ? 'yes' : 'no', latencies.length, sorted[Math.floor(sorted.length / 2)] ?? 0, p99, worst, afterProblem ? 'no' : 'yes'],
    ]));
    if (shed === 0) failures.push('overload: no request was shed with 503');
    if (other !== 0 || result.errors || result.timeouts) failures.push(`overload: ${other} other non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    if (!retry) failures.push('overload: 503 answers lack Retry-After');
    if (latencies.length === 0) failures.push('overload: no health probe ran');
    // A speed bound: enforced in the full run only (the CI smoke has no speed thresholds).
    if (worst > PROBE_LIMIT_MS) {
      const message = `overload: a health probe took ${worst.toFixed(1)} ms (limit ${PROBE_LIMIT_MS} ms)`;
      if (opts.smoke) console.warn(`warning (not enforced in --smoke): ${message}`);
      else failures.push(message);
    }
    if (statuses.includes(0)) failures.push('overload: a health probe got no answer');
    if (afterProblem) failures.push(`overload: after the run: ${afterProblem}`);
    return { connections, maxQueue, ok, shed, other, errors: result.errors, timeouts: result.timeouts, retry, probes: latencies.length, probeP99: p99, probeMax: worst };
  } finally {
    await server.stop();
  }
}

/** One burst of 2 × n concurrent requests, looking for a 503 that carries Retry-After. */
async function retryAfterSeen(server: RunningServer, s: Scenario, n: number): Promise<boolean> {
  const answers = await Promise.all(Array.from({ length: n * 2 }, () => post(`${server.url}/parse`, s.body).catch(() => null)));
  return answers.some((a) => a?.status === 503 && a.headers.get('retry-after') !== null);
}
