/**
 * Does a worker thread itself make a parse dearer? The built task handler (dist/) timed in tight
 * loops on this process's main thread and inside a worker thread, no HTTP and no idle waits
 * between tasks. Rounds alternate between the two threads and each side reports its median:
 * this machine's speed drifts (the same loop on an idle machine measured 0.14 ms, then 0.25 ms,
 * minutes apart), and alternating puts each drift on both sides. Set against the per-task
 * figures from the running service, this separates what the thread costs from what serving one
 * request at a time costs. Bounded: a fixed number of calls.
 */
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from '../bench/harness.js';

const HANDLE = pathToFileURL(fileURLToPath(new URL('../dist/src/server/worker/handle.js', import.meta.url))).href;
const ROUNDS = 7;

export interface ThreadCostInput {
  name: string;
  body: string;
  /** Calls per timed round (after as many warm-up calls). */
  runs: number;
}

export interface ThreadCost {
  name: string;
  mainMs: number;
  workerThreadMs: number;
}

/** One round: mean ms per task over `runs` calls after `runs` warm-up calls. Plain JS source. */
const ROUND_SOURCE = `
const bytesOf = new Map();
function round(handle, body, runs) {
  let bytes = bytesOf.get(body);
  if (bytes === undefined) bytesOf.set(body, (bytes = new TextEncoder().encode(body)));
  const task = { op: 'request', route: 'parse', body: bytes };
  for (let i = 0; i < runs; i++) handle(task);
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) handle(task);
  return (performance.now() - t0) / runs;
}
`;

const WORKER_SOURCE = `${ROUND_SOURCE}
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.handleUrl).then(({ createTaskHandler }) => {
  const handle = createTaskHandler({ maxBatch: 256, splitMinChars: 1e12, maxResponseBytes: 2 ** 31 });
  parentPort.on('message', ({ body, runs }) => parentPort.postMessage(round(handle, body, runs)));
  parentPort.postMessage('ready');
});
`;

export async function threadCost(inputs: ThreadCostInput[]): Promise<ThreadCost[]> {
  // The same source runs on both threads, so both time identical code.
  const round = new Function(`${ROUND_SOURCE}; return round;`)() as (handle: unknown, body: string, runs: number) => number;
  const { createTaskHandler } = (await import(HANDLE)) as { createTaskHandler: (limits: unknown) => unknown };
  const handle = createTaskHandler({ maxBatch: 256, splitMinChars: 1e12, maxResponseBytes: 2 ** 31 });
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { handleUrl: HANDLE } });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  const next = (): Promise<unknown> => Promise.race([new Promise((resolve) => worker.once('message', resolve)), failed]);
  try {
    await next();
    const out: ThreadCost[] = [];
    for (const { name, body, runs } of inputs) {
      const main: number[] = [];
      const inThread: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        main.push(round(handle, body, runs));
        const reply = next();
        worker.postMessage({ body, runs });
        inThread.push((await reply) as number);
      }
      out.push({ name, mainMs: median(main), workerThreadMs: median(inThread) });
    }
    return out;
  } finally {
    await worker.terminate();
  }
}
