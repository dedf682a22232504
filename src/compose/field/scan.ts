/**
 * The per-parse state the field readers share: the text, the registry, and memoised
 * forward searches. A reader that skips to "the next call opener or section close" asks here;
 * each needle list keeps its last answer (see `EarliestNeedle`), so thousands of skips over
 * one text sweep it once per list, not once per skip.
 */
import type { ToolRegistry } from '../../dialects/registry.js';
import { EarliestNeedle } from '../earliest-needle.js';

const nonEmptyOf = new WeakMap<readonly string[], readonly string[]>();

/** `needles` without empty strings, one array per list object (so EarliestNeedle keeps its grouping). */
function nonEmpty(needles: readonly string[]): readonly string[] {
  let kept = nonEmptyOf.get(needles);
  if (kept === undefined) {
    kept = needles.filter((n) => n !== '');
    nonEmptyOf.set(needles, kept);
  }
  return kept;
}

export class FieldScan {
  readonly text: string;
  readonly registry: ToolRegistry | null;
  readonly #finders = new Map<readonly string[], EarliestNeedle>();
  readonly #accepted = new Map<readonly string[], Map<string, { from: number; found: number }>>();

  constructor(text: string, registry: ToolRegistry | null) {
    this.text = text;
    this.registry = registry;
  }

  /** The earliest index `>= from` where one of `needles` starts, or -1. Pass the same array object each time. */
  earliest(needles: readonly string[], from: number): number {
    let finder = this.#finders.get(needles);
    if (finder === undefined) {
      finder = new EarliestNeedle(this.text, nonEmpty(needles));
      this.#finders.set(needles, finder);
    }
    return finder.earliest(from);
  }

  /**
   * The earliest index `>= from` where one of `needles` starts and `accept` holds, or -1.
   * `accept` must depend on the text at the index alone (one test per `needles` and `kind`),
   * so the answer is memoised as `earliest`'s is: a reader that asks again from further on
   * never tests a rejected candidate twice.
   */
  earliestAccepted(needles: readonly string[], kind: string, from: number, accept: (at: number) => boolean): number {
    let byKind = this.#accepted.get(needles);
    if (byKind === undefined) this.#accepted.set(needles, (byKind = new Map()));
    const memo = byKind.get(kind);
    if (memo !== undefined && from >= memo.from && (memo.found < 0 || from <= memo.found)) return memo.found;
    let at = this.earliest(needles, from);
    while (at >= 0 && !accept(at)) at = this.earliest(needles, at + 1);
    byKind.set(kind, { from, found: at });
    return at;
  }
}
