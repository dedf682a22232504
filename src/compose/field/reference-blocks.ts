/**
 * Whether a position lies inside a complete block of the reference grammar
 * (`<tool_call>look({content: "</think>"})</tool_call>`), which the lane leaves to the rest lane
 * whole: a reasoning marker there is part of the call's arguments (the rest lane's own
 * thinking-tag rule, quote-aware, applies), not a reasoning block.
 *
 *     <tool_call> … pos … </tool_call>        inside: an open before pos with no close between,
 *                                             and the next close after pos before the next open
 *     I'll use <tool_call>.</think><tool_call>look()</tool_call>
 *                         ^ pos: the next open comes first, so not inside
 *
 * Questions come with forward-moving positions; the open/close events before a position are
 * consumed once, and each needle list keeps its own memoised search, so a whole parse sweeps
 * the text a bounded number of times.
 */
import { referenceBlockTags } from './call-markup.js';
import type { FieldScan } from './scan.js';

let tags: { readonly open: readonly string[]; readonly close: readonly string[]; readonly openAhead: readonly string[]; readonly closeAhead: readonly string[] } | null =
  null;

function blockTags() {
  if (tags === null) {
    const { open, close } = referenceBlockTags();
    // Two copies of each list: the event cursor and the look-ahead query from a position each
    // move forward on their own, and each array keeps its own memo in FieldScan.
    tags = { open, close, openAhead: [...open], closeAhead: [...close] };
  }
  return tags;
}

export class ReferenceBlocks {
  readonly #scan: FieldScan;
  #cursor = 0;
  /** The open of the block the cursor stands in, or -1. */
  #open = -1;

  constructor(scan: FieldScan) {
    this.#scan = scan;
  }

  /** True when `pos` is inside a complete reference block that began at or after `floor`. */
  inside(pos: number, floor: number): boolean {
    const t = blockTags();
    if (floor > this.#cursor) {
      this.#cursor = floor;
      this.#open = -1;
    }
    for (;;) {
      if (this.#open === -1) {
        const open = this.#scan.earliest(t.open, this.#cursor);
        if (open < 0 || open >= pos) break;
        this.#open = open;
        this.#cursor = open + 1;
      } else {
        const close = this.#scan.earliest(t.close, this.#cursor);
        if (close < 0 || close >= pos) break;
        this.#open = -1;
        this.#cursor = close + 1;
      }
    }
    if (this.#open === -1) return false;
    const close = this.#scan.earliest(t.closeAhead, pos);
    if (close < 0) return false;
    const open = this.#scan.earliest(t.openAhead, pos);
    return open < 0 || close < open;
  }
}
