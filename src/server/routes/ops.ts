/** Probes, metrics and the OpenAPI document. */
import type { FastifyInstance } from 'fastify';
import type { ServiceMetrics } from '../metrics.js';
import type { ParseRunner } from '../runner/types.js';
import { healthSchema } from '../schemas.js';

export interface OpsRoutesOptions {
  runner: ParseRunner;
  metrics: ServiceMetrics;
  /** True once shutdown has begun. */
  draining: () => boolean;
  /** The sidecar's upstream check: why it is not ready, or null. */
  upstreamReadiness?: () => Promise<string | null>;
}

/** Paths the request log skips: probes and scrapes would drown everything else. */
export const QUIET_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

export function opsRoutes(app: FastifyInstance, options: OpsRoutesOptions): void {
  const { runner, metrics, draining, upstreamReadiness } = options;

  app.get('/healthz', {
    schema: { summary: 'The process is alive (no pool check, so a busy pool never restarts a pod)', response: { 200: healthSchema } },
  }, async () => ({ status: 'ok' }));

  app.get('/readyz', {
    schema: {
      summary: 'Ready for traffic: pool started and warmed, not draining, queue not full (and, as a sidecar, the upstream answering)',
      response: { 200: healthSchema, 503: healthSchema },
    },
  }, async (_request, reply) => {
    const reason = draining() ? 'draining' : !runner.ready ? 'pool not ready' : runner.saturated ? 'queue full' : ((await upstreamReadiness?.()) ?? null);
    if (reason !== null) return reply.code(503).send({ status: 'not_ready', reason });
    return { status: 'ready' };
  });

  app.get('/metrics', {
    schema: { summary: 'Prometheus metrics', produces: ['text/plain'] },
  }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
