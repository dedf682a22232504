/**
 * Two floods against a service sized as a 1 GiB container would be (MAX_INFLIGHT_BYTES 128 MiB):
 *
 *   stalled uploads: many connections each send most of a large body and stop. Each must get 408
 *     after BODY_TIMEOUT_MS (or 503 when MAX_INFLIGHT_BYTES is full, which holds none of it), and
 *     the service must serve normally afterwards, its bytes released.
 *   split batches: many batch requests at once, each split into one task per item. Batches and the
 *     clients beside them must get 200 (checked against the library) or 503, nothing else.
 *
 * Both run beside a few clients sending typical requests, and the service's RSS is sampled all the
 * way through. Correctness is enforced always; the RSS bound (512 MB) only in the full run, a
 * warning in --smoke. Loopback only; every loop is bounded in count and time.
 */
import { connect } from 'node:net';
import { table } from '../bench/harness.js';
import { mib, post, warmUp } from './load.js';
import type { Scenario } from './scenarios.js';
import { forceGc, rssOf, type RunningServer } from './server.js';

export const FLOOD_RSS_LIMIT = 512 * 1024 * 1024;
/** What a 1 GiB container gets by default (1/8 of its memory limit). */
export const FLOOD_INFLIGHT_BYTES = 128 * 1024 * 1024;

export interface FloodOptions {
  smoke: boolean;
  bodyTimeoutMs: number;
}

interface Sizes {
  stalled: number;
  declared: number;
  sent: number;
  batches: number;
  batchRounds: number;
}

const sizesOf = (smoke: boolean): Sizes =>
  smoke
    ? { stalled: 16, declared: 2_000_000, sent: 1_500_000, batches: 8, batchRounds: 2 }
    : { stalled: 96, declared: 9_000_000, sent: 8_000_000, batches: 32, batchRounds: 4 };

/** The service environment the floods assume; the caller starts the server with it. */
export function floodEnv(opts: FloodOptions): Record<string, string> {
  return { MAX_INFLIGHT_BYTES: String(FLOOD_INFLIGHT_BYTES), BODY_TIMEOUT_MS: String(opts.bodyTimeoutMs) };
}

/** RSS every 50 ms, at most 20 minutes' worth of samples. */
function sampleRss(pid: number): { stop(): number | null } {
  let peak: number | null = null;
  let samples = 0;
  const timer = setInterval(() => {
    const rss = rssOf(pid);
    if (rss !== null) peak = Math.max(peak ?? 0, rss);
    if (++samples >= 24_000) clearInterval(timer);
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

interface StalledAnswer {
  status: number;
  ms: number;
}

/** One upload that sends `sent` of `declared` bytes and stalls; what came back, or status 0 after `boundMs`. */
function stalledUpload(url: URL, declared: number, sent: number, boundMs: number): Promise<StalledAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(Number(url.port), '127.0.0.1');
    let reply = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1];
      resolve({ status: status === undefined ? 0 : Number(status), ms: performance.now() - started });
    };
    const timer = setTimeout(finish, boundMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      reply += chunk;
      if (reply.length > 4096 || reply.includes('}}')) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(`POST /parse HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n{"text":"`);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let left = sent - 9;
      const pump = () => {
        while (left > 0) {
          const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= piece.length;
          if (!socket.write(piece)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

interface Beside {
  statuses: Map<number, number>;
  problems: string[];
}

/** `clients` loops of typical requests until `until()` says stop (at most `maxMs`); each 200 checked. */
async function besideClients(server: RunningServer, typical: Scenario, clients: number, until: () => boolean, maxMs: number): Promise<Beside> {
  const statuses = new Map<number, number>();
  const problems: string[] = [];
  const end = Date.now() + maxMs;
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let i = 0; i < 10_000 && !until() && Date.now() < end; i++) {
      const answer = await post(`${server.url}/parse`, typical.body).catch(() => null);
      const status = answer?.status ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (answer !== null && status === 200) {
        const problem = typical.check(status, answer.json);
        if (problem !== null && problems.length < 3) problems.push(problem);
      }
      if (status === 503) await new Promise((r) => setTimeout(r, 20));
    }
  }));
  return { statuses, problems };
}

const count = (m: Map<number, number>, status: number) => m.get(status) ?? 0;
const others = (m: Map<number, number>, allowed: number[]) => [...m].filter(([s]) => !allowed.includes(s)).reduce((a, [, n]) => a + n, 0);
const show = (m: Map<number, number>) => [...m].sort(([a], [b]) => a - b).map(([s, n]) => `${s === 0 ? 'no answer' : s}: ${n}`).join(', ');

export interface FloodReport {
  rssBase: number | null;
  stalled: { peak: number | null; statuses: string; besideStatuses: string; rounds408: number[]; ms408: number[]; rssAfterGc: number | null };
  batches: { peak: number | null; statuses: string; besideStatuses: string; rssAfterGc: number | null };
}

/** Runs both floods on `server` (started with `floodEnv`); failures name what broke. */
export async function floods(server: RunningServer, opts: FloodOptions, typical: Scenario, batch: Scenario, label: string, failures: string[], md: string[]): Promise<FloodReport> {
  const sizes = sizesOf(opts.smoke);
  await warmUp(server, typical, 2);
  await forceGc(server);
  const rssBase = rssOf(server.pid);
  const url = new URL(server.url);

  // Stalled uploads, in two rounds: the second gets 408s only if the first round's bytes were released.
  let stalledDone = false;
  let rss = sampleRss(server.pid);
  const boundMs = opts.bodyTimeoutMs + 20_000;
  const stalledStatuses = new Map<number, number>();
  const rounds408: number[] = [];
  const answers: StalledAnswer[] = [];
  const besideStalled = besideClients(server, typical, 4, () => stalledDone, 2 * boundMs);
  for (let round = 0; round < 2; round++) {
    const got = await Promise.all(Array.from({ length: sizes.stalled }, () => stalledUpload(url, sizes.declared, sizes.sent, boundMs)));
    rounds408.push(got.filter((a) => a.status === 408).length);
    answers.push(...got);
  }
  stalledDone = true;
  const stalledBeside = await besideStalled;
  const stalledPeak = rss.stop();
  for (const a of answers) stalledStatuses.set(a.status, (stalledStatuses.get(a.status) ?? 0) + 1);
  const ms408 = answers.filter((a) => a.status === 408).map((a) => a.ms).sort((a, b) => a - b);
  const after = await post(`${server.url}/parse`, typical.body).catch(() => null);
  await forceGc(server);
  const stalledRssAfter = rssOf(server.pid);

  const name = `${label}: stalled uploads`;
  if (rounds408.some((n) => n === 0)) failures.push(`${name}: a round with no 408 (408s per round ${rounds408.join(', ')}; ${show(stalledStatuses)}): bytes not released?`);
  if (others(stalledStatuses, [408, 503]) > 0) failures.push(`${name}: answers other than 408 or 503 (${show(stalledStatuses)})`);
  // 408 comes from BODY_TIMEOUT_MS: not before it (less 10% for timer and clock slack).
  if (ms408.length > 0 && ms408[0]! < opts.bodyTimeoutMs * 0.9) failures.push(`${name}: a 408 after ${ms408[0]!.toFixed(0)} ms, before BODY_TIMEOUT_MS ${opts.bodyTimeoutMs}`);
  if (others(stalledBeside.statuses, [200, 503]) > 0) failures.push(`${name}: clients beside got ${show(stalledBeside.statuses)}`);
  if (count(stalledBeside.statuses, 200) === 0) failures.push(`${name}: no client beside the flood was served`);
  failures.push(...stalledBeside.problems.map((p) => `${name}: a client beside: ${p}`));
  const afterProblem = after === null ? 'no answer' : typical.check(after.status, after.json);
  if (afterProblem !== null) failures.push(`${name}: after the flood (bytes should be released): ${afterProblem}`);

  // Split batches, many at once, in rounds.
  let batchesDone = false;
  rss = sampleRss(server.pid);
  const batchStatuses = new Map<number, number>();
  const batchProblems: string[] = [];
  const besideBatches = besideClients(server, typical, 4, () => batchesDone, 120_000);
  for (let round = 0; round < sizes.batchRounds; round++) {
    const replies = await Promise.all(Array.from({ length: sizes.batches }, () => post(`${server.url}/parse`, batch.body).catch(() => null)));
    for (const reply of replies) {
      const status = reply?.status ?? 0;
      batchStatuses.set(status, (batchStatuses.get(status) ?? 0) + 1);
      if (reply !== null && status === 200) {
        const problem = batch.check(status, reply.json);
        if (problem !== null && batchProblems.length < 3) batchProblems.push(problem);
      }
    }
  }
  batchesDone = true;
  const batchBeside = await besideBatches;
  const batchPeak = rss.stop();
  await forceGc(server);
  const batchRssAfter = rssOf(server.pid);
  const bname = `${label}: batch flood`;
  if (others(batchStatuses, [200, 503]) > 0) failures.push(`${bname}: batches got ${show(batchStatuses)}`);
  if (count(batchStatuses, 200) === 0) failures.push(`${bname}: no batch was served`);
  if (others(batchBeside.statuses, [200, 503]) > 0) failures.push(`${bname}: clients beside got ${show(batchBeside.statuses)}`);
  failures.push(...batchProblems.map((p) => `${bname}: ${p}`), ...batchBeside.problems.map((p) => `${bname}: a client beside: ${p}`));

  for (const [what, peak] of [['stalled uploads', stalledPeak], ['batch flood', batchPeak]] as const) {
    if (peak === null || peak <= FLOOD_RSS_LIMIT) continue;
    const message = `${label}: ${what}: peak RSS ${mib(peak)} MiB (limit ${mib(FLOOD_RSS_LIMIT)} MiB)`;
    if (opts.smoke) console.warn(`warning (not enforced in --smoke): ${message}`);
    else failures.push(message);
  }

  md.push(`\n### ${label}: floods (MAX_INFLIGHT_BYTES ${mib(FLOOD_INFLIGHT_BYTES)} MiB, BODY_TIMEOUT_MS ${opts.bodyTimeoutMs}; RSS base after warm-up + GC ${mib(rssBase)} MiB)\n`);
  md.push(table([
    ['flood', 'size', 'answers', 'clients beside', '408 after ms (min, max)', 'peak RSS MiB', 'RSS after + GC MiB'],
    [`stalled uploads`, `2 rounds x ${sizes.stalled} x ${(sizes.sent / 1e6).toFixed(1)} of ${(sizes.declared / 1e6).toFixed(1)} MB`, show(stalledStatuses), show(stalledBeside.statuses),
      ms408.length > 0 ? `${ms408[0]!.toFixed(0)}, ${ms408.at(-1)!.toFixed(0)}` : '-', mib(stalledPeak), mib(stalledRssAfter)],
    [`split batches`, `${sizes.batchRounds} rounds x ${sizes.batches} batch-32`, show(batchStatuses), show(batchBeside.statuses), '-', mib(batchPeak), mib(batchRssAfter)],
  ]));
  return {
    rssBase,
    stalled: { peak: stalledPeak, statuses: show(stalledStatuses), besideStatuses: show(stalledBeside.statuses), rounds408, ms408, rssAfterGc: stalledRssAfter },
    batches: { peak: batchPeak, statuses: show(batchStatuses), besideStatuses: show(batchBeside.statuses), rssAfterGc: batchRssAfter },
  };
}
