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
}
