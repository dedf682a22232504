/** The sample every worker parses before the service reports ready (and that start fails on). */
import type { RequestTask } from './wire.js';

export const WARMUP_BODY = JSON.stringify({
  text: '<tool_call>look({"path": "a.rs"})</tool_call>',
  tools: ['look'],
});

export function warmupTask(): { task: RequestTask; transferList: ArrayBuffer[] } {
  const body = new TextEncoder().encode(WARMUP_BODY);
  return { task: { op: 'request', route: 'parse', body }, transferList: [body.buffer as ArrayBuffer] };
}
