/**
 * Checks a parse result against a field case's `expect` (conformance/field/README.md). Returns
 * one line per unmet expectation; an empty list means the case passes.
 */
import { jsonEqual, preview } from '../../lib/json-equal.js';
import type { FieldExpect } from './case.js';

interface ObservedResult {
  calls?: Array<{ name?: unknown; arguments?: unknown }>;
  prose?: unknown;
  reasoning?: unknown;
  tool_parse_errors?: unknown[];
  protocol_violations?: Array<{ kind?: unknown }>;
  dropped?: unknown[];
}

export function checkExpect(result: unknown, expect: FieldExpect): string[] {
  const r = (result ?? {}) as ObservedResult;
  const failures: string[] = [];
  const calls = (r.calls ?? []).map((call) => ({ name: call.name, arguments: call.arguments }));
  if (!jsonEqual(calls, expect.calls)) failures.push(`calls: expected ${preview(expect.calls)}, got ${preview(calls)}`);
  const prose = typeof r.prose === 'string' ? r.prose : '';
  if (expect.prose !== undefined && prose.trim() !== expect.prose.trim()) failures.push(`prose: expected ${preview(expect.prose)}, got ${preview(prose)}`);
  for (const part of expect.prose_includes ?? []) if (!prose.includes(part)) failures.push(`prose lacks ${preview(part)}: ${preview(prose)}`);
  for (const part of expect.prose_excludes ?? []) if (prose.includes(part)) failures.push(`prose holds ${preview(part)}: ${preview(prose)}`);
  if (expect.reasoning !== undefined) {
    if (typeof r.reasoning !== 'string') failures.push('reasoning: result.reasoning is absent');
    else if (r.reasoning.trim() !== expect.reasoning.trim()) failures.push(`reasoning: expected ${preview(expect.reasoning)}, got ${preview(r.reasoning)}`);
  }
  const errors = (r.tool_parse_errors ?? []).filter((e): e is string => typeof e === 'string');
  for (const prefix of expect.error_prefixes ?? []) {
    if (!errors.some((e) => e.startsWith(prefix))) failures.push(`no error starts with ${preview(prefix)}: ${preview(errors)}`);
  }
  for (const part of expect.error_mentions ?? []) {
    if (!errors.some((e) => e.includes(part))) failures.push(`no error mentions ${preview(part)}: ${preview(errors)}`);
  }
  if (expect.no_errors === true && errors.length > 0) failures.push(`errors: expected none, got ${preview(errors)}`);
  const kinds = (r.protocol_violations ?? []).map((v) => v.kind);
  for (const kind of expect.violation_kinds ?? []) if (!kinds.includes(kind)) failures.push(`no ${kind} violation: ${preview(kinds)}`);
  if (expect.no_violations === true && kinds.length > 0) failures.push(`violations: expected none, got ${preview(kinds)}`);
  const dropped = r.dropped ?? [];
  if (expect.dropped === true && dropped.length === 0) failures.push('dropped: expected a drop, got none');
  if (expect.dropped === false && dropped.length > 0) failures.push(`dropped: expected none, got ${preview(dropped)}`);
  return failures;
}
