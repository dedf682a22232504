/**
 * The plain run of a gateway rest piece: its leading lines that no rule of the tagged lane can
 * read as anything but prose. Under `gateway` a rest piece is read as that run (its prose, the
 * run trimmed) followed by the rest of the piece read by the tagged lane on its own
 * (`gatewayRestLane` in tagged-lane.ts).
 *
 * Why: the tagged lane decides a piece's prose over the whole piece (a later `<user_response>`
 * replaces the text before it, a later unknown tag with no call blanks it). A plain line cannot
 * start anything and no later text reaches back into it, so reading it on its own lets a stream
 * release an answer's lines as they arrive (src/compose/stream/plain-lines.ts), and a gateway
 * keeps the answer's first lines when a stray tag follows them.
 *
 * A line is plain when the tagged lane can only read it as text, looked at line by line:
 *   - no `<` (every scan branch starts there) and no other marker of the lane (`[TOOL_CALLS]`,
 *     `[[CALL]`: a lone `[`, as in a Markdown link, starts none);
 *   - no fence marker (```` ``` ````, `~~~`: a fence line pairs with a later one, and a canonical
 *     `tool` fence is held); a lone backtick (inline code) or `~` is text;
 *   - no `{` with only blanks after it to the line's end (a native payload's `"` may come on a
 *     later line); a `{` with `"` or `<` next on the line is the sniffer's, below;
 *   - no name the stray sniffer could read as a call (`maySniffCall`, which looks back only
 *     within the line; a name in inline code mid-line is a mention) and no protocol fragment
 *     (`foo_CALL>`).
 * No marker or fence marker holds a line break, so a run's lines
 * are plain together exactly when each is plain alone.
 */
import { Code } from '../lex/codes.js';
import { maySniffCall } from './sniff-gate.js';
import { hasResponseProtocolFragment } from './stray.js';

/** Tests one line (its break excluded or not) for plainness. */
export type PlainLineTest = (line: string) => boolean;

/** What a character may start, for the plain-line test. */
const enum Breaks {
  Never = 0,
  /** `<`: the line is not plain. */
  Always = 1,
  /** A backtick or `~`: a fence marker when three of it stand in a row. */
  Fence = 2,
  /** `{`: a native payload's opening when only blanks follow it on the line. */
  Brace = 3,
  /** The first character of a marker of the lane. */
  Marker = 4,
}

function startsAny(line: string, at: number, markers: readonly string[]): boolean {
  for (const marker of markers) if (line.startsWith(marker, at)) return true;
  return false;
}

/** Whether nothing but JSON blanks follows `at` on `line`. */
function blankToEnd(line: string, at: number): boolean {
  for (; at < line.length; at++) {
    const code = line.charCodeAt(at);
    if (code !== Code.Space && code !== Code.Tab && code !== Code.CarriageReturn && code !== Code.LineFeed) return false;
  }
  return true;
}

/** The plain-line test for a lane whose markers are `markers` (from `laneMarkers`). */
export function plainLineTest(markers: readonly string[]): PlainLineTest {
  // perf: what each ASCII character may start, in a table; markers starting beyond ASCII (none
  // today) in a map.
  const ascii = new Uint8Array(128);
  ascii[Code.LessThan] = Breaks.Always;
  ascii[Code.Backtick] = Breaks.Fence;
  ascii[Code.Tilde] = Breaks.Fence;
  ascii[Code.LeftBrace] = Breaks.Brace;
  const byFirst = new Map<number, string[]>();
  for (const marker of markers) {
    const code = marker.charCodeAt(0);
    if (code === Code.LessThan) continue;
    if (code < 128) ascii[code] = Breaks.Marker;
    byFirst.set(code, [...(byFirst.get(code) ?? []), marker]);
  }
  return (line) => {
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      const breaks = code < 128 ? ascii[code] : byFirst.has(code) ? Breaks.Marker : Breaks.Never;
      if (breaks === Breaks.Never) continue;
      if (breaks === Breaks.Always) return false;
      if (breaks === Breaks.Fence) {
        if (line.charCodeAt(i + 1) === code && line.charCodeAt(i + 2) === code) return false;
      } else if (breaks === Breaks.Brace) {
        if (blankToEnd(line, i + 1)) return false;
      } else if (startsAny(line, i, byFirst.get(code)!)) return false;
    }
    if (hasResponseProtocolFragment(line)) return false;
    const probe = withoutInlineTicks(line);
    if (maySniffCall(probe)) return false;
    // The walk sniffs its text trimmed, so a line's own leading blanks (a BOM, a no-break space)
    // may stand at the text's start there: the gate is asked of the line without them too.
    const trimmed = probe.trimStart();
    return trimmed === probe || !maySniffCall(trimmed);
  };
}

/**
 * `line` with every backtick after its first non-blank character masked, for the sniff gate.
 * The gate lets a backtick lead a name because the sniffer unwraps a text written as one
 * `` `…` `` span, whose inner first line starts after the opening backtick; any other backtick
 * only opens inline code, whose names are mentions. Masked with `#`, which leads no name.
 */
function withoutInlineTicks(line: string): string {
  const lead = line.length - line.trimStart().length;
  if (line.indexOf('`', lead + 1) < 0) return line;
  return line.slice(0, lead + 1) + line.slice(lead + 1).replaceAll('`', '#');
}

/**
 * Where the plain run of `text` ends: after the last line break of its leading plain lines, or
 * `text.length` when every line is plain (the last one unterminated included).
 */
export function plainRunEnd(text: string, plain: PlainLineTest): number {
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    if (!plain(text.slice(at, end))) return at;
    at = end;
  }
  return text.length;
}
