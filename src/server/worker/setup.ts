/**
 * A pool worker's start: take the configured niceness, then build the task handler (schemas
 * compiled, registry cache empty). Shared by workers/parse.ts and the test fixture worker.
 */
import type { WorkerData } from '../runner/wire.js';
import { createTaskHandler, type TaskHandler } from './handle.js';
import { lowerThreadPriority } from './priority.js';

export function setUpWorker(data: WorkerData): TaskHandler {
  lowerThreadPriority(data.nice);
  return createTaskHandler({ maxBatch: data.maxBatch, splitMinChars: data.splitMinChars, maxResponseBytes: data.maxResponseBytes });
}
