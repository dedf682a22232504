/** Shared bits of the service tests. */
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/app.js';

export const CANONICAL_TEXT = '<tool_call>look({"path": "a.rs"})</tool_call>';
export const MISBEHAVING_WORKER = new URL('../fixtures/misbehaving-worker.ts', import.meta.url);

export interface ParseResultShape {
  calls: { id: string; name: string; arguments: Record<string, unknown> }[];
  prose: string;
  user_response: string | null;
  done_marker: string | null;
  canonical_text: string;
  tool_parse_errors: string[];
  protocol_violations: { kind: string; message: string; excerpt: string | null; dropped_reason: string | null }[];
  dropped: { text: string; reason: string }[];
  recovered_from_stray_count: number;
}

/** Asserts the documented result shape, field by field (no composer details). */
export function assertResultShape(value: unknown): asserts value is ParseResultShape {
  const r = value as Record<string, unknown>;
  const keys = Object.keys(r).sort();
  // `reasoning` is the gateway profile's (the default); a harn answer has no such key.
  const expected = [
    'calls', 'canonical_text', 'done_marker', 'dropped', 'protocol_violations', 'prose',
    'recovered_from_stray_count', 'tool_parse_errors', 'user_response', ...(Object.hasOwn(r, 'reasoning') ? ['reasoning'] : []),
  ].sort();
  if (JSON.stringify(keys) !== JSON.stringify(expected)) throw new Error(`result keys ${keys.join(',')}`);
  if (Object.hasOwn(r, 'reasoning') && r.reasoning !== null && typeof r.reasoning !== 'string') throw new Error('reasoning is neither a string nor null');
  if (!Array.isArray(r.calls) || typeof r.prose !== 'string' || typeof r.canonical_text !== 'string') {
    throw new Error('result fields have wrong types');
  }
  if (!Array.isArray(r.tool_parse_errors) || !Array.isArray(r.protocol_violations) || !Array.isArray(r.dropped)) {
    throw new Error('result lists have wrong types');
  }
  if (!Number.isInteger(r.recovered_from_stray_count)) throw new Error('recovered_from_stray_count is not an integer');
}

export function inlineApp(options: AppOptions = {}): Promise<FastifyInstance> {
  return buildApp({ pool: 'inline', defaultMetrics: false, ...options });
}

export function poolApp(options: AppOptions = {}): Promise<FastifyInstance> {
  return buildApp({ pool: 'piscina', threads: 1, defaultMetrics: false, workerFile: MISBEHAVING_WORKER, ...options });
}

/** Listens on an ephemeral loopback port and returns the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

export async function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
}

/** Polls `check` every 20 ms until it holds or `ms` pass (bounded in count and time). */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const tries = Math.ceil(ms / 20);
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}
