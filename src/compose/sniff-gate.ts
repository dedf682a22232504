/**
 * perf: an exact pre-test for the stray sniffer. Text that fails it cannot yield a call or an
 * error, so the walk does not sniff it (most stray prose and fenced code in a long turn).
 *
 * Why it is exact. Every report of the line walk stands on a name directly followed by `(` or
 * `{` (`name(`, `name{`, `label: name(`), the name at a line start: after nothing but blanks,
 * one `<` and one label (each label ends with its own last character, `:`), from the start of
 * the text, a newline, CR or FF, or the inside of a code wrapper (after a backtick or blanks).
 * Every native payload stands on a `{` whose next non-blank character is `"`, every pythonic
 * list on a `[` after a blank, a dotted name and its `(`, and every sandbox call (Gemini's
 * `print(default_api.NAME(`) on a name's `(` after `print(` or a namespace, at a line start. The sniffer's own
 * edits only delete pieces that end with `>` (thinking markers and blocks) or turn wrapper tags
 * (which start with `<` and end with `>`) into newlines, and its unwrapping only takes a slice.
 * So, read in the text as given, going back from each bracket:
 *
 *     \n  < load(a0)          name, blanks, `<`, blanks, newline: may be a call
 *     x<think>y</think>({    `>` before the bracket or name: an edit may have moved it
 *     { "path"   {<tool_call>"  `{` whose next non-blank is `"` or `<`: may be a payload
 *     if (a0 < b0) { return load(a0); }   `(` after a blank; `load` after `return `: nothing
 */
import { FIELD_NAMESPACE_PREFIXES, SANDBOX_PRINT_OPEN } from '../dialects/field/names.js';
import { DIALECTS } from '../dialects/vocabulary.js';
import { Code, isUnicodeWhitespace, skipBlanksBack } from '../lex/codes.js';
import { isIdentPart } from '../lex/ident.js';
import { afterCodeLead } from './sniff/code-lead.js';
import { JsonReader } from './sniff/json-values.js';
import { idleMeter } from './sniff/meter.js';

/** The last character of every allowlisted line label (all `:` today). */
const LABEL_ENDS: ReadonlySet<number> = new Set(DIALECTS.BARE_CALL_LINE_PREFIXES.map((label) => label.charCodeAt(label.length - 1)));

/** JSON whitespace, as the native-payload pre-test skips it. */
function isJsonBlank(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.CarriageReturn;
}

/**
 * Whether the character before `at` may end what stands before a line-start name. A BOM is not
 * Unicode whitespace, but the walk's texts are trimmed the JavaScript way, which removes it, so a
 * name after one may stand at a text's start there.
 */
function mayLeadName(text: string, at: number): boolean {
  if (at === 0) return true;
  const code = text.charCodeAt(at - 1);
  return isUnicodeWhitespace(code) || code === Code.ByteOrderMark || code === Code.Backtick || code === Code.GreaterThan || LABEL_ENDS.has(code);
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
  // A `>` before the `[` may end a wrapper tag the sniffer turns into a line break.
  const before = text.charCodeAt(bracket - 2);
  return isJsonBlank(before) || before === Code.GreaterThan || onlyBlanksBefore(text, bracket - 1);
}

/**
 * Whether nothing but blanks the walk's trim removes (a no-break space, a BOM) stands before
 * `at`: there the walk reads the text from `at`.
 */
function onlyBlanksBefore(text: string, at: number): boolean {
  while (at > 0 && (isUnicodeWhitespace(text.charCodeAt(at - 1)) || text.charCodeAt(at - 1) === Code.ByteOrderMark)) at--;
  return at === 0;
}

/** The name (identifier characters) that ends just before `at`, or ''. */
/**
 * Whether the `(` at `at` follows a registered name written as Gemini's code sandbox writes a
 * call (`print(default_api.NAME(`, `default_api.NAME(`, `print(NAME(`) at a line start: the
 * sniffer reads those lines (line-scan.ts `sandboxCall`). With `names` null, any name.
 */
function sandboxLed(text: string, at: number, names: ReadonlySet<string> | null): boolean {
  let lead = at;
  while (lead > 0 && isIdentPart(text.charCodeAt(lead - 1))) lead--;
  // perf: only a `.` (a namespace's) or a `(` (print's) may stand right before such a name.
  const before = text.charCodeAt(lead - 1);
  if (lead === at || (before !== Code.Dot && before !== Code.LeftParen)) return false;
  if (names !== null && !names.has(text.slice(lead, at))) return false;
  const prefix = FIELD_NAMESPACE_PREFIXES.find((candidate) => text.endsWith(candidate, lead));
  if (prefix !== undefined) lead -= prefix.length;
  const printed = text.endsWith(SANDBOX_PRINT_OPEN, lead);
  if (printed) lead -= SANDBOX_PRINT_OPEN.length;
  return (printed || prefix !== undefined) && mayLeadName(text, skipBlanksBack(text, lead));
}

function nameBefore(text: string, at: number, dotted: boolean): string {
  let nameAt = at;
  while (nameAt > 0 && (isIdentPart(text.charCodeAt(nameAt - 1)) || (dotted && text.charCodeAt(nameAt - 1) === Code.Dot))) nameAt--;
  return text.slice(nameAt, at);
}

/**
 * Whether a `>` leads the name at `nameAt` (through blanks and one `<`): a tag's edit may join
 * it to a name before the tag, or a tag pair may wrap a call body across lines.
 *
 *     <b>print(x)\nlook</b>
 *       ^ `>` leads `print`
 */
function ledByTag(text: string, nameAt: number): boolean {
  let lead = skipBlanksBack(text, nameAt);
  if (text.charCodeAt(lead - 1) === Code.LessThan) lead = skipBlanksBack(text, lead - 1);
  return text.charCodeAt(lead - 1) === Code.GreaterThan;
}

/** Whether a `{` comes after the spaces and tabs at `at`: a line call's object argument. */
function objectArgumentAt(text: string, at: number): boolean {
  while (text.charCodeAt(at) === Code.Space || text.charCodeAt(at) === Code.Tab) at++;
  return text.charCodeAt(at) === Code.LeftBrace;
}

/**
 * `maySniffCall` for the gateway's sniffer, which knows `names` (the registered names; null: no
 * registry) and folds no alias. False only when sniffing `text` with them is certain to find no
 * call and no error. What the names rule out, at the brackets `maySniffCall` finds:
 *
 *     print(x)          an unregistered name without an object argument: prose (line-scan.ts)
 *     frob{ a: 1 }      an unregistered name before a brace: prose
 *     Sure: [frob(a=1)]  a list is calls only when every name in it is registered (pythonic.ts)
 *     frob({ a: 1 })    an unregistered name with an object argument: an "Unknown tool" error,
 *                       but with no registry the gateway's sniffer reads no line call at all
 *     [frob(a=1)]       with no registry, a list alone in the text is calls whatever its names
 *
 * A bracket after a `>` keeps its answer (an edit may join a name across a tag), and so does
 * every native payload's `{` (its names may stand on later lines).
 */
export function maySniffCallAmong(text: string, names: ReadonlySet<string> | null): boolean {
  for (let at = text.indexOf('('); at >= 0; at = text.indexOf('(', at + 1)) {
    if (mayCloseName(text, at)) {
      const name = nameBefore(text, at, false);
      if (name === '' || ledByTag(text, at - name.length)) return true;
      if (names !== null && (names.has(name) || objectArgumentAt(text, at + 1))) return true;
    }
    if (mayOpenListCall(text, at) && (names === null ? listOpensText(text, at) : names.has(nameBefore(text, at, true)))) return true;
    if (names !== null && sandboxLed(text, at, names)) return true;
  }
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) {
    if (mayCloseName(text, at)) {
      const name = nameBefore(text, at, false);
      if (name === '' || ledByTag(text, at - name.length) || (names !== null && names.has(name))) return true;
    }
    if (!opensPayload(text, at)) continue;
    if (!afterCodeLead(text, at)) return true;
    at = codeValueEnd(text, at) - 1;
  }
  return false;
}

/**
 * Where the search resumes after a `{` that follows a code lead. The native-JSON search steps
 * over the value there whole when it parses; when it does not, the brackets inside it are tried
 * on their own. A value with a `<` or `>` in it may read otherwise once the sniffer's edits
 * have run, so only the `{` itself is passed over then.
 */
function codeValueEnd(text: string, at: number): number {
  const read = new JsonReader(text, idleMeter()).container(at);
  if (!read.ok) return at + 1;
  const value = text.slice(at, read.end);
  return value.indexOf('<') < 0 && value.indexOf('>') < 0 ? read.end : at + 1;
}

/**
 * Whether only blanks stand before the `[` of the list whose first `(` is at `at`: with no
 * registry the gateway reads a text that is one whole list of calls, whatever its names.
 *
 *     \t [ frob(
 *        ^ bracket
 */
function listOpensText(text: string, at: number): boolean {
  return onlyBlanksBefore(text, text.lastIndexOf('[', at));
}

/** Whether the `{` at `at` may open a native payload: its next non-blank character is `"` (or `<`, an edit away from one). */
function opensPayload(text: string, at: number): boolean {
  //   {  \n "path"
  //   ^ at  ^ next
  let next = at + 1;
  while (isJsonBlank(text.charCodeAt(next))) next++;
  const code = text.charCodeAt(next);
  return code === Code.Quote || code === Code.LessThan;
}

/** False only when sniffing `text` is certain to find no call and no error. */
export function maySniffCall(text: string): boolean {
  for (let at = text.indexOf('('); at >= 0; at = text.indexOf('(', at + 1)) {
    if (mayCloseName(text, at) || mayOpenListCall(text, at) || sandboxLed(text, at, null)) return true;
  }
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) {
    if (mayCloseName(text, at) || opensPayload(text, at)) return true;
  }
  return false;
}
