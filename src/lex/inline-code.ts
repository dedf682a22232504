/**
 * Markup quoted in prose. A sentence about a grammar writes its tags as inline code
 * (`` Use the `<tool_call>` tag. ``); such a span is a mention, never markup, when it opens
 * after its line's first non-blank character (a line written wholly as one span is read as its
 * inner text by the stray sniffer). A closing tag named bare between words (`Close it with
 * </tool_call> when done.`) is one too: a leaked close stands glued to the text or ends its
 * line. The gateway's plain-line rule and its drop-ledger check read a line with those
 * mentions masked (`withoutQuotedMarkup`).
 */
import { LOOKALIKE } from '../dialects/field/look-alikes.js';
import { Code, endsTrimmedLineAt, isAsciiDigit, isAsciiLetter, isUnicodeWhitespace, skipBlanks, startsWithAny } from './codes.js';

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
    const close = closingRun(line, run, width, line.length);
    if (close < 0) break;
    const closeEnd = close + width;
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
 * Whether line[from, to), a span's text that opens with `<`, quotes tags only, as the field lane
 * passes such a span by (an opener right after the span's backtick, lane.ts `inlineCodeMention`,
 * skips every opener up to the span's close): every `<` in it begins a tag, a close or one of
 * DeepSeek's `<｜…｜>` tokens, never a `<|` frame or `<<` heredoc (the reference's walk reads
 * those wherever they stand), and no `[` or `(` stands in it, where another grammar's opener or
 * a bare call could begin. So a whole call written as inline code mid-line
 * (`` `<function=f><parameter=k>v</parameter></function>` ``) is quoted. A `{` stands only in a
 * whole pair, the span ending with a close tag written after it: a JSON body quoted between a
 * tag and its close (`` `<tool_call>{"name": …}</tool_call>` ``; a look-alike in inline code
 * mid-line is no call).
 */
export function quotesTagsOnly(line: string, from: number, to: number): boolean {
  let brace = -1;
  let lastClose = -1;
  for (let i = from; i < to; i++) {
    const code = line.charCodeAt(i);
    if (code === Code.LeftBracket || code === Code.LeftParen) return false;
    if (code === Code.LeftBrace && brace < 0) brace = i;
    if (code === Code.LessThan) {
      const next = line.charCodeAt(i + 1);
      if (next === Code.Slash) lastClose = i;
      else if (!isAsciiLetter(next) && !(next > 0x7f && !isUnicodeWhitespace(next))) return false;
    }
  }
  // A `{` only inside a whole pair: the span ends with a close tag written after it.
  return brace < 0 || (lastClose > brace && line.charCodeAt(to - 1) === Code.GreaterThan && line.indexOf('>', lastClose) === to - 1);
}

/** What may stand just before a closing tag named in a sentence, after a blank: an opening quote or bracket. */
const CLOSE_LEADERS: ReadonlySet<number> = new Set([Code.Quote, Code.Apostrophe, Code.LeftParen, 0x201c, 0x2018]);
/** What may follow one: a blank, a closing quote or bracket, a stop. */
const CLOSE_FOLLOWERS: ReadonlySet<number> = new Set([Code.Space, Code.Tab, Code.Quote, Code.Apostrophe, Code.RightParen, Code.RightBracket, 0x2e, 0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0x2a, 0x201d, 0x2019]);
/** A tag name is this long at most. */
const MAX_TAG_NAME = 64;

/**
 * `line` with each closing tag named between words masked by `_`: `</name>` after a blank (or a
 * blank and an opening quote) that follows a word on the line, followed by a blank, a closing
 * quote or bracket, or a stop, with more than blanks after it. `line` itself when there is none.
 */
export function withoutMentionedCloses(line: string): string {
  const lead = line.length - line.trimStart().length;
  let out = '';
  let copied = 0;
  for (let at = line.indexOf('</'); at >= 0; at = line.indexOf('</', at + 2)) {
    const nameAt = at + 2;
    if (!namedAfterWord(line, at, lead) || !isAsciiLetter(line.charCodeAt(nameAt))) continue;
    const end = tagNameEnd(line, nameAt);
    if (line.charCodeAt(end) !== Code.GreaterThan) continue;
    const after = end + 1;
    // The readers trim what they are given, so a no-break space or a BOM after the close leaves
    // it ending the text as much as a space does: only a non-blank after it makes a sentence.
    if (!CLOSE_FOLLOWERS.has(line.charCodeAt(after)) || endsTrimmedLineAt(line, after)) continue;
    out += line.slice(copied, at) + '_'.repeat(after - at);
    copied = after;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

/**
 * Whether the tag at `at` stands after a blank (or a blank and an opening quote or bracket) that
 * follows a word on the line (`lead`: where the line's first non-blank character is).
 */
function namedAfterWord(line: string, at: number, lead: number): boolean {
  let before = at - 1;
  if (CLOSE_LEADERS.has(line.charCodeAt(before))) before--;
  const blank = line.charCodeAt(before);
  return (blank === Code.Space || blank === Code.Tab) && before > lead;
}

/** Past the name characters of a tag name whose first letter is at `nameAt`, at most `MAX_TAG_NAME` more. */
function tagNameEnd(line: string, nameAt: number): number {
  let end = nameAt + 1;
  while (end - nameAt <= MAX_TAG_NAME && isNamePart(line.charCodeAt(end))) end++;
  return end;
}

/** The longest attributes an open tag named in a sentence may hold (`<invoke name="get_weather">`). */
const MAX_MENTIONED_ATTRIBUTES = 128;

/**
 * `line` with each opening tag named between words masked by `_`: `<name…>` (a letter after the
 * `<`, then attributes with no `<` up to a `>` on the line) after a blank (or a blank and an
 * opening quote or bracket) that follows a word on the line, followed by a blank, a closing
 * quote or bracket, or a stop and then a word, with no close of its own (`</name>`) later on the
 * line: `The GLM format uses <arg_key> and <arg_value> tags.`, `MiniMax writes <invoke
 * name="get_weather"> inside its block.` A tag that opens a call or a body is followed by a
 * line break, a body (`{`, `[`) or another tag, or is closed on its line. `line` itself when
 * there is none. `written`: the line before its closes were masked (same length), where the
 * close is looked for; `keep`: openers never masked.
 */
export function withoutMentionedOpens(line: string, keep: readonly string[] = NO_LITERALS, written: string = line): string {
  const lead = line.length - line.trimStart().length;
  let out = '';
  let copied = 0;
  for (let at = line.indexOf('<'); at >= 0; at = line.indexOf('<', at + 1)) {
    const nameAt = at + 1;
    if (!namedAfterWord(line, at, lead) || !isAsciiLetter(line.charCodeAt(nameAt))) continue;
    const nameEnd = tagNameEnd(line, nameAt);
    // An opener's head named with no value (`looks for <function= followed by …`): no tag writes
    // a blank right after its `=`.
    const bare = line.charCodeAt(nameEnd) === Code.Equals && skipBlanks(line, nameEnd + 1) > nameEnd + 1;
    const gt = bare ? nameEnd : tagCloseAt(line, nameEnd);
    if (gt < 0) continue;
    const after = gt + 1;
    const goesOn = CLOSE_FOLLOWERS.has(line.charCodeAt(after)) ? sentenceGoesOn(line, after) : 'no';
    // A kept opener may begin a block across lines, but not one with the next tag of a list after it.
    if (goesOn === 'no' || (goesOn !== 'list' && startsWithAny(line, at, keep))) continue;
    // Looked for as written: a close masked as a mention still pairs with its open.
    if (written.indexOf(`</${line.slice(nameAt, nameEnd)}>`, after) >= 0) continue;
    out += line.slice(copied, at) + '_'.repeat(after - at);
    copied = after;
    at = gt;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

const NO_LITERALS: readonly string[] = [];

/** The `>` that ends a tag's attributes from `at`, on the line and within bounds, with no `<` before it; -1 when none does. */
function tagCloseAt(line: string, at: number): number {
  const first = line.charCodeAt(at);
  // Right after the name: the end, a blank before attributes, or `=` (`<parameter=city>`).
  if (first !== Code.GreaterThan && first !== Code.Space && first !== Code.Tab && first !== Code.Equals) return -1;
  const stop = Math.min(line.length, at + MAX_MENTIONED_ATTRIBUTES);
  for (let i = at; i < stop; i++) {
    const code = line.charCodeAt(i);
    if (code === Code.GreaterThan) return i;
    if (code === Code.LessThan || code === Code.LineFeed) return -1;
  }
  return -1;
}

/**
 * How, past the followers at `at` (blanks, closing quotes and brackets, stops), the sentence goes
 * on: a word starts on the line, the next tag of a list (`<tool_call>, <invoke> and …`, after a
 * comma or semicolon), or the line ends after a stop (`… such as <invoke>.`); `no` otherwise.
 */
function sentenceGoesOn(line: string, at: number): 'word' | 'list' | 'stop' | 'no' {
  let i = at;
  let listed = false;
  let stopped = false;
  while (i < line.length && CLOSE_FOLLOWERS.has(line.charCodeAt(i))) {
    const code = line.charCodeAt(i);
    if (code === 0x2c || code === 0x3b) listed = true;
    else if (code === 0x2e || code === 0x21 || code === 0x3f) stopped = true;
    i++;
  }
  const code = line.charCodeAt(i);
  if (isAsciiLetter(code) || isAsciiDigit(code) || code > 0x7f) return 'word';
  if (listed && code === Code.LessThan && isAsciiLetter(line.charCodeAt(i + 1))) return 'list';
  return stopped && endsTrimmedLineAt(line, i) ? 'stop' : 'no';
}

function isNamePart(code: number): boolean {
  return isAsciiLetter(code) || isAsciiDigit(code) || code === 0x5f || code === 0x2d || code === 0x3a || code === 0x2e;
}

/** The characters that open a Markdown blockquote line, shared with the sniffer's look-alike rules (`LOOKALIKE.quoteLeads`). */
const QUOTE_LEADS: ReadonlySet<number> = new Set(LOOKALIKE.quoteLeads.map((lead) => lead.charCodeAt(0)));

/**
 * Where the quoted text of a Markdown blockquote line starts (past its `>` and the blank after
 * it), or -1: the line's first non-blank character is a quote lead that a blank or the line's
 * end follows (`> <tool_call>…`; `>>>` and `>x` are no quote).
 */
export function blockquoteTextAt(text: string, lineStart: number): number {
  const lead = skipBlanks(text, lineStart);
  if (!QUOTE_LEADS.has(text.charCodeAt(lead))) return -1;
  const next = text.charCodeAt(lead + 1);
  if (next === Code.Space || next === Code.Tab) return lead + 2;
  return next === Code.LineFeed || next === Code.CarriageReturn || lead + 1 >= text.length ? lead + 1 : -1;
}

/**
 * `line` with its quoted markup masked: the text of a blockquote line (a quotation holds no
 * call), inline code that quotes tags, and closing and opening tags named between words, except
 * opening tags that start one of `keepOpens` (a lane's own block markers, whose reading may span
 * lines).
 */
export function withoutQuotedMarkup(line: string, keepOpens: readonly string[] = NO_LITERALS): string {
  const quoted = blockquoteTextAt(line, 0);
  if (quoted >= 0) {
    let end = line.length;
    while (end > quoted && (line.charCodeAt(end - 1) === Code.LineFeed || line.charCodeAt(end - 1) === Code.CarriageReturn)) end--;
    return end <= quoted ? line : line.slice(0, quoted) + '_'.repeat(end - quoted) + line.slice(end);
  }
  if (line.indexOf('<') < 0) return line;
  const spans = line.indexOf('`') >= 0 ? withoutAngledInlineCode(line) : line;
  const closes = spans.indexOf('</') >= 0 ? withoutMentionedCloses(spans) : spans;
  return closes.indexOf('<') >= 0 ? withoutMentionedOpens(closes, keepOpens, spans) : closes;
}

/** `text` with `withoutQuotedMarkup` applied to each of its lines; `text` itself when nothing is masked. */
export function withoutQuotedMarkupLines(text: string): string {
  if (text.indexOf('<') < 0 && text.indexOf('>') < 0) return text;
  let out = '';
  let changed = false;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    const masked = withoutQuotedMarkup(line);
    if (masked !== line) changed = true;
    out += end < text.length ? masked + '\n' : masked;
    start = end + 1;
  }
  return changed ? out : text;
}

/**
 * `text` with each inline code span that opens mid-line and holds a tag or a special token
 * (`<|im_end|>`, `<｜User｜>`, `<end_of_turn>`) masked by `_`, whatever else it holds
 * (`stop=["<|im_end|>"]`, `<|im_start|>system\n{system}<|im_end|>`): markup quoted as code, for
 * the tool-shape check only (the lanes read such a span as the walk does). `text` itself when
 * there is none.
 */
export function withoutQuotedCodeLines(text: string): string {
  if (text.indexOf('`') < 0 || text.indexOf('<') < 0) return text;
  let out = '';
  let copied = 0;
  const spans: InlineSpan[] = [];
  // perf: from one line with a backtick to the next, so the text is swept once.
  for (let tick = text.indexOf('`'); tick >= 0; ) {
    const lineStart = text.lastIndexOf('\n', tick) + 1;
    let lineEnd = text.indexOf('\n', tick);
    if (lineEnd < 0) lineEnd = text.length;
    const lead = skipBlanks(text, lineStart);
    spans.length = 0;
    inlineSpansOn(text, tick, lineEnd, spans);
    for (const span of spans) {
      // Mid-line only: the span's text is what lies between its runs of backticks.
      if (span.start <= lead) continue;
      const from = span.start + span.ticks;
      const to = span.end - span.ticks;
      if (!holdsMarkup(text, from, to)) continue;
      out += text.slice(copied, from) + '_'.repeat(to - from);
      copied = to;
    }
    tick = lineEnd < text.length ? text.indexOf('`', lineEnd) : -1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** An inline code span: from its opening run of backticks through its closing one, each `ticks` long. */
export interface InlineSpan {
  readonly start: number;
  readonly end: number;
  readonly ticks: number;
}

/**
 * The inline code spans of the line part `[from, lineEnd)`, which starts at a backtick, pushed to
 * `out` in order: each run of backticks is closed by the next run of the same length on the line
 * (as Markdown pairs them; a run with none is text). Linear in the runs: each run's next of its
 * length is found once, right to left.
 */
export function inlineSpansOn(text: string, from: number, lineEnd: number, out: InlineSpan[]): void {
  const starts: number[] = [];
  const lengths: number[] = [];
  for (let i = from; i >= 0 && i < lineEnd; ) {
    let j = i;
    while (j < lineEnd && text.charCodeAt(j) === Code.Backtick) j++;
    starts.push(i);
    lengths.push(j - i);
    i = text.indexOf('`', j);
  }
  const next = new Array<number>(starts.length);
  const last = new Map<number, number>();
  for (let k = starts.length - 1; k >= 0; k--) {
    next[k] = last.get(lengths[k]!) ?? -1;
    last.set(lengths[k]!, k);
  }
  for (let k = 0; k < starts.length; ) {
    const close = next[k]!;
    if (close < 0) {
      k++;
      continue;
    }
    out.push({ start: starts[k]!, end: starts[close]! + lengths[close]!, ticks: lengths[k]! });
    k = close + 1;
  }
}

/** Where the first run of exactly `width` backticks after `from` and before `limit` starts (a span's close, as Markdown pairs runs), or -1. */
function closingRun(text: string, from: number, width: number, limit: number): number {
  for (let close = text.indexOf('`', from); close >= 0 && close < limit; ) {
    let end = close;
    while (text.charCodeAt(end) === Code.Backtick) end++;
    if (end - close === width) return close;
    close = text.indexOf('`', end);
  }
  return -1;
}

/** Whether text[from, to) holds a tag or a special token: `<` then a letter, `/`, `|` or DeepSeek's `｜`. */
function holdsMarkup(text: string, from: number, to: number): boolean {
  for (let i = from; i + 1 < to; i++) {
    if (text.charCodeAt(i) !== Code.LessThan) continue;
    const next = text.charCodeAt(i + 1);
    if (isAsciiLetter(next) || next === Code.Slash || next === Code.Pipe || next === 0xff5c) return true;
  }
  return false;
}
