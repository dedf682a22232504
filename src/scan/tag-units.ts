/**
 * Branches 6 to 12 for one compiled opener entry at a top-level `<`
 * (docs/design.md, "Scan steps"): each entry either yields its unit or passes (null) to the
 * next entry.
 *
 *     <done>##DONE##</done>        branch 8: a plain block needs a close somewhere after it
 *     <function=edit>...</function> branch 10: markup through its first close, else bounded
 *     </tool_call>                 branch 11: a call-tag close with no open block
 *     <function_calls>             branch 12: a contentless wrapper, either direction
 */
import { closedBlock } from './body-units.js';
import { callBlock } from './call-block.js';
import type { LessThanEntry } from './compile.js';
import type { ScanState } from './state.js';
import type { Unit } from './types.js';

export function tagEntry(state: Readonly<ScanState>, entry: LessThanEntry): Unit | null {
  const { source, cursor } = state;
  switch (entry.branch) {
    case 'call':
      return source.startsWith(entry.forms.open, cursor) ? callBlock(state, entry.forms) : null;
    case 'block': {
      const { open, close, tag } = entry.forms;
      if (!source.startsWith(open, cursor)) return null;
      const bodyStart = cursor + open.length;
      // First occurrence, unaware of strings and not bounded by call openers (E39).
      const closeAt = state.next.find(close, bodyStart);
      return closeAt === -1 ? null : closedBlock(source, cursor, closeAt + close.length, tag, bodyStart, closeAt);
    }
    case 'markup': {
      const { opener, close } = entry;
      if (!source.startsWith(opener, cursor)) return null;
      // The close is searched from the cursor, unbounded (E73); without one the unit stops at
      // the next line-leading call opener like an unclosed call (E72).
      const closeAt = state.next.find(close, cursor);
      let end: number;
      if (closeAt !== -1) end = closeAt + close.length;
      else {
        const bound = state.walker.findOpenerAfter(cursor + opener.length, state.vocab.callTagBounds);
        end = bound === -1 ? state.length : bound;
      }
      return { kind: 'markup', start: cursor, end, opener, text: source.slice(cursor, end) };
    }
    case 'stray_close':
      return source.startsWith(entry.needle, cursor)
        ? { kind: 'stray_close', start: cursor, end: cursor + entry.needle.length, tag: entry.forms.tag }
        : null;
    case 'wrapper':
      return source.startsWith(entry.needle, cursor)
        ? { kind: 'wrapper', start: cursor, end: cursor + entry.needle.length, tag: entry.forms.tag }
        : null;
  }
}
