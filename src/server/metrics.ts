/**
 * Prometheus metrics, one registry per app (so several apps in one process, as in the tests,
 * do not share counters). Pool gauges are read from the runner at scrape time.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ParseRunner, RunnerEvents } from './runner/types.js';

export interface ServiceMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly parseDuration: Histogram<'route'>;
  /** Hooks the runner calls; wire them in before the runner exists. */
  readonly runnerEvents: RunnerEvents;
  /** Points the pool gauges at the runner once it exists. */
  watch(runner: ParseRunner): void;
  /** Events written by streams, by event type. */
  readonly streamEvents: Counter<'type'>;
  /** Stream lifetimes, from admission to the end of the answer, by how they ended. */
  readonly streamDuration: Histogram<'outcome'>;
  /** Points the open-streams gauge at the count of open streams. */
  watchStreams(open: () => number): void;
}

export function createMetrics(options: { defaultMetrics: boolean }): ServiceMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  let runner: ParseRunner | null = null;
  let openStreams: () => number = () => 0;

  const requests = new Counter({
    name: 'tool_parse_http_requests_total',
    help: 'HTTP requests answered, by route, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const parseDuration = new Histogram({
    name: 'tool_parse_parse_duration_seconds',
    help: 'Time from handing a body to the pool to having the answer (queue wait included).',
    labelNames: ['route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'tool_parse_pool_queue_depth',
    help: 'Parse tasks waiting for a worker.',
    registers: [registry],
    collect() {
      this.set(runner?.queueSize ?? 0);
    },
  });
  new Gauge({
    name: 'tool_parse_pool_utilization',
    help: 'Busy fraction of the worker pool (0..1).',
    registers: [registry],
    collect() {
      this.set(runner?.utilization ?? 0);
    },
  });
  new Gauge({
    name: 'tool_parse_pool_threads',
    help: 'Live parse worker threads (0 when parsing inline).',
    registers: [registry],
    collect() {
      this.set(runner?.threads ?? 0);
    },
  });
  const restarts = new Counter({
    name: 'tool_parse_pool_worker_restarts_total',
    help: 'Workers that died (crash, timeout kill, out of memory) and were replaced.',
    registers: [registry],
  });
  const taskWork = new Histogram({
    name: 'tool_parse_worker_parse_seconds',
    help: 'Time a task took inside the thread that ran it (decode, validate, parse, serialise), queue wait and messaging excluded; thread is worker or main.',
    labelNames: ['thread'] as const,
    buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  const timeouts = new Counter({
    name: 'tool_parse_pool_tasks_timed_out_total',
    help: 'Parse tasks that ran or waited past TASK_TIMEOUT_MS.',
    registers: [registry],
  });

  new Gauge({
    name: 'tool_parse_streams_open',
    help: 'Streams (POST /parse/stream) open now, admitted and not yet answered to the end.',
    registers: [registry],
    collect() {
      this.set(openStreams());
    },
  });
  const streamEvents = new Counter({
    name: 'tool_parse_stream_events_total',
    help: 'Parser events written by streams, by event type (text, reasoning, call_start, call_arguments_delta, call_end, error, violation).',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  const streamDuration = new Histogram({
    name: 'tool_parse_stream_duration_seconds',
    help: 'Stream lifetimes from admission to the end of the answer, by outcome: complete, client_gone, refused, or the error code that ended it.',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [registry],
  });

  return {
    registry,
    streamEvents,
    streamDuration,
    watchStreams(open) {
      openStreams = open;
    },
    requests,
    parseDuration,
    runnerEvents: {
      onWorkerRestart: () => restarts.inc(),
      onTaskTimeout: () => timeouts.inc(),
      onTaskWork: (seconds, thread) => taskWork.observe({ thread }, seconds),
    },
    watch(r) {
      runner = r;
    },
  };
}
