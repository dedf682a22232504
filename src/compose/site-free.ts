/**
 * Records and lists a parse keeps until it returns, made without an object or array literal.
 *
 * perf: V8 tracks each object and array literal in the code (its allocation site) and, when a
 * young-generation collection finds nearly all of a site's recent objects alive, allocates that
 * site's objects in the old generation from then on, for the life of the process. A parse keeps
 * its regions, calls and drop entries until it returns, so the first collections of a process,
 * which land in the middle of a long parse, tenured those literals; each old record then kept the
 * young strings and records it points to alive until the next full collection. On the bench's
 * 80 KB Qwen3-Coder row, in a process parsing it alone, a young collection took 3.3 to 4.3 ms and
 * a full one ran every half second; with no such literal left, 0.5 to 0.7 ms and one in 5 s.
 *
 * Objects made by `new` (the lane's own records are class instances: region.ts), by
 * `Object.create` and arrays made by `slice` have no allocation site. A record a caller sees is
 * made by `Object.create(Object.prototype)`, so it is the plain object a literal made. (`Array.of`
 * is not inlined: a list made by it per call cost 10 % to 15 % of a Qwen3-Coder parse.)
 */
import type { DroppedFragment, DropReason } from './types.js';

const EMPTY: readonly unknown[] = [];
const ONE: unknown[] = [null];

/** `[]`. */
export function emptyList<T>(): T[] {
  return EMPTY.slice() as T[];
}

/** `[item]`. */
export function listOf<T>(item: T): T[] {
  ONE[0] = item;
  const list = ONE.slice() as T[];
  ONE[0] = null;
  return list;
}

/** `{ text, reason }`. */
export function dropEntry(text: string, reason: DropReason): DroppedFragment {
  const entry = Object.create(Object.prototype) as DroppedFragment;
  entry.text = text;
  entry.reason = reason;
  return entry;
}
