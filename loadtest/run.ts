/**
 * `npm run loadtest [-- --smoke] [--scenario a,b] [--duration s] [--connections n] [--modes piscina,inline]`
 *
 * Builds nothing itself: run `npm run build` first (the npm script does). For each mode it starts
 * the service on 127.0.0.1, checks one response of every scenario against the library, runs
 * autocannon, and stops the service. Then: small-request p99 under background 80 KB load, the
 * pool/inline crossover by response size, overload (503 + Retry-After, health answers fast) and
 * a soak (RSS after forced GC stays within 10%). Writes loadtest/results/<stamp>.{json,md}.
 * Every loop is bounded in count and time; traffic goes to 127.0.0.1 only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { table } from '../bench/harness.js';
import { buildScenarios, sizedScenario, type Scenario } from './scenarios.js';
import { forceGc, rssOf, startServer, type RunningServer } from './server.js';

interface Options {
  smoke: boolean;
  scenarios: string[] | null;
  duration: number;
  connections: number;
  modes: ('piscina' | 'inline')[];
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
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number; got ${raw}`);
    return n;
  };
  const modes = (get('--modes') ?? 'piscina,inline').split(',').map((m) => {
    if (m !== 'piscina' && m !== 'inline') throw new Error(`--modes takes piscina and/or inline; got ${m}`);
    return m;
  });
  return {
    smoke,
    scenarios: get('--scenario')?.split(',') ?? null,
    duration: num('--duration', smoke ? 2 : 10),
    connections: num('--connections', 8),
    modes,
    threads: num('--threads', 2),
    soakSeconds: num('--soak', smoke ? 4 : 60),
  };
}

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

async function post(url: string, body: string): Promise<{ status: number; json: unknown; headers: Headers }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

async function load(server: RunningServer, scenario: Scenario, duration: number, connections: number, extra: Partial<autocannon.Options> = {}) {
  return autocannon({
    url: `${server.url}/parse`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: scenario.body,
    connections,
    duration,
    timeout: 30,
    ...extra,
  });
}

function row(mode: string, scenario: Scenario, r: autocannon.Result, rssBefore: number | null, rssAfter: number | null): Row {
  return {
    mode,
    scenario: scenario.name,
    rps: r.requests.average,
    mbps: (r.requests.average * scenario.textChars) / 1e6,
    p50: r.latency.p50,
    p975: r.latency.p97_5,
    p99: r.latency.p99,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    rssBefore,
    rssAfter,
  };
}

const mib = (b: number | null): string => (b === null ? '-' : (b / 1048576).toFixed(0));

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const failures: string[] = [];
  const all = buildScenarios();
  const scenarios = opts.scenarios ? all.filter((s) => opts.scenarios!.includes(s.name)) : all;
  const rows: Row[] = [];
  const report: Record<string, unknown> = { options: opts, node: process.version, started: new Date().toISOString() };

  for (const mode of opts.modes) {
    const server = await startServer({ POOL: mode, THREADS: String(opts.threads) });
    try {
      for (const scenario of scenarios) {
        const first = await post(`${server.url}/parse`, scenario.body);
        const problem = scenario.check(first.status, first.json);
        if (problem) {
          failures.push(`${mode}/${scenario.name}: ${problem}`);
          continue;
        }
        const before = rssOf(server.pid);
        const result = await load(server, scenario, opts.duration, opts.connections);
        const r = row(mode, scenario, result, before, rssOf(server.pid));
        rows.push(r);
        if (r.errors || r.timeouts || r.non2xx) failures.push(`${mode}/${scenario.name}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
        console.log(`${mode.padEnd(7)} ${scenario.name.padEnd(18)} ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${r.p99} ms`);
      }
    } finally {
      await server.stop();
    }
  }
  report.rows = rows;

  const md: string[] = [];
  md.push('## Throughput and latency (THREADS=' + opts.threads + ', ' + opts.connections + ' connections, ' + opts.duration + ' s each)\n');
  md.push(table([
    ['mode', 'scenario', 'req/s', 'MB/s parsed', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors', 'timeouts', 'non-2xx', 'RSS before MiB', 'RSS after MiB'],
    ...rows.map((r) => [r.mode, r.scenario, r.rps, r.mbps, r.p50, r.p975, r.p99, r.errors, r.timeouts, r.non2xx, mib(r.rssBefore), mib(r.rssAfter)]),
  ]));

  // Pool versus inline, per scenario, in this one run.
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
  const tools40 = rows.find((r) => r.mode === 'piscina' && r.scenario === 'gateway-40-tools');
  const noTools = rows.find((r) => r.mode === 'piscina' && r.scenario === 'typical-no-tools');
  if (tools40 && noTools) {
    md.push(`\nTools cache: 40 tool definitions cost ${(noTools.rps / tools40.rps).toFixed(2)}x the time of no tools (req/s ${tools40.rps.toFixed(0)} vs ${noTools.rps.toFixed(0)}).`);
    report.toolsCacheCost = noTools.rps / tools40.rps;
  }

  // Small-request p99 with background 80 KB load, per mode.
  if (opts.modes.length > 0 && !opts.scenarios) {
    const small = all.find((s) => s.name === 'small')!;
    const big = all.find((s) => s.name === 'seed-80k')!;
    const bg: (string | number)[][] = [['mode', 'small p50 ms', 'small p99 ms', 'small req/s', 'background 80 KB req/s']];
    for (const mode of opts.modes) {
      const server = await startServer({ POOL: mode, THREADS: String(opts.threads) });
      try {
        const [fg, back] = await Promise.all([
          load(server, small, opts.duration, 1, { overallRate: 50 }),
          load(server, big, opts.duration, 4),
        ]);
        bg.push([mode, fg.latency.p50, fg.latency.p99, fg.requests.average, back.requests.average]);
      } finally {
        await server.stop();
      }
    }
    md.push('\n## Small requests (50/s) under background 80 KB load\n');
    md.push(table(bg));
    report.backgroundLoad = bg;

    // Crossover: where does the pool start to pay?
    const sizes = opts.smoke ? [256, 8_192] : [256, 1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576];
    const cross: (string | number)[][] = [['bytes', ...opts.modes.map((m) => `${m} req/s`), ...opts.modes.map((m) => `${m} MB/s`)]];
    const servers = await Promise.all(opts.modes.map((mode) => startServer({ POOL: mode, THREADS: String(opts.threads), BODY_LIMIT: String(8 * 1024 * 1024) })));
    try {
      for (const bytes of sizes) {
        const s = sizedScenario(bytes);
        const rps: number[] = [];
        for (const server of servers) {
          const first = await post(`${server.url}/parse`, s.body);
          const problem = s.check(first.status, first.json);
          if (problem) failures.push(`crossover ${bytes}: ${problem}`);
          rps.push((await load(server, s, Math.max(1, Math.round(opts.duration / 2)), opts.connections)).requests.average);
        }
        cross.push([bytes, ...rps, ...rps.map((r) => (r * s.textChars) / 1e6)]);
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
    md.push('\n## Cost by response size (crossover)\n');
    md.push(table(cross));
    report.crossover = cross;

    report.overload = await overload(opts, failures, md);
    report.soak = await soak(opts, failures, md);
  }

  report.failures = failures;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
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

/** More connections than THREADS + MAX_QUEUE can hold: the excess must get 503 + Retry-After. */
async function overload(opts: Options, failures: string[], md: string[]) {
  const maxQueue = 4;
  const server = await startServer({ POOL: 'piscina', THREADS: String(opts.threads), MAX_QUEUE: String(maxQueue) });
  const big = buildScenarios().find((s) => s.name === 'seed-80k')!;
  try {
    const probes: number[] = [];
    const probeStatuses: number[] = [];
    let running = true;
    const poller = (async () => {
      for (let i = 0; running && i < 10_000; i++) {
        for (const path of ['/healthz', '/readyz']) {
          const t0 = performance.now();
          const res = await fetch(server.url + path, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
          probes.push(performance.now() - t0);
          probeStatuses.push(res?.status ?? 0);
          await res?.arrayBuffer();
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const connections = opts.threads + maxQueue + 28;
    const result = await load(server, big, opts.duration, connections);
    running = false;
    await poller;
    const shed = result.statusCodeStats?.['503']?.count ?? 0;
    const ok = result['2xx'];
    const other = result.non2xx - shed;
    const retry = await retryAfterSeen(server, big, connections);
    const after = await post(`${server.url}/parse`, big.body);
    const afterProblem = big.check(after.status, after.json);
    probes.sort((a, b) => a - b);
    const worstProbe = probes.at(-1) ?? 0;
    const p99Probe = probes[Math.floor(probes.length * 0.99)] ?? 0;
    md.push(`\n## Overload (${connections} connections, THREADS=${opts.threads}, MAX_QUEUE=${maxQueue}, 80 KB bodies)\n`);
    md.push(table([
      ['2xx', '503', 'other non-2xx', 'errors', 'timeouts', 'Retry-After on 503', 'health probes', 'probe p99 ms', 'probe max ms', 'serves afterwards'],
      [ok, shed, other, result.errors, result.timeouts, retry ? 'yes' : 'no', probes.length, p99Probe, worstProbe, afterProblem ? 'no' : 'yes'],
    ]));
    if (shed === 0) failures.push('overload: no request was shed with 503');
    if (other !== 0 || result.errors || result.timeouts) failures.push(`overload: ${other} other non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    if (!retry) failures.push('overload: 503 answers lack Retry-After');
    if (worstProbe > 100) failures.push(`overload: a health probe took ${worstProbe.toFixed(1)} ms (limit 100 ms)`);
    if (probeStatuses.includes(0)) failures.push('overload: a health probe got no answer');
    if (afterProblem) failures.push(`overload: after the run: ${afterProblem}`);
    return { connections, maxQueue, ok, shed, other, errors: result.errors, timeouts: result.timeouts, retry, probeP99: p99Probe, probeMax: worstProbe };
  } finally {
    await server.stop();
  }
}

/** Fires a burst and looks for a 503 carrying Retry-After (bounded: one burst). */
async function retryAfterSeen(server: RunningServer, s: Scenario, n: number): Promise<boolean> {
  const answers = await Promise.all(Array.from({ length: n * 2 }, () => post(`${server.url}/parse`, s.body).catch(() => null)));
  return answers.some((a) => a?.status === 503 && a.headers.get('retry-after') !== null);
}

/** A steady rate below saturation; RSS after a forced GC must stay within 10% of its post-warm-up value. */
async function soak(opts: Options, failures: string[], md: string[]) {
  const typical = buildScenarios().find((s) => s.name === 'typical')!;
  const server = await startServer({ POOL: 'piscina', THREADS: String(opts.threads) });
  try {
    const warm = await load(server, typical, Math.min(5, opts.soakSeconds), 2);
    const rate = Math.max(10, Math.floor(warm.requests.average * 0.5));
    await forceGc(server);
    const rssWarm = rssOf(server.pid);
    const result = await load(server, typical, opts.soakSeconds, 4, { overallRate: rate });
    await forceGc(server);
    const rssEnd = rssOf(server.pid);
    const growth = rssWarm && rssEnd ? rssEnd / rssWarm - 1 : null;
    md.push(`\n## Soak (${opts.soakSeconds} s at ${rate} req/s, typical responses)\n`);
    md.push(table([
      ['requests', 'errors', 'non-2xx', 'p99 ms', 'RSS after warm-up MiB', 'RSS at end MiB', 'growth'],
      [result.requests.total, result.errors, result.non2xx, result.latency.p99, mib(rssWarm), mib(rssEnd), growth === null ? '-' : `${(growth * 100).toFixed(1)}%`],
    ]));
    if (result.errors || result.non2xx || result.timeouts) failures.push(`soak: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
    if (growth !== null && growth > 0.1 && !opts.smoke) failures.push(`soak: RSS grew ${(growth * 100).toFixed(1)}% (limit 10%)`);
    return { rate, seconds: opts.soakSeconds, requests: result.requests.total, rssWarm, rssEnd, growth };
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
