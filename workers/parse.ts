/**
 * The Piscina worker: loads the dialect vocabulary, the scanner and the composer once (module
 * load), compiles the request schemas once, and answers tasks with serialised JSON. All logic
 * lives in src/server/worker/handle.ts, which the tests run in-process.
 */
import { workerData } from 'node:worker_threads';
import type { WorkerData } from '../src/server/runner/wire.js';
import { setUpWorker } from '../src/server/worker/setup.js';

export default setUpWorker(workerData as WorkerData);
