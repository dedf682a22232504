/**
 * The sidecar's part of readiness: the upstream answers `GET <UPSTREAM_URL>/models`. Any answer
 * below 500 counts (an upstream that wants a key answers 401 to the probe, which sends none, and
 * is up all the same). One probe serves every readiness check for a second, so a busy kubelet
 * or load balancer does not multiply into upstream traffic.
 */
import type { Upstream } from './upstream.js';

/** How long the upstream has to answer a readiness probe. */
export const PROBE_TIMEOUT_MS = 2_000;
const REUSE_MS = 1_000;

export function upstreamReadiness(upstream: Upstream): () => Promise<string | null> {
  let last: { at: number; answer: Promise<string | null> } | null = null;

  const probe = async (): Promise<string | null> => {
    try {
      const response = await upstream.request('GET', '/models', {}, null, AbortSignal.timeout(Math.min(PROBE_TIMEOUT_MS, upstream.timeoutMs)));
      await response.body.dump();
      return response.statusCode < 500 ? null : `upstream answered ${response.statusCode}`;
    } catch {
      return 'upstream unreachable';
    }
  };

  return () => {
    const now = Date.now();
    if (last === null || now - last.at > REUSE_MS) last = { at: now, answer: probe() };
    return last.answer;
  };
}
