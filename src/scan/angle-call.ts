/**
 * Branch 9: an angle-wrapped call of a known tool, `<look({ path: "a.rs" })>` (docs/design.md, "Scan steps"). The extent depends on the arguments, so the scanner parses them.
 *
 *     <look({ path: "a.rs" })>
 *     ^ cursor               ^ optional `>`; spaces and tabs before it belong to the unit
 */
import { Code } from '../lex/codes.js';
import { parseCallExprAt } from '../lex/call-expr.js';
import { identLength } from '../lex/ident.js';
import type { ScanState } from './state.js';
import type { AngleCallUnit } from './types.js';

/**
 * Characters the parses' unshared searches may read, per character of source (plus a slack),
 * before the branch stops parsing. The scan memo shares what failed parses establish (string
 * recoveries, comment closes, heredoc closes), but a search it does not share (a template
 * interpolation) is read again by every attempt, so thousands of `<look({ a: `${x` lines
 * would be quadratic. Past the allowance the remaining angle calls fall through to the tag
 * branch, as every failed parse does.
 */
const UNSHARED_READS_PER_CHAR = 16;
const UNSHARED_READS_SLACK = 1 << 18;

export function angleCall(state: Readonly<ScanState>): AngleCallUnit | null {
  const { source, length, cursor: start, vocab, callMemo } = state;
  const nameStart = start + 1;
  const nameLength = identLength(source, nameStart);
  if (nameLength === 0 || source.charCodeAt(nameStart + nameLength) !== Code.LeftParen) return null;
  const name = source.slice(nameStart, nameStart + nameLength);
  if (!vocab.knownTools.has(name)) return null;
  if (callMemo.unsharedReads > UNSHARED_READS_PER_CHAR * length + UNSHARED_READS_SLACK) return null;
  // Parsed in place with the scan's memo: a line of `<look({ a: "x` per line would otherwise
  // make every attempt search to the end of the text for the same missing close.
  const parsed = parseCallExprAt(source, nameStart, name, callMemo);
  if (!parsed.ok) return null;
  let end = nameStart + parsed.consumed;
  while (end < length) {
    const code = source.charCodeAt(end);
    if (code !== Code.Space && code !== Code.Tab) break;
    end++;
  }
  if (source.charCodeAt(end) === Code.GreaterThan) end++;
  if (state.stats) state.stats.work += end - start;
  return { kind: 'angle_call', start, end, name, arguments: parsed.arguments };
}
