/**
 * `npm run loadtest [-- --smoke] [--scenario a,b] [--duration s] [--connections n] [--modes piscina,inline] [--threads n] [--soak s]`
 *
 * Builds nothing itself: run `npm run build` first (the npm script does). Phases, in order:
 *   1. throughput: per mode, the service on 127.0.0.1; per scenario one answer checked against
 *      the library, 1 s of warm-up, then autocannon; for POOL=piscina also the per-task cost in
 *      the worker (sequential requests) against the library in this process;
 *   2. small requests under background 80 KB load (pool, pool with small bodies inline, inline);
 *   3. the pool/inline crossover by response size; 4. library cost by size (in-process, log-log);
 *   5. overload (503 + Retry-After, health answers fast), then a stalled-upload flood (408 after
 *      BODY_TIMEOUT_MS) and a batch flood (200 or 503 only) with RSS under 512 MB; 6. soak (RSS
 *      after forced GC within 10%, the same floods in its middle).
 *   7. streaming: 200 concurrent POST /parse/stream exchanges, 4-character chunks at 50 per
 *      second (20 streams in --smoke).
 *   8. the sidecar: autocannon against a fake model server (20 ms per answer) alone and through
 *      the service as its sidecar; the added latency p50/p99 and the req/s ratio.
 * Writes loadtest/results/<stamp>.{json,md}; exits 1 on any correctness failure. Phases 2-8 run
 * only when no --scenario filter is given; `--scenario streaming` and `--scenario sidecar` run
 * phase 7 or 8 alone (with any parse scenarios named beside them). Every loop
 * is bounded in count and time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { median, table } from '../bench/harness.js';
import { underBackgroundLoad } from './background.js';
import { CROSSOVER_SIZES, crossover } from './crossover.js';
import { GROWTH_SIZES, growth } from './growth.js';
import { handlerMs, libraryMs } from './in-process.js';
import { checkOnce, load, mib, warmUp } from './load.js';
import { overload } from './overload.js';
import { buildScenarios, type Scenario } from './scenarios.js';
import { meanMsBetween, workTotals } from './server-metrics.js';
import { rssOf, startServer, type RunningServer } from './server.js';
import { soak } from './soak.js';
import { streaming } from './streaming.js';
import { threadCost, type ThreadCost } from './thread-cost.js';
import { pinTo } from './affinity.js';
import { poolVsInlineAB } from './pool-ab.js';
import { sidecarScenario } from './sidecar.js';
import { toolsAB, type ToolsAB } from './tools-ab.js';

type Mode = 'piscina' | 'inline';

interface Options {
  smoke: boolean;
  scenarios: string[] | null;
  duration: number;
  connections: number;
  modes: Mode[];
  threads: number;
  soakSeconds: number;
}

function parseArgs(argv: string[]): Options {
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const smoke = argv.includes('--smoke');
  const num = (flag: string, fallback: number): number => {
    const raw = get(flag);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} must be a positive integer; got ${raw}`);
    return n;
  };
  const modes = (get('--modes') ?? 'piscina,inline').split(',').map((m): Mode => {
    if (m !== 'piscina' && m !== 'inline') throw new Error(`--modes takes piscina and/or inline; got ${m}`);
    return m;
  });
  return {
    smoke,
    scenarios: get('--scenario')?.split(',') ?? null,
    duration: num('--duration', smoke ? 2 : 8),
    connections: num('--connections', 8),
    modes,
    threads: num('--threads', 2),
    soakSeconds: num('--soak', smoke ? 4 : 60),
  };
}

/** The service's environment per mode: the pool alone (no small-body short cut), or inline. */
const ENV_OF: Record<Mode, Record<string, string>> = {
  // MAX_QUEUE counts tasks, and a split batch-32 request queues 32 of them: the default
  // (THREADS × 64) would shed batches at 8 connections, which is overload, measured separately.
  piscina: { POOL: 'piscina', INLINE_BELOW_BYTES: '0', MAX_QUEUE: '1024' },
  inline: { POOL: 'inline' },
};

interface Row {
  mode: string;
  scenario: string;
  rps: number;
  mbps: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  rssBefore: number | null;
  rssAfter: number | null;
}

interface CostRow {
  scenario: string;
  chars: number;
  /** Mean ms per task inside the worker (whole task: decode, validate, parse, serialise). */
  workerMs: number | null;
  /** The same whole task in this process. */
  handlerMs: number;
  /** The library alone (parse, project, serialise) in this process. */
  libraryMs: number;
  /** Whether the service and this process shared one CPU while measured. */
  pinned: boolean;
}

/**
 * Sequential requests, so the worker parses with no competition; the means come from /metrics.
 * Each figure is the median of COST_BATCHES batch means, the sides alternating batch by batch, so
 * one stall (a GC, a descheduled thread, a slow spell of the machine) moves one batch and not the figure.
 */
const COST_BATCHES = 5;

async function workerCost(server: RunningServer, scenario: Scenario, smoke: boolean): Promise<CostRow | null> {
  if (scenario.single === undefined) return null;
  const runs = Math.max(20, Math.min(smoke ? 50 : 400, Math.floor(4e7 / Math.max(1, scenario.textChars))));
  const perBatch = Math.max(4, Math.ceil(runs / COST_BATCHES));
  const { text, registry } = scenario.single;
  const batchMeans: number[] = [];
  const handlerMeans: number[] = [];
  const libraryMeans: number[] = [];
  // One CPU for the service and this process while the requests are sequential (see affinity.ts);
  // the three sides alternate batch by batch, so a drift in the machine's speed hits all three.
  const unpin = pinTo(0, [server.pid, process.pid]);
  try {
    for (let batch = 0; batch < COST_BATCHES; batch++) {
      const before = await workTotals(server.url, 'worker');
      await load(server, scenario, 60, 1, { amount: perBatch });
      const mean = meanMsBetween(before, await workTotals(server.url, 'worker'));
      if (mean !== null) batchMeans.push(mean);
      handlerMeans.push(handlerMs(scenario.body, perBatch));
      libraryMeans.push(libraryMs(text, registry, perBatch));
    }
  } finally {
    unpin?.();
  }
  return {
    pinned: unpin !== null,
    scenario: scenario.name,
    chars: scenario.textChars,
    workerMs: batchMeans.length > 0 ? median(batchMeans) : null,
    handlerMs: median(handlerMeans),
    libraryMs: median(libraryMeans),
  };
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const startedAt = performance.now();
  const failures: string[] = [];
  const all = buildScenarios();
  // `streaming` and `sidecar` name phases 7 and 8, not parse scenarios.
  const named = opts.scenarios?.filter((name) => name !== 'sidecar' && name !== 'streaming') ?? null;
  const withSidecar = opts.scenarios === null || opts.scenarios.includes('sidecar');
  const streamingOnly = opts.scenarios !== null && opts.scenarios.includes('streaming');
  const scenarios = named ? all.filter((s) => named.includes(s.name)) : all;
  if (named !== null && named.length > 0 && scenarios.length === 0) throw new Error(`no scenario matches ${named.join(',')}; known: ${all.map((s) => s.name).join(', ')}, streaming, sidecar`);
  const rows: Row[] = [];
  const costs: CostRow[] = [];
  let ab: ToolsAB | null = null;
  const report: Record<string, unknown> = { options: opts, node: process.version, started: new Date().toISOString(), loadAverageAtStart: loadavg() };
  const md: string[] = [];

  for (const mode of scenarios.length > 0 ? opts.modes : []) {
    const server = await startServer({ ...ENV_OF[mode], THREADS: String(opts.threads) });
    try {
      for (const scenario of scenarios) {
        const problem = await checkOnce(server, scenario);
        if (problem) {
          failures.push(`${mode}/${scenario.name}: ${problem}`);
          continue;
        }
        await warmUp(server, scenario, opts.connections);
        const before = rssOf(server.pid);
        const r = await load(server, scenario, opts.duration, opts.connections);
        const row: Row = {
          mode, scenario: scenario.name, rps: r.requests.average, mbps: (r.requests.average * scenario.textChars) / 1e6,
          p50: r.latency.p50, p975: r.latency.p97_5, p99: r.latency.p99, errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx,
          rssBefore: before, rssAfter: rssOf(server.pid),
        };
        rows.push(row);
        if (r.errors || r.timeouts || r.non2xx) failures.push(`${mode}/${scenario.name}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
        console.log(`${mode.padEnd(7)} ${scenario.name.padEnd(18)} ${row.rps.toFixed(0).padStart(6)} req/s  p99 ${row.p99} ms`);
        if (mode === 'piscina') {
          const cost = await workerCost(server, scenario, opts.smoke);
          if (cost) costs.push(cost);
        }
      }
      const gateway = scenarios.find((s) => s.name === 'gateway-40-tools');
      const bare = scenarios.find((s) => s.name === 'typical-no-tools');
      if (mode === 'piscina' && gateway && bare && !failures.some((f) => f.includes(gateway.name) || f.includes(bare.name))) {
        ab = await toolsAB(server, gateway, bare, { rounds: opts.smoke ? 1 : 4, seconds: opts.smoke ? 1 : 3, connections: opts.connections });
      }
    } finally {
      await server.stop();
    }
  }
  report.rows = rows;
  report.costs = costs;
  // Tight loops on this process's main thread and in a worker thread, with every service stopped.
  const unpinLoops = costs.length === 0 ? null : pinTo(0, [process.pid]);
  let loops: ThreadCost[];
  try {
    loops = costs.length === 0 ? [] : await threadCost(costs.map((c) => {
      const scenario = scenarios.find((s) => s.name === c.scenario)!;
      return { name: c.scenario, body: scenario.body, runs: Math.max(10, Math.floor(Math.min(400, 4e7 / Math.max(1, c.chars)) / (opts.smoke ? 8 : 1))) };
    }));
  } finally {
    unpinLoops?.();
  }
  report.threadCost = loops;

  if (rows.length > 0) md.push(`## Throughput and latency (THREADS=${opts.threads}, ${opts.connections} connections, ${opts.duration} s each after 1 s of warm-up)\n`);
  if (rows.length > 0) md.push(table([
    ['mode', 'scenario', 'req/s', 'MB/s parsed', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors', 'timeouts', 'non-2xx', 'RSS before MiB', 'RSS after MiB'],
    ...rows.map((r) => [r.mode, r.scenario, r.rps, r.mbps, r.p50, r.p975, r.p99, r.errors, r.timeouts, r.non2xx, mib(r.rssBefore), mib(r.rssAfter)]),
  ]));

  const ratios: (string | number)[][] = [['scenario', 'piscina req/s', 'inline req/s', 'piscina / inline']];
  for (const s of scenarios) {
    const p = rows.find((r) => r.mode === 'piscina' && r.scenario === s.name);
    const i = rows.find((r) => r.mode === 'inline' && r.scenario === s.name);
    if (p && i) ratios.push([s.name, p.rps, i.rps, p.rps / i.rps]);
  }
  if (ratios.length > 1) {
    md.push('\n## Pool versus inline (same run)\n');
    md.push(table(ratios));
    report.poolVsInline = ratios;
  }

  if (costs.length > 0) {
    const pinNote = costs.every((c) => c.pinned) ? 'service and load test pinned to CPU 0' : 'not pinned: taskset unavailable, so figures may compare two CPUs';
    md.push(`\n## Per-response cost: inside a worker versus this process (mean ms per response, sequential requests, ${pinNote})\n`);
    md.push(table([
      ['scenario', 'chars', 'worker task ms', 'same task in-process ms', 'library in-process ms', 'worker / same task', 'worker / library'],
      ...costs.map((c) => [c.scenario, c.chars, c.workerMs ?? '-', c.handlerMs, c.libraryMs, c.workerMs === null ? '-' : c.workerMs / c.handlerMs, c.workerMs === null ? '-' : c.workerMs / c.libraryMs]),
    ]));
    md.push(`\nThe same built task handler in tight loops (no HTTP, no idle wait between tasks; median of 7 alternating rounds; ${unpinLoops === null ? 'not pinned' : 'pinned to CPU 0'}):\n`);
    md.push(table([
      ['scenario', 'main thread ms', 'worker thread ms', 'worker thread / main thread'],
      ...loops.map((l) => [l.name, l.mainMs, l.workerThreadMs, l.workerThreadMs / l.mainMs]),
    ]));
  }

  const tools40 = rows.find((r) => r.mode === 'piscina' && r.scenario === 'gateway-40-tools');
  const noTools = rows.find((r) => r.mode === 'piscina' && r.scenario === 'typical-no-tools');
  const cost40 = costs.find((c) => c.scenario === 'gateway-40-tools');
  const cost0 = costs.find((c) => c.scenario === 'typical-no-tools');
  if (tools40 && noTools) {
    const byRps = noTools.rps / tools40.rps;
    const byWorker = cost40?.workerMs && cost0?.workerMs ? cost40.workerMs / cost0.workerMs : null;
    md.push(`\n## Tools cache (POOL=piscina)\n`);
    md.push(`Single runs above: 40 tool definitions on every request cost ${byRps.toFixed(2)}x the time of no tools by req/s (${tools40.rps.toFixed(0)} vs ${noTools.rps.toFixed(0)})` +
      (byWorker === null ? '.' : `, ${byWorker.toFixed(2)}x by worker time per task (${cost40!.workerMs!.toFixed(3)} vs ${cost0!.workerMs!.toFixed(3)} ms).`));
    if (ab !== null) {
      const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
      md.push(`\nA/B on one server, ${ab.rounds} alternating rounds of ${ab.seconds} s each: with tools ${list(ab.withTools)} req/s, without ${list(ab.withoutTools)} req/s; ` +
        `the tools cost **${ab.factor.toFixed(2)}x** (median without / median with; target at most 1.1x).`);
    }
    report.toolsCache = { byRps, byWorker, ab };
  }

  if (!opts.scenarios) {
    const abScenarios = all.filter((s) => s.name === 'typical' || s.name === 'seed-80k');
    report.poolAB = await poolVsInlineAB(abScenarios, {
      threads: opts.threads, rounds: opts.smoke ? 1 : 3, seconds: opts.smoke ? 1 : 3, connections: opts.connections,
    }, failures, md);
    const small = all.find((s) => s.name === 'small')!;
    const big = all.find((s) => s.name === 'seed-80k')!;
    const typical = all.find((s) => s.name === 'typical')!;
    report.backgroundLoad = await underBackgroundLoad({ threads: opts.threads, duration: opts.duration }, small, big, failures, md);
    report.crossover = await crossover(
      { threads: opts.threads, duration: opts.smoke ? 1 : 3, connections: opts.connections },
      opts.smoke ? [256, 8_192] : CROSSOVER_SIZES, failures, md,
    );
    report.growth = growth(opts.smoke ? GROWTH_SIZES.slice(0, 3) : GROWTH_SIZES, md);
    const batch = all.find((s) => s.name === 'batch-32')!;
    report.overload = await overload({ threads: opts.threads, duration: opts.smoke ? 3 : opts.duration, smoke: opts.smoke }, big, { typical, batch }, failures, md);
    report.soak = await soak({ threads: opts.threads, seconds: opts.soakSeconds, smoke: opts.smoke }, typical, batch, failures, md);
  }
  if (!opts.scenarios || streamingOnly) report.streaming = await streaming({ threads: opts.threads, smoke: opts.smoke }, failures, md);

  if (withSidecar) {
    report.sidecar = await sidecarScenario({ threads: opts.threads, seconds: opts.smoke ? 2 : 4, rounds: opts.smoke ? 1 : 3, connections: opts.connections }, failures, md);
  }

  const seconds = (performance.now() - startedAt) / 1000;
  // Other processes on the machine skew every figure; the load average says how much.
  const [atStart, atEnd] = [report.loadAverageAtStart as number[], loadavg()];
  md.push(`\nWall time of the whole load test: ${seconds.toFixed(0)} s (node ${process.version}); 1-minute load average ${atStart[0]!.toFixed(1)} at start, ${atEnd[0]!.toFixed(1)} at end, on ${availableParallelism()} CPUs.`);
  report.seconds = seconds;
  report.failures = failures;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-') + (opts.smoke ? '-smoke' : '');
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/${stamp}.json`, import.meta.url), JSON.stringify(report, null, 2));
  writeFileSync(new URL(`./results/${stamp}.md`, import.meta.url), md.join('\n') + '\n');
  console.log('\n' + md.join('\n'));
  if (failures.length) {
    console.error(`\nLOAD TEST FAILED:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nload test: all correctness, overload and soak checks passed');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
