/**
 * Inline code that quotes markup. A sentence about a grammar writes its tags as inline code
 * (`` Use the `<tool_call>` tag. ``); such a span is a mention, never markup, when it opens
 * after its line's first non-blank character (a line written wholly as one span is read as its
 * inner text by the stray sniffer). The gateway's plain-line rule and its drop-ledger check
 * read a line with those spans masked.
 */
import { Code } from './codes.js';

/**
 * `line` (no line break) with the text of each inline code span that opens after the line's
 * first non-blank character with one backtick, begins with `<` and quotes tags only
 * (`quotesTagsOnly`) masked by `_`. Spans pair as Markdown pairs them (a run of one or two
 * backticks closed by a run of the same length on the line). `line` itself when there is none.
 */
export function withoutAngledInlineCode(line: string): string {
  const lead = line.length - line.trimStart().length;
  let out = '';
  let copied = 0;
  let angle = line.indexOf('<');
  let at = line.indexOf('`', lead);
  while (at >= 0) {
    let run = at;
    while (line.charCodeAt(run) === Code.Backtick) run++;
    const width = run - at;
    if (width > 2) {
      at = line.indexOf('`', run);
      continue;
    }
    let close = line.indexOf('`', run);
    let closeEnd = -1;
    while (close >= 0) {
      closeEnd = close;
      while (line.charCodeAt(closeEnd) === Code.Backtick) closeEnd++;
      if (closeEnd - close === width) break;
      close = line.indexOf('`', closeEnd);
    }
    if (close < 0) break;
    // perf: the next `<` is looked for again only once a span passes it, so a line costs one pass.
    if (angle >= 0 && angle < run) angle = line.indexOf('<', run);
    if (angle < 0) break;
    // A single backtick, as the field lane requires before an opener it passes by.
    if (at > lead && width === 1 && angle === run && quotesTagsOnly(line, run, close)) {
      out += line.slice(copied, run) + '_'.repeat(close - run);
      copied = close;
    }
    at = line.indexOf('`', closeEnd);
  }
  return copied === 0 ? line : out + line.slice(copied);
}

/**
 * Whether line[from, to), a span's text that opens with `<`, quotes tags only as the field lane
 * passes them by (an opener right after the span's backtick, lane.ts `inlineCodeMention`): its
 * first `<` opens no `<|` frame or `<<` heredoc (the reference's walk reads those wherever they
 * stand), every later `<` is a close (`</…`), and no `[`, `{` or `(` stands in it, where another
 * grammar's opener or a call's body could begin.
 */
function quotesTagsOnly(line: string, from: number, to: number): boolean {
  const second = line.charCodeAt(from + 1);
  if (second === Code.Pipe || second === Code.LessThan) return false;
  for (let i = from + 1; i < to; i++) {
    const code = line.charCodeAt(i);
    if (code === Code.LeftBracket || code === Code.LeftBrace || code === Code.LeftParen) return false;
    if (code === Code.LessThan && line.charCodeAt(i + 1) !== Code.Slash) return false;
  }
  return true;
}

/** `text` with `withoutAngledInlineCode` applied to each of its lines; `text` itself when nothing is masked. */
export function withoutAngledInlineCodeLines(text: string): string {
  if (text.indexOf('`') < 0 || text.indexOf('<') < 0) return text;
  let out = '';
  let changed = false;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    const masked = line.indexOf('`') >= 0 && line.indexOf('<') >= 0 ? withoutAngledInlineCode(line) : line;
    if (masked !== line) changed = true;
    out += end < text.length ? masked + '\n' : masked;
    start = end + 1;
  }
  return changed ? out : text;
}
