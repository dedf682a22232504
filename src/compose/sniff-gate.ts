/**
 * perf: an exact pre-test for the stray sniffer. Text that fails it cannot yield a call or an
 * error, so the walk does not sniff it (most stray prose and fenced code in a long turn).
 *
 * Why it is exact. Every report of the line walk stands on a name directly followed by `(` or
 * `{` (`name(`, `name{`, `label: name(`), the name at a line start: after nothing but blanks,
 * one `<` and one label (each label ends with its own last character, `:`), from the start of
 * the text, a newline, CR or FF, or the inside of a code wrapper (after a backtick or blanks).
 * Every native payload stands on a `{` whose next non-blank character is `"`, and every pythonic
 * list on a `[` after a blank, a dotted name and its `(`. The sniffer's own
 * edits only delete pieces that end with `>` (thinking markers and blocks) or turn wrapper tags
 * (which start with `<` and end with `>`) into newlines, and its unwrapping only takes a slice.
 * So, read in the text as given, going back from each bracket:
 *
 *     \n  < load(a0)          name, blanks, `<`, blanks, newline: may be a call
 *     x<think>y</think>({    `>` before the bracket or name: an edit may have moved it
 *     { "path"   {<tool_call>"  `{` whose next non-blank is `"` or `<`: may be a payload
 *     if (a0 < b0) { return load(a0); }   `(` after a blank; `load` after `return `: nothing
 */
import { DIALECTS } from '../dialects/vocabulary.js';
import { Code, isUnicodeWhitespace } from '../lex/codes.js';
import { isIdentPart } from '../lex/ident.js';

/** The last character of every allowlisted line label (all `:` today). */
const LABEL_ENDS: ReadonlySet<number> = new Set(DIALECTS.BARE_CALL_LINE_PREFIXES.map((label) => label.charCodeAt(label.length - 1)));

/** JSON whitespace, as the native-payload pre-test skips it. */
function isJsonBlank(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.CarriageReturn;
}

function skipBlanksBack(text: string, at: number): number {
  while (at > 0 && (text.charCodeAt(at - 1) === Code.Space || text.charCodeAt(at - 1) === Code.Tab)) at--;
  return at;
}

/** Whether the character before `at` may end what stands before a line-start name. */
function mayLeadName(text: string, at: number): boolean {
  if (at === 0) return true;
  const code = text.charCodeAt(at - 1);
  return isUnicodeWhitespace(code) || code === Code.Backtick || code === Code.GreaterThan || LABEL_ENDS.has(code);
}

/**
 * Whether the bracket at `at` may close a line-start name, or follow an edited-out piece.
 *
 *     \n < load(
 *     ^ lead ^ nameAt
 *                ^ at
 */
function mayCloseName(text: string, at: number): boolean {
  let nameAt = at;
  while (nameAt > 0 && isIdentPart(text.charCodeAt(nameAt - 1))) nameAt--;
  if (nameAt === at) return text.charCodeAt(at - 1) === Code.GreaterThan;
  let lead = skipBlanksBack(text, nameAt);
  if (mayLeadName(text, lead)) return true;
  if (text.charCodeAt(lead - 1) !== Code.LessThan) return false;
  lead = skipBlanksBack(text, lead - 1);
  return mayLeadName(text, lead);
}

/**
 * Whether the `(` at `at` may open the first call of a pythonic list after a blank (the
 * gateway's pythonic look-alike, `Sure: [get_weather(city='Paris')]`).
 *
 *     Sure: [ get_weather(
 *          ^ blank  ^ nameAt
 */
function mayOpenListCall(text: string, at: number): boolean {
  let nameAt = at;
  while (nameAt > 0 && (isIdentPart(text.charCodeAt(nameAt - 1)) || text.charCodeAt(nameAt - 1) === Code.Dot)) nameAt--;
  if (nameAt === at) return false;
  let bracket = nameAt;
  while (bracket > 0 && isJsonBlank(text.charCodeAt(bracket - 1))) bracket--;
  if (bracket === 0 || text.charCodeAt(bracket - 1) !== Code.LeftBracket) return false;
  return bracket === 1 || isJsonBlank(text.charCodeAt(bracket - 2));
}

/** False only when sniffing `text` is certain to find no call and no error. */
export function maySniffCall(text: string): boolean {
  for (let at = text.indexOf('('); at >= 0; at = text.indexOf('(', at + 1)) {
    if (mayCloseName(text, at) || mayOpenListCall(text, at)) return true;
  }
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) {
    if (mayCloseName(text, at)) return true;
    //   {  \n "path"
    //   ^ at  ^ next
    let next = at + 1;
    while (isJsonBlank(text.charCodeAt(next))) next++;
    const code = text.charCodeAt(next);
    if (code === Code.Quote || code === Code.LessThan) return true;
  }
  return false;
}
