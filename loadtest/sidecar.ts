/**
 * The sidecar scenario: autocannon against the fake model server alone (it waits 20 ms per
 * answer), then against the built service in sidecar mode in front of it, same body, same
 * connections, in alternating rounds. Reports the latency the sidecar adds (p50, p99) and its
 * req/s against the upstream alone. The sidecar's answer is checked against the library first (whole and
 * streamed); any non-2xx under load is a failure. Loopback only; every run is time-bounded.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median, table } from '../bench/harness.js';
import { parseToolCalls } from '../src/index.js';
import { startServer } from './server.js';

const FAKE = fileURLToPath(new URL('./fake-upstream-main.ts', import.meta.url));
const DELAY_MS = 20;
const MODEL = 'hermes-raw';
const TEXT = 'I will read both files.\n<tool_call>\n{"name": "look", "arguments": {"path": "src/config.ts"}}\n</tool_call>\n' +
  '<tool_call>\n{"name": "look", "arguments": {"path": "README.md"}}\n</tool_call>';
const TOOLS = [{ type: 'function', function: { name: 'look', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];
const BODY = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Read the config and the README.' }], tools: TOOLS });

export interface SidecarRow {
  target: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface SidecarReport {
  delayMs: number;
  connections: number;
  seconds: number;
  rounds: number;
  /** Medians over the rounds. */
  rows: SidecarRow[];
  addedP50: number | null;
  addedP99: number | null;
  rpsRatio: number | null;
}

async function startFake(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FAKE], {
    env: { ...process.env, FAKE_ANSWERS: JSON.stringify({ [MODEL]: { content: TEXT } }), FAKE_DELAY_MS: String(DELAY_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('fake upstream did not start within 20 s')), 20_000);
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once('exit', (code) => reject(new Error(`fake upstream exited with ${code}`)));
  });
  return {
    url,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    }),
  };
}

const run = (url: string, seconds: number, connections: number) =>
  autocannon({ url: `${url}/chat/completions`, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY, connections, duration: seconds, timeout: 30 });

/** The sidecar's answer, whole and streamed, against the library; the problem or null. */
async function check(sidecarV1: string): Promise<string | null> {
  const expected = JSON.stringify(parseToolCalls(TEXT, { tools: TOOLS }).calls.map((c) => [c.name, c.arguments]));
  const res = await fetch(`${sidecarV1}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY, signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) return `sidecar answered ${res.status}`;
  const completion = (await res.json()) as { choices: { message: { tool_calls?: { function: { name: string; arguments: string } }[] } }[] };
  const got = JSON.stringify((completion.choices[0]?.message.tool_calls ?? []).map((c) => [c.function.name, JSON.parse(c.function.arguments) as unknown]));
  if (got !== expected) return `sidecar calls ${got}, library ${expected}`;
  const streamed = await fetch(`${sidecarV1}/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(10_000),
    body: JSON.stringify({ ...(JSON.parse(BODY) as object), stream: true }),
  });
  const args = new Map<number, [string, string]>();
  const text = await streamed.text();
  if (!text.trimEnd().endsWith('data: [DONE]')) return 'the sidecar stream did not end with [DONE]';
  for (const frame of text.split('\n\n')) {
    if (!frame.startsWith('data: {')) continue;
    const chunk = JSON.parse(frame.slice(6)) as { choices: { delta: { tool_calls?: { index: number; function: { name?: string; arguments: string } }[] } }[] };
    for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
      const [name, a] = args.get(call.index) ?? ['', ''];
      args.set(call.index, [name + (call.function.name ?? ''), a + call.function.arguments]);
    }
  }
  const streamedCalls = JSON.stringify([...args.entries()].sort((x, y) => x[0] - y[0]).map(([, [name, a]]) => [name, JSON.parse(a) as unknown]));
  return streamedCalls === expected ? null : `sidecar streamed calls ${streamedCalls}, library ${expected}`;
}

export async function sidecarScenario(opts: { threads: number; seconds: number; connections: number; rounds: number }, failures: string[], md: string[]): Promise<SidecarReport> {
  const report: SidecarReport = { delayMs: DELAY_MS, connections: opts.connections, seconds: opts.seconds, rounds: opts.rounds, rows: [], addedP50: null, addedP99: null, rpsRatio: null };
  const fake = await startFake();
  try {
    const server = await startServer({ UPSTREAM_URL: fake.url, THREADS: String(opts.threads) });
    try {
      const problem = await check(`${server.url}/v1`);
      if (problem !== null) {
        failures.push(`sidecar: ${problem}`);
        return report;
      }
      // Warm both, then alternate the two targets round by round (drift on the machine falls on
      // both alike); each row is the median of its rounds.
      await run(fake.url, 1, opts.connections);
      await run(`${server.url}/v1`, 1, opts.connections);
      const targets = [['upstream alone', fake.url], ['through the sidecar', `${server.url}/v1`]] as const;
      const samples = new Map<string, SidecarRow[]>(targets.map(([t]) => [t, []]));
      for (let round = 0; round < opts.rounds; round++) {
        for (const [target, url] of round % 2 === 0 ? targets : [...targets].reverse()) {
          const r = await run(url, opts.seconds, opts.connections);
          samples.get(target)!.push({ target, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });
          if (r.non2xx || r.errors || r.timeouts) failures.push(`sidecar/${target}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
        }
      }
      for (const [target] of targets) {
        const rows = samples.get(target)!;
        const of = (key: 'rps' | 'p50' | 'p99') => median(rows.map((r) => r[key]));
        report.rows.push({ target, rps: of('rps'), p50: of('p50'), p99: of('p99'), non2xx: rows.reduce((a, r) => a + r.non2xx, 0), errors: rows.reduce((a, r) => a + r.errors, 0) });
      }
    } finally {
      await server.stop();
    }
  } finally {
    await fake.stop();
  }
  const [alone, through] = report.rows;
  if (alone && through) {
    report.addedP50 = through.p50 - alone.p50;
    report.addedP99 = through.p99 - alone.p99;
    report.rpsRatio = through.rps / alone.rps;
  }
  md.push(`\n## Sidecar (fake upstream waiting ${DELAY_MS} ms per answer, ${opts.connections} connections, THREADS=${opts.threads}, median of ${opts.rounds} alternating rounds of ${opts.seconds} s)\n`);
  md.push(table([
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
    ...report.rows.map((r) => [r.target, r.rps, r.p50, r.p99, r.non2xx, r.errors]),
  ]));
  if (report.addedP50 !== null) {
    md.push(`\nThe sidecar adds ${report.addedP50.toFixed(2)} ms at p50 and ${report.addedP99!.toFixed(2)} ms at p99, at ${report.rpsRatio!.toFixed(2)}x the upstream's req/s.`);
  }
  return report;
}
