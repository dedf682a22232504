/**
 * Units that run to the end of their line: branch 5 (`fenced_line`) and branch 13 (`tag`).
 */
import { Code, isUnicodeWhitespace } from '../lex/codes.js';
import { identLength } from '../lex/ident.js';
import type { ScanState } from './state.js';
import type { FencedLineUnit, TagUnit } from './types.js';

/**
 * The LF ending the line that holds `at`, or the source length. Asked through the scan's
 * forward-search memo: several units on one line get the answer of the first search.
 */
function lineEndAt(state: Readonly<ScanState>, at: number): number {
  const newline = state.next.find('\n', at);
  return newline === -1 ? state.length : newline;
}

/**
 * Branch 5: a `<` that is inside a ``` fence, or neither line-leading nor adjacent to the
 * previous block, is narration: one `fenced_line` to the end of the line (LF excluded).
 *
 *     See <tool_call>look({})</tool_call> here
 *         ^ cursor: prose before it on the line, so the rest of the line is one unit
 */
export function fencedLine(state: Readonly<ScanState>, adjacentToBlock: boolean): FencedLineUnit | null {
  const { source, cursor: start, index } = state;
  const fenced = index.insideFence(start);
  if (!fenced && (adjacentToBlock || index.isLineLeading(start))) return null;
  const end = lineEndAt(state, start);
  return { kind: 'fenced_line', start, end, text: source.slice(start, end) };
}

/**
 * Branch 13: whatever else starts with `<`, through the first `>` or to the end of the line.
 * The name drops every leading `<` and one `/`: `<<EOF` names `EOF`, `</notes>` names `notes`.
 */
export function tagFragment(state: Readonly<ScanState>): TagUnit {
  const { source, cursor: start } = state;
  const lineEnd = lineEndAt(state, start);
  const gt = state.next.find('>', start + 1);
  const end = gt !== -1 && gt < lineEnd ? gt + 1 : lineEnd;
  let at = start;
  while (at < end && isUnicodeWhitespace(source.charCodeAt(at))) at++;
  while (at < end && source.charCodeAt(at) === Code.LessThan) at++;
  if (at < end && source.charCodeAt(at) === Code.Slash) at++;
  const nameLength = Math.min(identLength(source, at), end - at);
  return { kind: 'tag', start, end, raw: source.slice(start, end), name: source.slice(at, at + nameLength) };
}
