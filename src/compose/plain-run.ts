/**
 * The plain run of a gateway rest piece: its leading lines that no rule of the tagged lane can
 * read as anything but prose. Under `gateway` a rest piece is read as that run (its prose, the
 * run trimmed) followed by the rest of the piece read by the tagged lane on its own
 * (`splitPlainRun` in tagged-lane.ts).
 *
 * Why: the tagged lane decides a piece's prose over the whole piece (a later `<user_response>`
 * replaces the text before it, a later unknown tag with no call blanks it). A plain line cannot
 * start anything and no later text reaches back into it, so reading it on its own lets a stream
 * release an answer's lines as they arrive (src/compose/stream/plain-lines.ts), and a gateway
 * keeps the answer's first lines when a stray tag follows them.
 *
 * A line is plain when it holds none of the tagged lane's marker characters (so the whole run is
 * one text unit: plain-piece.ts), no `{`, backtick or `~` (no native payload or fence a later
 * line could complete), no name the stray sniffer could read as a call (`maySniffCall`, which
 * looks back only within the line) and no protocol fragment (`foo_CALL>`). Both checks are line
 * local, so a run's lines are plain together exactly when each is plain alone.
 */
import { Code } from '../lex/codes.js';
import { maySniffCall } from './sniff-gate.js';
import { hasResponseProtocolFragment } from './stray.js';

/** Tests one line (its break excluded or not) for plainness. */
export type PlainLineTest = (line: string) => boolean;

/** The plain-line test for a lane whose marker characters are `starts` (from `markerStarts`). */
export function plainLineTest(starts: readonly string[]): PlainLineTest {
  // perf: ASCII breakers in a table, others (none today) in a set.
  const ascii = new Uint8Array(128);
  const other = new Set<number>();
  for (const code of [Code.LeftBrace, Code.Backtick, Code.Tilde, ...starts.map((s) => s.charCodeAt(0))]) {
    if (code < 128) ascii[code] = 1;
    else other.add(code);
  }
  return (line) => {
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      if (code < 128 ? ascii[code] === 1 : other.size > 0 && other.has(code)) return false;
    }
    // The walk sniffs its text trimmed, so a line's own leading blanks (a BOM, a no-break space)
    // may stand at the text's start there: the gate is asked of the line without them too.
    if (maySniffCall(line) || hasResponseProtocolFragment(line)) return false;
    const trimmed = line.trimStart();
    return trimmed === line || !maySniffCall(trimmed);
  };
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
