/**
 * perf: an exact pre-test for the stray sniffer. Text that fails it cannot yield a call or an
 * error, so the walk does not sniff it (most stray prose and fenced code in a long turn).
 *
 * Why it is exact. Every report of the line walk stands on an identifier directly followed by
 * `(` or `{` (`name(`, `name{`, `label: name(`); every native payload on a `{` whose next
 * non-blank character is `"`. The sniffer's own edits only delete pieces that end with `>`
 * (thinking markers and blocks) or turn wrapper tags (which start with `<`) into newlines, and
 * its unwrapping only takes a slice. So in the text as given:
 *
 *     load(a0)        `(` after an identifier character: may be a call
 *     x<think>y</think>({   `(` after `>`: an edit may join it to a name
 *     { "path"   {<tool_call>"    `{` whose next non-blank is `"` or `<`: may be a payload
 *     if (a0 < b0) { return      none of these: nothing to find
 */
import { Code } from '../lex/codes.js';
import { isIdentPart } from '../lex/ident.js';

/** JSON whitespace, as the native-payload pre-test skips it. */
function isJsonBlank(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.CarriageReturn;
}

function joinsName(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  return isIdentPart(before) || before === Code.GreaterThan;
}

/** False only when sniffing `text` is certain to find no call and no error. */
export function maySniffCall(text: string): boolean {
  for (let at = text.indexOf('('); at >= 0; at = text.indexOf('(', at + 1)) {
    if (joinsName(text, at)) return true;
  }
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) {
    if (joinsName(text, at)) return true;
    //   {  \n "path"
    //   ^ at  ^ next
    let next = at + 1;
    while (isJsonBlank(text.charCodeAt(next))) next++;
    const code = text.charCodeAt(next);
    if (code === Code.Quote || code === Code.LessThan) return true;
  }
  return false;
}
