/**
 * Whether a position lies inside a Markdown code block that began after the last region (in the
 * answer): a reasoning marker there is part of a code sample the answer shows, not a block, and
 * so is a call opener past the block's first text (`callPlaceInFence`).
 *
 *     Here is an example:
 *     ```                   <- a fence line opens a block
 *     <think>x</think>      <- inside: text of the sample
 *     ```                   <- the same kind of fence line closes it
 *
 * A fence line is three backticks or three tildes after a line's spaces and tabs (as the
 * plain-run cursor reads fences, src/compose/plain-run.ts); a block is closed by the next fence
 * line of its kind. Whether a position is inside depends only on the text before it, so a stream
 * knows it as soon as the marker comes.
 *
 * Questions come with forward-moving positions: each fence mark is looked at once, from the
 * last region's end (`floor`) on, so a whole parse sweeps the text once.
 */
import { Code } from '../../lex/codes.js';
import { inlineSpansOn, type InlineSpan } from '../../lex/inline-code.js';
import type { FieldScan } from './scan.js';

const FENCE_MARKS: readonly string[] = ['```', '~~~'];

/**
 * Where the line that a fence mark at `mark` opens as a fence line starts: only spaces and tabs
 * before it, back to a line break or to `floor` (a line start there counting); -1 when other
 * text stands before it on its line.
 */
function markLineStart(text: string, mark: number, floor: number): number {
  let at = mark;
  while (at > floor && (text.charCodeAt(at - 1) === Code.Space || text.charCodeAt(at - 1) === Code.Tab)) at--;
  return at === floor || text.charCodeAt(at - 1) === Code.LineFeed ? at : -1;
}

/** The fence kind (its character code) of a fence line starting at `at`, or 0. */
export function fenceLineAt(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === Code.Space || text.charCodeAt(i) === Code.Tab) i++;
  const code = text.charCodeAt(i);
  if (code !== Code.Backtick && code !== Code.Tilde) return 0;
  return text.charCodeAt(i + 1) === code && text.charCodeAt(i + 2) === code ? code : 0;
}

export class AnswerFences {
  readonly #scan: FieldScan;
  /** Every fence mark before it has been looked at. */
  #cursor = 0;
  /** The fence kind of the block open at the cursor, or 0. */
  #open = 0;
  /** Where the open block's opening fence line starts. */
  #openedAt = -1;
  #floor = 0;

  constructor(scan: FieldScan) {
    this.#scan = scan;
  }

  /** True when a code block opened at or after `floor` (a line start there counting) is open at `pos`. */
  inside(pos: number, floor: number): boolean {
    const text = this.#scan.text;
    if (floor !== this.#floor) {
      // A region ended at `floor`: blocks opened before it are not the answer's.
      this.#floor = floor;
      this.#open = 0;
      this.#cursor = floor;
    }
    // perf: from fence mark to fence mark (three backticks or tildes), not line to line: a
    // response of many lines and few fences is looked at only where a fence may stand.
    while (this.#cursor < pos) {
      const mark = this.#scan.earliest(FENCE_MARKS, this.#cursor);
      if (mark < 0 || mark >= pos) {
        this.#cursor = pos;
        break;
      }
      const lineStart = markLineStart(text, mark, floor);
      if (lineStart >= 0) this.#toggle(text.charCodeAt(mark), lineStart);
      this.#cursor = mark + 3;
    }
    return this.#open !== 0;
  }

  /**
   * Whether the block open at the last position asked has a closing fence line after `from`
   * (a block a model forgot to close runs to the end of the text). perf: answered once per
   * block, so many openers inside one unclosed block do not each sweep to the end.
   */
  closes(from: number): boolean {
    if (this.#closesFor !== this.#openedAt) {
      this.#closesFor = this.#openedAt;
      this.#closeLine = closingLineAfter(this.#scan.text, from, this.#open);
    }
    return this.#closeLine >= 0;
  }

  #closesFor = -1;
  #closeLine = -1;

  /** Where the block open at the last position asked began (its opening fence line), or -1. */
  get openedAt(): number {
    return this.#open === 0 ? -1 : this.#openedAt;
  }

  /** The kind of the block open at the last position asked (its fence character), or 0. */
  get kind(): number {
    return this.#open;
  }

  #toggle(kind: number, at: number): void {
    if (kind === 0) return;
    if (this.#open === 0) {
      this.#open = kind;
      this.#openedAt = at;
    } else if (this.#open === kind) this.#open = 0;
  }
}


/** Whether three backticks or tildes stand in `[from, before)`: no fence line opens there without them. */
export function fenceMarkBefore(scan: FieldScan, from: number, before: number): boolean {
  const at = scan.earliest(FENCE_MARKS, from);
  return at >= 0 && at < before;
}

/**
 * Whether a call opener at `at`, inside the block whose opening fence line starts at `openedAt`,
 * stands where a fenced call does: anywhere in a block labelled for calls (`CALL_FENCE_INFOS`),
 * else only as the block's first text (blank lines before it allowed). `output = '<tool_call>…'`
 * in a ```` ```python ```` block, or a `<tool_call>` after an example's first line, is the
 * block's text.
 */
export function callPlaceInFence(text: string, openedAt: number, at: number, callInfos: ReadonlySet<string>): boolean {
  let i = openedAt;
  while (text.charCodeAt(i) === Code.Space || text.charCodeAt(i) === Code.Tab) i++;
  const kind = text.charCodeAt(i);
  while (text.charCodeAt(i) === kind) i++;
  let lineEnd = text.indexOf('\n', i);
  if (lineEnd < 0) lineEnd = text.length;
  if (callInfos.has(text.slice(i, lineEnd).trim().toLowerCase())) return true;
  for (let j = lineEnd; j < at; j++) {
    const code = text.charCodeAt(j);
    if (code !== Code.LineFeed && code !== Code.CarriageReturn && code !== Code.Space && code !== Code.Tab) return false;
  }
  return true;
}

/**
 * Where the closing fence line of a block of `kind` ends, looking from the line after `from`;
 * the end of the text when none comes (the block runs on).
 */
export function blockEndAfter(text: string, from: number, kind: number): number {
  const line = closingLineAfter(text, from, kind);
  if (line < 0) return text.length;
  const next = text.indexOf('\n', line);
  return next < 0 ? text.length : next;
}

/** Where the closing fence line of a block of `kind` starts, looking from the line after `from`; -1 when none comes. */
function closingLineAfter(text: string, from: number, kind: number): number {
  for (let nl = text.indexOf('\n', from); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
    if (fenceLineAt(text, nl + 1) === kind) return nl + 1;
  }
  return -1;
}

/**
 * `fencedSpans` and, on the lines outside them, each inline code span (a run of backticks to the
 * next run of the same length on its line, as Markdown pairs them), and HTML's `<code>` and
 * `<pre>` elements: where an answer quotes markup as code. In order, not overlapping; one sweep
 * of the lines and of the backticks.
 */
export function codeSpans(text: string): { readonly start: number; readonly end: number }[] {
  const blocks = fencedSpans(text);
  const spans: { start: number; end: number }[] = [];
  const inline: InlineSpan[] = [];
  let tick = text.indexOf('`');
  let b = 0;
  for (let line = 0; tick >= 0 && line < text.length; ) {
    const block = blocks[b];
    if (block !== undefined && block.start <= line) {
      spans.push(block);
      b++;
      line = block.end + 1;
      continue;
    }
    const newline = text.indexOf('\n', line);
    const lineEnd = newline < 0 ? text.length : newline;
    if (tick < line) tick = text.indexOf('`', line);
    if (tick >= 0 && tick < lineEnd) {
      inline.length = 0;
      inlineSpansOn(text, tick, lineEnd, inline);
      for (const span of inline) spans.push(span);
      tick = text.indexOf('`', lineEnd);
    }
    if (newline < 0) break;
    line = newline + 1;
  }
  for (; b < blocks.length; b++) spans.push(blocks[b]!);
  return text.indexOf('<code') >= 0 || text.indexOf('<pre') >= 0 ? withCodeElements(text, spans) : spans;
}

/** HTML's code elements, open tag to close tag: an answer's (or smolagents') code, as a block is. */
const CODE_ELEMENTS: readonly (readonly [string, string])[] = [
  ['<code>', '</code>'],
  ['<pre>', '</pre>'],
];

/** `spans` with each closed code element of `text` that starts outside them added, in order. */
function withCodeElements(text: string, spans: { start: number; end: number }[]): { start: number; end: number }[] {
  const elements: { start: number; end: number }[] = [];
  for (const [open, close] of CODE_ELEMENTS) {
    for (let at = text.indexOf(open); at >= 0; ) {
      const end = text.indexOf(close, at + open.length);
      if (end < 0) break;
      elements.push({ start: at, end: end + close.length });
      at = text.indexOf(open, end + close.length);
    }
  }
  if (elements.length === 0) return spans;
  const all = [...spans, ...elements].sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const span of all) if (out.length === 0 || span.start >= out[out.length - 1]!.end) out.push(span);
  return out;
}


/** Whether a code block opened in `text` from `from` (a line start there counting) to before `at` is still open there. */
export function fenceOpenAt(text: string, at: number, from = 0): boolean {
  let open = 0;
  for (let line = from; line < at; ) {
    const kind = fenceLineAt(text, line);
    if (kind !== 0) open = open === 0 ? kind : open === kind ? 0 : open;
    const newline = text.indexOf('\n', line);
    if (newline < 0) break;
    line = newline + 1;
  }
  return open !== 0;
}

/**
 * The code blocks of `text` as `[start, end)` spans, each from its opening fence line's start to
 * its closing fence line's end (to the end of the text when it never closes), in order: one
 * sweep of its lines.
 */
export function fencedSpans(text: string): { readonly start: number; readonly end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let open = 0;
  let openedAt = 0;
  for (let line = 0; line < text.length; ) {
    const newline = text.indexOf('\n', line);
    const lineEnd = newline < 0 ? text.length : newline;
    const kind = fenceLineAt(text, line);
    if (kind !== 0 && open === 0) {
      open = kind;
      openedAt = line;
    } else if (kind !== 0 && kind === open) {
      spans.push({ start: openedAt, end: lineEnd });
      open = 0;
    }
    if (newline < 0) break;
    line = newline + 1;
  }
  if (open !== 0) spans.push({ start: openedAt, end: text.length });
  return spans;
}
