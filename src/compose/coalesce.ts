/**
 * Coalescing of repeated diagnostics at the result boundary, so a result's size follows its
 * input: a turn of a million stray tags would otherwise carry a million violations and a million
 * drops, each a message longer than the tag that caused it.
 *
 * Per violation kind (and per drop reason), the first `COALESCE_AFTER` entries are kept as they
 * are; the next one is kept with a `count` of how many entries it stands for (itself and every
 * later one of the same kind, whose own text is left out). Order is otherwise unchanged. A result
 * with at most `COALESCE_AFTER` entries of each kind (every reference vector) is returned as is.
 *
 * `tool_parse_errors` are strings, so the same is done per identical message: the first
 * `COALESCE_AFTER` copies stay, and in place of the next the message gains a suffix saying how
 * many copies it stands for (the machine-matched prefix is kept).
 */
import type { DroppedFragment, ProtocolViolation } from './types.js';

/** Entries of one kind (or drop reason) kept verbatim before the rest fold into one counted entry. */
export const COALESCE_AFTER = 32;

function coalesce<T extends { count?: number }>(entries: readonly T[], keyOf: (entry: T) => string): T[] {
  if (entries.length <= COALESCE_AFTER) return entries as T[];
  const seen = new Map<string, number>();
  const folded = new Map<string, T>();
  const out: T[] = [];
  for (const entry of entries) {
    const key = keyOf(entry);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n <= COALESCE_AFTER) out.push(entry);
    else {
      const into = folded.get(key);
      if (into === undefined) {
        const first = { ...entry, count: 1 };
        folded.set(key, first);
        out.push(first);
      } else into.count! += 1;
    }
  }
  return out;
}

export function coalesceViolations(violations: readonly ProtocolViolation[]): ProtocolViolation[] {
  return coalesce(violations, (v) => v.kind);
}

export function coalesceDrops(dropped: readonly DroppedFragment[]): DroppedFragment[] {
  return coalesce(dropped, (d) => d.reason);
}

/** The suffix of a coalesced error: `<message> (repeated 12 more times)`. */
export function repeatedSuffix(count: number): string {
  return ` (repeated ${count} more time${count === 1 ? '' : 's'})`;
}

export function coalesceErrors(errors: readonly string[]): string[] {
  if (errors.length <= COALESCE_AFTER) return errors as string[];
  const seen = new Map<string, number>();
  const foldedAt = new Map<string, number>();
  const out: string[] = [];
  for (const message of errors) {
    const n = (seen.get(message) ?? 0) + 1;
    seen.set(message, n);
    if (n <= COALESCE_AFTER) out.push(message);
    else if (n === COALESCE_AFTER + 1) {
      foldedAt.set(message, out.length);
      out.push(message);
    }
  }
  for (const [message, at] of foldedAt) out[at] = message + repeatedSuffix(seen.get(message)! - COALESCE_AFTER);
  return out;
}
