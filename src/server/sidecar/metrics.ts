/** The sidecar's metrics, in the app's registry beside the parse service's. */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { DiagnosticTotals } from './diagnostics.js';

export interface SidecarMetrics {
  /** One completion answered: `mode` stream or once, `outcome` parsed, passed (no tools), upstream_error, or a catalogue code. */
  completed(mode: 'stream' | 'once', outcome: string): void;
  /** Tool calls and diagnostics of one parsed answer. */
  parsed(totals: DiagnosticTotals): void;
  /** Seconds until the upstream's answer headers arrived. */
  readonly upstreamSeconds: Histogram<'mode'>;
}

export function createSidecarMetrics(registry: Registry): SidecarMetrics {
  const completions = new Counter({
    name: 'tool_parse_sidecar_completions_total',
    help: 'Chat completions the sidecar answered, by mode (stream, once) and outcome.',
    labelNames: ['mode', 'outcome'] as const,
    registers: [registry],
  });
  const calls = new Counter({
    name: 'tool_parse_sidecar_tool_calls_total',
    help: 'Tool calls in sidecar answers, by source: parsed from the text, sent by the upstream, or parsed and left out as a restatement of an upstream call.',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  const diagnostics = new Counter({
    name: 'tool_parse_sidecar_diagnostics_total',
    help: 'Diagnostics of parsed sidecar answers, by kind (error, violation, dropped).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const upstreamSeconds = new Histogram({
    name: 'tool_parse_sidecar_upstream_seconds',
    help: "Time from forwarding a request to having the upstream's answer headers.",
    labelNames: ['mode'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  return {
    completed: (mode, outcome) => completions.inc({ mode, outcome }),
    parsed(totals) {
      calls.inc({ source: 'parsed' }, totals.parsed_calls);
      calls.inc({ source: 'upstream' }, totals.upstream_calls);
      calls.inc({ source: 'duplicate' }, totals.duplicate_calls);
      diagnostics.inc({ kind: 'error' }, totals.errors);
      diagnostics.inc({ kind: 'violation' }, totals.violations);
      diagnostics.inc({ kind: 'dropped' }, totals.dropped);
    },
    upstreamSeconds,
  };
}
