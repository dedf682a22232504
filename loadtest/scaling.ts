/**
 * `tsx loadtest/scaling.ts [--steps 1,2,4] [--duration s] [--sizes 8k,80k] [--nice n]` (after `npm run build`):
 * throughput of the worker pool as it grows (issue 17: at least 0.7 x N-fold for N workers, up
 * to the machine's cores). For each N: the built service on 127.0.0.1 with THREADS=N and every
 * body sent to the pool (INLINE_BELOW_BYTES=0), one answer checked against the library, 1 s of
 * warm-up, then autocannon with 2N+2 connections (load-generator threads added from N = 4 on,
 * so the client is not the ceiling). Steps default to 1, 2, 4, ... up to the cores, and the
 * cores themselves; a step above the cores is refused. `--nice` sets WORKER_NICE (shipped: 10;
 * on a machine shared with other jobs, niced workers lose the CPU to them). Bounded: steps x
 * sizes x (duration + 2) s, plus each service's start and stop (bounded by startServer).
 * Prints a markdown table and writes loadtest/results/scaling-<stamp>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { table } from '../bench/harness.js';
import { checkOnce, load, warmUp } from './load.js';
import { sizedScenario, type Scenario } from './scenarios.js';
import { startServer } from './server.js';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const cores = availableParallelism();
const defaultSteps = (): number[] => {
  const steps: number[] = [];
  for (let n = 1; n <= cores; n *= 2) steps.push(n);
  if (steps[steps.length - 1] !== cores) steps.push(cores);
  return steps;
};
const steps = arg('--steps')?.split(',').map(Number) ?? defaultSteps();
for (const n of steps) if (!Number.isInteger(n) || n < 1 || n > cores) throw new Error(`--steps: each step must be an integer from 1 to the ${cores} cores; got ${n}`);
const duration = Number(arg('--duration') ?? 5);
if (!Number.isInteger(duration) || duration < 1 || duration > 60) throw new Error('--duration must be 1 to 60 seconds');
const nice = arg('--nice');
if (nice !== undefined && !/^(1?[0-9])$/.test(nice)) throw new Error('--nice must be 0 to 19');
const SIZES: Record<string, number> = { '1k': 1_000, '8k': 8_000, '80k': 80_000 };
const sizes = (arg('--sizes') ?? '8k,80k').split(',').map((s) => {
  const bytes = SIZES[s];
  if (bytes === undefined) throw new Error(`--sizes takes ${Object.keys(SIZES).join(', ')}; got ${s}`);
  return { label: s, scenario: sizedScenario(bytes) };
});

interface Step {
  size: string;
  workers: number;
  connections: number;
  rps: number;
  /** req/s over N times the one-worker figure (target at least 0.7). */
  efficiency: number;
  errors: number;
  non2xx: number;
}

async function measure(scenario: Scenario, workers: number): Promise<{ rps: number; errors: number; non2xx: number; connections: number }> {
  const server = await startServer({ THREADS: String(workers), INLINE_BELOW_BYTES: '0', MAX_QUEUE: '4096', ...(nice === undefined ? {} : { WORKER_NICE: nice }) });
  try {
    const problem = await checkOnce(server, scenario);
    if (problem !== null) throw new Error(`${scenario.name} with ${workers} workers: ${problem}`);
    const connections = 2 * workers + 2;
    const client = workers >= 4 ? { workers: Math.min(4, Math.ceil(workers / 4)) } : {};
    await warmUp(server, scenario, connections);
    const r = await load(server, scenario, duration, connections, client);
    return { rps: r.requests.average, errors: r.errors + r.timeouts, non2xx: r.non2xx, connections };
  } finally {
    await server.stop();
  }
}

const results: Step[] = [];
const started = Date.now();
for (const { label, scenario } of sizes) {
  let one = 0;
  for (const workers of steps) {
    const m = await measure(scenario, workers);
    if (workers === 1) one = m.rps;
    results.push({ size: label, workers, connections: m.connections, rps: m.rps, efficiency: one > 0 ? m.rps / (workers * one) : Number.NaN, errors: m.errors, non2xx: m.non2xx });
  }
}
console.log(`## Pool scaling on ${cores} cores (WORKER_NICE ${nice ?? 'shipped'}; load average ${loadavg()[0]!.toFixed(1)} at the end; ${duration} s per step after 1 s of warm-up; ${((Date.now() - started) / 1000).toFixed(0)} s in all)\n`);
console.log(table([['size', 'workers', 'connections', 'req/s', 'x one worker', 'efficiency (target ≥ 0.7)', 'errors', 'non-2xx'], ...results.map((s) => {
  const base = results.find((r) => r.size === s.size && r.workers === 1)?.rps ?? Number.NaN;
  return [s.size, s.workers, s.connections, s.rps, s.rps / base, Number.isNaN(s.efficiency) ? '-' : s.efficiency, s.errors, s.non2xx];
})]));
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
writeFileSync(new URL(`./results/scaling-${stamp}.json`, import.meta.url), JSON.stringify({ node: process.version, cores, duration, workerNice: nice ?? null, loadavg: loadavg(), steps: results }, null, 2));
if (results.some((s) => s.errors > 0 || s.non2xx > 0)) process.exitCode = 1;
