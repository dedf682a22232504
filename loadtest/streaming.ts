/**
 * Streaming: `streams` concurrent POST /parse/stream exchanges on 127.0.0.1, each writing its
 * response in 4-character chunks at 50 chunks per second (one NDJSON line per chunk), each on its
 * own connection. Measured from the client side:
 *
 *   - the delay from writing a chunk to reading the events it made certain (every batch of event
 *     lines is the latest written chunk's: with 20 ms between chunks and sub-millisecond work per
 *     chunk, nothing else can have made them);
 *   - the delay from the end of the body to the result line;
 *   - the service's CPU (every thread of its process, /metrics `process_cpu_seconds_total`) per
 *     stream and per chunk;
 *   - this process's own event-loop delay, since a late read here inflates the delays above.
 *
 * One ticker writes every stream's next chunk each 20 ms (200 timers would cost this process
 * more than the service).
 *
 * Every stream's result is checked against the library. Bounded in count (streams x chunks) and
 * in time (a deadline per stream); loopback only.
 */
import { request, type ClientRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { table } from '../bench/harness.js';
import { responseOfSize, SEED_TOOLS } from '../bench/seed-shaped.js';
import { parseToolCalls } from '../src/compose/index.js';
import { projectResult } from '../src/server/worker/project.js';
import { startServer, type RunningServer } from './server.js';

export interface StreamingOptions {
  threads: number;
  smoke: boolean;
}

const CHUNK_CHARS = 4;
const CHUNKS_PER_SECOND = 50;

interface StreamOutcome {
  /** ms from a chunk's write to the first event line it made (one per chunk that made events). */
  eventDelays: number[];
  /** ms from the body's end to the result line. */
  resultDelay: number | null;
  problem: string | null;
  chunks: number;
}

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function cpuSeconds(server: RunningServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const line = text.split('\n').find((l) => l.startsWith('process_cpu_seconds_total '));
  return line === undefined ? Number.NaN : Number(line.split(' ')[1]);
}

interface OpenStream {
  /** Writes chunks until `due` have been written, or ends the body after the last; false once there is nothing left to write. */
  next(due: number): boolean;
  readonly outcome: Promise<StreamOutcome>;
}

function openStream(server: RunningServer, text: string, expected: string, deadlineMs: number): OpenStream {
  const outcome: StreamOutcome = { eventDelays: [], resultDelay: null, problem: null, chunks: 0 };
  const url = new URL('/parse/stream', server.url);
  const req: ClientRequest = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/x-ndjson' } });
  let lastWrite = 0;
  let awaitingFirstEvent = false;
  let endedAt = 0;
  let pending = '';
  let at = 0;
  let done = false;
  let resolve: (o: StreamOutcome) => void = () => undefined;
  const settled = new Promise<StreamOutcome>((r) => {
    resolve = r;
  });
  const deadline = setTimeout(() => finish(`no result within ${deadlineMs} ms`), deadlineMs);
  function finish(problem: string | null): void {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    outcome.problem ??= problem;
    req.destroy();
    resolve(outcome);
  }
  req.on('socket', (socket) => socket.setNoDelay(true));
  req.on('error', (error) => finish(`request error: ${error.message}`));
  req.on('response', (res) => {
    if (res.statusCode !== 200) {
      finish(`status ${res.statusCode}`);
      return;
    }
    res.setEncoding('utf8');
    res.on('data', (piece: string) => {
      const now = performance.now();
      pending += piece;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line === '') continue;
        if (line.startsWith('{"type":"result"')) {
          outcome.resultDelay = now - endedAt;
          const got = JSON.stringify((JSON.parse(line) as { result: unknown }).result);
          finish(got === expected ? null : "the result differs from the library's");
          return;
        }
        if (awaitingFirstEvent && endedAt === 0) {
          outcome.eventDelays.push(now - lastWrite);
          awaitingFirstEvent = false;
        }
      }
    });
  });
  req.write(JSON.stringify({ tools: [...SEED_TOOLS] }) + '\n');
  return {
    outcome: settled,
    next(due) {
      while (!done && endedAt === 0 && outcome.chunks < due) {
        if (at >= text.length) {
          endedAt = performance.now();
          req.end();
          return false;
        }
        const line = JSON.stringify({ text: text.slice(at, at + CHUNK_CHARS) }) + '\n';
        at += CHUNK_CHARS;
        outcome.chunks += 1;
        lastWrite = performance.now();
        awaitingFirstEvent = true;
        req.write(line);
      }
      return !done && endedAt === 0;
    },
  };
}

/** Prose and Hermes calls (`<tool_call>{"name", "arguments"}</tool_call>`) to about `chars` characters. */
function hermesResponseOfSize(chars: number, seed: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let n = 0; size < chars; n++) {
    const part = `Reading module ${seed}.${n} next, then checking its tests.\n<tool_call>{"name": "look", "arguments": {"path": "src/m${seed}_${n}.ts"}}</tool_call>\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join('') + 'Done for now.';
}

export async function streaming(opts: StreamingOptions, failures: string[], md: string[]) {
  const streams = opts.smoke ? 20 : 200;
  // 6 s of text per stream in the full run (1,200 characters at 200 characters per second).
  const chars = opts.smoke ? 240 : 1_200;
  // Half the streams in the reference grammar (which a stream releases at the end: the rest lane
  // reads a piece whole), half in Hermes's JSON grammar (released at each close), so the chunk ->
  // event delays are measured on calls made certain mid-stream.
  const texts = Array.from({ length: streams }, (_, i) => (i % 2 === 0 ? responseOfSize(chars, 500 + i) : hermesResponseOfSize(chars, i)));
  const expected = texts.map((text) => JSON.stringify(projectResult(parseToolCalls(text, { tools: [...SEED_TOOLS] }))));
  const server = await startServer({ POOL: 'piscina', THREADS: String(opts.threads), MAX_STREAMS: String(streams * 2), MAX_INFLIGHT_BYTES: String(256 * 1024 * 1024) });
  try {
    const cpuBefore = await cpuSeconds(server);
    const started = performance.now();
    const longest = Math.max(...texts.map((t) => t.length));
    const deadlineMs = 30_000 + (longest / CHUNK_CHARS / CHUNKS_PER_SECOND) * 3000;
    const open = texts.map((text, i) => openStream(server, text, expected[i]!, deadlineMs));
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    // Each tick serves a tenth of the streams in turn, ten ticks per chunk interval, so the writes
    // are spread over the interval; a stream writes what its rate says is due by now, so a late
    // tick (a busy machine) does not lower the rate.
    const slices = 10;
    let tick = 0;
    const t0 = performance.now();
    // Stream i starts i/streams of a second in, so the streams overlap but do not all end at once.
    const ticker = setInterval(() => {
      const elapsed = performance.now() - t0;
      for (let i = tick % slices; i < open.length; i += slices) {
        const own = elapsed - (i * 1000) / open.length;
        if (own >= 0) open[i]!.next(Math.floor((own / 1000) * CHUNKS_PER_SECOND) + 1);
      }
      tick += 1;
    }, 1000 / CHUNKS_PER_SECOND / slices);
    const outcomes = await Promise.all(open.map((o) => o.outcome));
    clearInterval(ticker);
    lag.disable();
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await cpuSeconds(server)) - cpuBefore;
    const problems = outcomes.flatMap((o, i) => (o.problem === null ? [] : [`stream ${i}: ${o.problem}`]));
    if (problems.length > 0) failures.push(`streaming: ${problems.length} of ${streams} streams failed (${problems.slice(0, 3).join('; ')})`);
    const delays = outcomes.flatMap((o) => o.eventDelays).sort((a, b) => a - b);
    const results = outcomes.flatMap((o) => (o.resultDelay === null ? [] : [o.resultDelay])).sort((a, b) => a - b);
    const chunks = outcomes.reduce((a, o) => a + o.chunks, 0);
    const row = {
      streams, charsPerStream: chars, chunks, seconds, eventBatches: delays.length,
      eventP50: percentile(delays, 50), eventP99: percentile(delays, 99), resultP50: percentile(results, 50), resultP99: percentile(results, 99),
      cpuMsPerStream: (cpu * 1000) / streams, cpuUsPerChunk: (cpu * 1e6) / chunks, failed: problems.length,
      clientLagP99: lag.percentile(99) / 1e6,
    };
    const ms = (x: number | null): string | number => (x === null ? '-' : x);
    md.push(`\n## Streaming (${streams} concurrent streams, ${CHUNK_CHARS}-character chunks at ${CHUNKS_PER_SECOND} chunks/s, THREADS=${opts.threads})\n`);
    md.push(table([
      ['streams', 'chars each', 'chunks', 'wall s', 'chunks that made events', 'chunk -> event p50 ms', 'p99 ms', 'body end -> result p50 ms', 'p99 ms', 'service CPU ms per stream', 'CPU µs per chunk', 'client loop delay p99 ms', 'failed'],
      [streams, chars, chunks, seconds, delays.length, ms(row.eventP50), ms(row.eventP99), ms(row.resultP50), ms(row.resultP99), row.cpuMsPerStream, row.cpuUsPerChunk, row.clientLagP99, problems.length],
    ]));
    return row;
  } finally {
    await server.stop();
  }
}
