/**
 * tool-parse's diagnostics of one sidecar answer. They never enter the OpenAI message: a summary
 * goes in the `x-tool-parse-diagnostics` response header (non-streaming answers), the counts in
 * the log and the metrics, and the whole of them in a top-level `tool_parse_diagnostics` field
 * only when the request asks with `x-tool-parse-diagnostics: body`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { DroppedFragment, ProtocolViolation } from '../../compose/types.js';

export const DIAGNOSTICS_HEADER = 'x-tool-parse-diagnostics';
/** The top-level extension field of a completion (or of a stream's final chunk). */
export const DIAGNOSTICS_FIELD = 'tool_parse_diagnostics';

/** One choice's diagnostics. */
export interface ChoiceDiagnostics {
  index: number;
  /** Calls read from the text and added to the message. */
  parsed_calls: number;
  /** Calls the upstream sent in `tool_calls` itself, passed through. */
  upstream_calls: number;
  /** Calls read from the text that restated an upstream call, left out. */
  duplicate_calls: number;
  tool_parse_errors: string[];
  protocol_violations: ProtocolViolation[];
  dropped: DroppedFragment[];
  recovered_from_stray_count: number;
}

export function emptyDiagnostics(index: number): ChoiceDiagnostics {
  return { index, parsed_calls: 0, upstream_calls: 0, duplicate_calls: 0, tool_parse_errors: [], protocol_violations: [], dropped: [], recovered_from_stray_count: 0 };
}

/** True when the request asked for the diagnostics in the body. */
export function wantsBodyDiagnostics(headers: IncomingHttpHeaders): boolean {
  const value = headers[DIAGNOSTICS_HEADER];
  return typeof value === 'string' && value.trim().toLowerCase() === 'body';
}

export interface DiagnosticTotals {
  parsed_calls: number;
  upstream_calls: number;
  duplicate_calls: number;
  errors: number;
  violations: number;
  dropped: number;
}

export function totalsOf(choices: readonly ChoiceDiagnostics[]): DiagnosticTotals {
  const totals: DiagnosticTotals = { parsed_calls: 0, upstream_calls: 0, duplicate_calls: 0, errors: 0, violations: 0, dropped: 0 };
  for (const c of choices) {
    totals.parsed_calls += c.parsed_calls;
    totals.upstream_calls += c.upstream_calls;
    totals.duplicate_calls += c.duplicate_calls;
    totals.errors += c.tool_parse_errors.length;
    totals.violations += c.protocol_violations.length;
    totals.dropped += c.dropped.length;
  }
  return totals;
}

/** The header's value: `parsed_calls=1, upstream_calls=0, duplicate_calls=0, errors=0, violations=0, dropped=1`. */
export function headerSummary(totals: DiagnosticTotals): string {
  return Object.entries(totals).map(([key, value]) => `${key}=${value}`).join(', ');
}
