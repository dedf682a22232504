/**
 * Health probes from their own thread. autocannon keeps the load-test's main event loop busy, so
 * a probe timed there would measure the client's delay as much as the server's; a worker thread
 * with nothing else to do times only the round trip. Bounded: at most MAX_ROUNDS rounds and
 * MAX_MS of probing, whichever comes first, 100 ms apart.
 */
import { Worker } from 'node:worker_threads';

export interface ProbeResult {
  /** Milliseconds per probe, in the order sent. */
  readonly latencies: number[];
  /** HTTP status per probe; 0 when no answer came within 5 s. */
  readonly statuses: number[];
}

const MAX_ROUNDS = 5_000;
const MAX_MS = 600_000;

// Plain JavaScript so the worker needs no TypeScript loader.
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let running = true;
parentPort.on('message', () => { running = false; });
(async () => {
  // One unmeasured round first: the first fetch in a fresh thread loads and compiles the HTTP
  // client, which is the probe's own start-up, not the service's answer time.
  for (const path of ['/healthz', '/readyz']) {
    try {
      await (await fetch(workerData.base + path, { signal: AbortSignal.timeout(5000) })).arrayBuffer();
    } catch {}
  }
  parentPort.postMessage('ready');
  const latencies = [];
  const statuses = [];
  const end = Date.now() + workerData.maxMs;
  for (let round = 0; running && round < workerData.maxRounds && Date.now() < end; round++) {
    for (const path of ['/healthz', '/readyz']) {
      const t0 = performance.now();
      let status = 0;
      try {
        const res = await fetch(workerData.base + path, { signal: AbortSignal.timeout(5000) });
        status = res.status;
        await res.arrayBuffer();
      } catch {}
      latencies.push(performance.now() - t0);
      statuses.push(status);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  parentPort.postMessage({ latencies, statuses });
})();
`;

/** Resolves once the probe thread has made its unmeasured first round; measuring starts then. */
export async function startProbe(base: string): Promise<{ stop(): Promise<ProbeResult> }> {
  if (!base.startsWith('http://127.0.0.1:')) throw new TypeError(`probes go to 127.0.0.1 only; got ${base}`);
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { base, maxRounds: MAX_ROUNDS, maxMs: MAX_MS } });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  await Promise.race([new Promise((resolve) => worker.once('message', resolve)), failed]);
  const result = Promise.race([new Promise<ProbeResult>((resolve) => worker.once('message', (r: ProbeResult) => resolve(r))), failed]);
  return {
    async stop() {
      worker.postMessage('stop');
      const r = await result;
      await worker.terminate();
      return r;
    },
  };
}
