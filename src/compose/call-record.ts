/**
 * The record of a call that already ran: a call object written with its outcome or time beside
 * its name and arguments (`{"name": …, "arguments": …, "status": "failed"}`, a log line's `ts`).
 * The look-alike reader and the native JSON sniffer leave such an object as data.
 */
import { LOOKALIKE } from '../dialects/field/look-alikes.js';

const RESULT_KEYS: ReadonlySet<string> = new Set(LOOKALIKE.resultKeys);

/**
 * Whether `item` holds one of the look-alike record's `resultKeys`. perf: the item's own keys are
 * looked up, and an item of two keys (a name and arguments: nearly every call) holds none of
 * them, so most items cost a count of their first three keys.
 */
export function recordsCallOutcome(item: Record<string, unknown>): boolean {
  let count = 0;
  for (const _key in item) if (++count > 2) break;
  if (count <= 2) return false;
  for (const key in item) if (Object.hasOwn(item, key) && RESULT_KEYS.has(key)) return true;
  return false;
}
