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
 * A line is plain when the tagged lane can only read it as text:
 *   - no `<` where a scan branch may start (at the line's start, `<|`, `<<`, a ladder marker
 *     such as `<think>`: `angleIsText`; `a < b`, `Vec<u8>` and an inline `<br>` are text) and no
 *     other marker of the lane (`[TOOL_CALLS]`, `[[CALL]`: a lone `[`, as in a Markdown link,
 *     starts none);
 *   - no fence marker (```` ``` ````, `~~~`) but at the line's start: inline code and a lone `~`
 *     are text;
 *   - no name the stray sniffer could read as a call or an error (`maySniffCallAmong`, which
 *     looks back only within the line; a name in inline code mid-line is a mention) and no
 *     protocol fragment (`foo_CALL>`). The gateway's sniffer takes only registered names, so
 *     `print(x)`, `frob{ a: 1 }` or `Sure: [frob(a=1)]` with `frob` unregistered is text, and
 *     with no registry it reads no line call at all (`frob({ a: 1 })` is text there, an
 *     "Unknown tool" error with a registry). The classifier is built once per registry.
 * Two rules reach past one line, so a run also holds lines back until a later line decides them
 * (`PlainRunCursor`):
 *   - a fenced block is in the run only once its closing fence line comes, with every line
 *     between plain: a fence line pairs with a later one when the sniffer runs, and the
 *     canonical `tool` fence is never plain;
 *   - a `{` with only blanks after it on its line is in the run once the next line that is not
 *     blank does not start with `"` (a native payload's key may come on a later line);
 *   - a line that is only a fence label (Command R+'s `Action:`) is in the run once the next
 *     line is no fence line (`Action:⏎```json` opens a call list).
 * So the run is decided line by line, each line looked at once, and a stream can say which of
 * its lines are final as they end.
 */
import { Code, isJsonSpace, startsWithAny } from '../lex/codes.js';
import { isIdentPart, isIdentStart } from '../lex/ident.js';
import { withoutQuotedMarkup } from '../lex/inline-code.js';
import { maySniffCall, maySniffCallAmong } from './sniff-gate.js';
import { holdsCanonicalToolFence, hasResponseProtocolFragment } from './stray.js';
import { toolShapeFinding } from './tool-shape.js';
import { LOOKALIKE } from '../dialects/field/look-alikes.js';

/** What one line (its break included or not) is to a plain run: `LineIs` flags. */
export interface LineClassifier {
  (line: string): number;
  /**
   * True only when every line of `text` is plain and none is held (a `false` says nothing).
   * perf: a few native searches of the whole piece instead of a look at each line.
   */
  readonly allPlain: (text: string) => boolean;
}

/** The flags of a `LineClassifier`. */
export const LineIs = {
  /** Nothing but text: no flag. */
  Plain: 0,
  /** Never in a plain run. */
  NotPlain: 1,
  /** A fence line (```` ``` ```` at its start, after spaces and tabs), plain otherwise. */
  BacktickFence: 2,
  /** A `~~~` fence line, plain otherwise. */
  TildeFence: 4,
  /** A `{` with only blanks after it on the line. */
  BraceOpenAtEnd: 8,
  /** Its first character that is not a JSON blank is `"`. */
  QuoteFirst: 16,
  /** Only JSON blanks (space, tab, CR, LF) or nothing. */
  Blank: 32,
  /** A call look-alike the registry-blind gate would read (`print(x)`) but this sniffer takes as text. */
  LookAlike: 64,
  /** An opening tag's start (`<b`) as text. */
  TagOpen: 128,
  /** A closing tag's start (`</`) as text. */
  TagClose: 256,
  /** A `(` or a `{`: what may start a call expression or an object key in a tagged call body. */
  Bracket: 512,
  /** Only a fence label (`Action:`), whose fence may open a call list on the next line. */
  LabelAlone: 1024,
} as const;

const FENCES = LineIs.BacktickFence | LineIs.TildeFence;

/** What a character may start, for the classifier. */
const Breaks = {
  Never: 0,
  /** `<`: plain only mid-line and starting no marker (see `angleIsText`). */
  Angle: 1,
  /** A backtick or `~`: a fence marker when three of it stand in a row. */
  Fence: 2,
  /** `{`: a native payload's opening when only blanks follow it on the line. */
  Brace: 3,
  /** The first character of a marker of the lane. */
  Marker: 4,
} as const;

/** Where the first character of `line` at or after `at` that is not a JSON blank stands, or its length. */
function nonBlankFrom(line: string, at: number): number {
  while (at < line.length && isJsonSpace(line.charCodeAt(at))) at++;
  return at;
}

/**
 * Whether the `<` at `at` (not the line's first non-blank character, `lead`) can only be text
 * to the tagged lane: the scanner starts a tag, block or call at a `<` only at a line's start,
 * so a mid-line one (`a < b`, `Vec<u8>`, an inline `<br>`) is narration unless it starts a
 * marker the lane finds anywhere: the ladder's (`<tool_call>`, `<think>`, the envelope
 * openers, in `markers`), a Harmony frame (`<|`, read wherever the scan lands) or a heredoc
 * (`<<`, which a text run reads).
 */
/** `｜` (U+FF5C), the bar of DeepSeek's special tokens. */
const FULLWIDTH_BAR = 0xff5c;

function angleIsText(line: string, at: number, lead: number, markers: readonly string[]): boolean {
  if (at <= lead) return false;
  const next = line.charCodeAt(at + 1);
  // `<|`, `<<`, and the fullwidth bar DeepSeek's tokens use (`<｜tool▁output▁begin｜>`).
  if (next === Code.Pipe || next === Code.LessThan || next === FULLWIDTH_BAR) return false;
  return !startsWithAny(line, at, markers) && !nameOpensAfter(line, at + 1);
}

/**
 * Whether a name directly followed by `(` or `{` comes after blanks at `at`. The walk reads from a
 * mid-line `<` as a piece of its own, so such a name stands at a start there, where the sniffer
 * takes calls (the sniff gate of the whole line sees text before it).
 */
function nameOpensAfter(line: string, at: number): boolean {
  while (line.charCodeAt(at) === Code.Space || line.charCodeAt(at) === Code.Tab) at++;
  const nameAt = at;
  while (at < line.length && isIdentPart(line.charCodeAt(at))) at++;
  const code = line.charCodeAt(at);
  return at > nameAt && (code === Code.LeftParen || code === Code.LeftBrace);
}

/** A line with a `<` mid-line holds nothing the drop ledger's check reads as call syntax (`</function>`, `<invoke name=`). */
function holdsNoToolShape(line: string): boolean {
  return toolShapeFinding([{ text: line, reason: 'salvaged_as_prose' }], { fieldGrammars: true }) === null;
}

/** Where a line's fence marker would stand: after its spaces and tabs (the sniffer's fence rule). */
function indentEnd(line: string): number {
  let at = 0;
  while (line.charCodeAt(at) === Code.Space || line.charCodeAt(at) === Code.Tab) at++;
  return at;
}

/**
 * The line classifier for a lane whose markers are `markers` (from `laneMarkers`), under
 * `gateway`, whose sniffer knows `names` (the registered names; null: no registry).
 */
export function plainLineClassifier(markers: readonly string[], names: ReadonlySet<string> | null): LineClassifier {
  // What each ASCII character may start, in a table; markers starting beyond ASCII (none today)
  // in a map. perf: the characters that may start anything are found by one RegExp of them,
  // whose search V8 runs natively: most lines hold none (a character loop here was 6 % of a
  // parse of Qwen3-Coder calls between lines of prose).
  const ascii = new Uint8Array(128);
  ascii[Code.LessThan] = Breaks.Angle;
  ascii[Code.Backtick] = Breaks.Fence;
  ascii[Code.Tilde] = Breaks.Fence;
  ascii[Code.LeftBrace] = Breaks.Brace;
  const byFirst = new Map<number, string[]>();
  for (const marker of markers) {
    const code = marker.charCodeAt(0);
    if (code < 128 && code !== Code.LessThan) ascii[code] = Breaks.Marker;
    byFirst.set(code, [...(byFirst.get(code) ?? []), marker]);
  }
  const codes = new Set<number>([...byFirst.keys()]);
  for (let code = 0; code < 128; code++) if (ascii[code] !== Breaks.Never) codes.add(code);
  const unit = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;
  // Global, so that `test` leaves `lastIndex` just past the one-character match.
  const breakers = new RegExp(`[${[...codes].map(unit).join('')}]`, 'g');
  const angleMarkers = byFirst.get(Code.LessThan) ?? [];
  const classify = (line: string): number => {
    // A tag written as inline code mid-line (`` Use the `<tool_call>` tag. ``), as the field lane
    // passes such an opener by, or a close named between words, is a mention: the line reads as
    // if it held none.
    return classifyLine(withoutQuotedMarkup(line, angleMarkers));
  };
  const classifyLine = (line: string): number => {
    let is: number = LineIs.Plain;
    let lead = -1;
    let angled = false;
    breakers.lastIndex = 0;
    while (breakers.test(line)) {
      const i = breakers.lastIndex - 1;
      const code = line.charCodeAt(i);
      const breaks = code < 128 ? ascii[code] : Breaks.Marker;
      if (breaks === Breaks.Angle) {
        if (lead < 0) lead = line.length - line.trimStart().length;
        if (!angleIsText(line, i, lead, angleMarkers)) return LineIs.NotPlain;
        angled = true;
        const next = line.charCodeAt(i + 1);
        if (isIdentStart(next)) is |= LineIs.TagOpen;
        else if (next === Code.Slash) is |= LineIs.TagClose;
        continue;
      }
      if (breaks === Breaks.Fence) {
        if (line.charCodeAt(i + 1) !== code || line.charCodeAt(i + 2) !== code) continue;
        if ((is & FENCES) !== 0 || i !== indentEnd(line)) return LineIs.NotPlain;
        is |= code === Code.Backtick ? LineIs.BacktickFence : LineIs.TildeFence;
        let end = i + 3;
        while (line.charCodeAt(end) === code) end++;
        breakers.lastIndex = end;
      } else if (breaks === Breaks.Brace) {
        if (nonBlankFrom(line, i + 1) === line.length) is |= LineIs.BraceOpenAtEnd;
      } else if (startsWithAny(line, i, byFirst.get(code)!)) return LineIs.NotPlain;
    }
    if (hasResponseProtocolFragment(line) || ((is & FENCES) !== 0 && holdsCanonicalToolFence(line))) return LineIs.NotPlain;
    if (angled && !holdsNoToolShape(line)) return LineIs.NotPlain;
    const probe = withoutInlineTicks(line);
    // The walk sniffs its text trimmed, so a line's own leading blanks (a BOM, a no-break space)
    // may stand at the text's start there: the gate lets each of them lead a name.
    if (maySniffCall(probe)) {
      if (maySniffCallAmong(probe, names)) return LineIs.NotPlain;
      // A value the sniffer passes over (`payload = {"name": …}`) still shows a call's shape, which the ledger reports.
      if (!angled && !holdsNoToolShape(line)) return LineIs.NotPlain;
      // A tag opened on this line may wrap the look-alike into a tagged call body.
      if ((is & LineIs.TagOpen) !== 0) return LineIs.NotPlain;
      is |= LineIs.LookAlike;
    }
    if (line.indexOf('(') >= 0 || line.indexOf('{') >= 0) is |= LineIs.Bracket;
    if (line.length <= LABEL_LINE_MAX && LABELS.has(line.trim())) is |= LineIs.LabelAlone;
    const first = nonBlankFrom(line, 0);
    if (first === line.length) is |= LineIs.Blank;
    else if (line.charCodeAt(first) === Code.Quote) is |= LineIs.QuoteFirst;
    return is;
  };
  // With no breaker, no fence, brace or marker is held or refused, and with no `>` (nor `<`) no
  // protocol fragment stands; the sniff gate looks back only within a line (through blanks, to
  // a line break), so asked of the whole text it answers what its lines do.
  const allPlain = (text: string): boolean => {
    breakers.lastIndex = 0;
    if (breakers.test(text)) return false;
    return text.indexOf('>') < 0 && !maySniffCall(text);
  };
  return Object.assign(classify, { allPlain });
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

/** The look-alike grammar's fence labels (`Action:`), and the longest line that may be one alone. */
const LABELS: ReadonlySet<string> = new Set(LOOKALIKE.fenceLabels);
const LABEL_LINE_MAX = Math.max(...LOOKALIKE.fenceLabels.map((label) => label.length)) + 8;

/** A plain run's verdict on its next line (see `PlainRunCursor.step`). */
export type RunStep = 'in' | 'held' | 'end';

/**
 * Reads a plain run line by line. `step` answers for each line in turn:
 *   in    the line, and every line held before it, is in the run;
 *   held  the line is in the run only if later lines say so (inside a fenced block, or after a
 *         brace open at its line's end);
 *   end   the run ends before the first line held, or before this line when none is.
 * At the text's end, `finish` says whether the lines still held are in the run.
 */
export class PlainRunCursor {
  readonly #classify: LineClassifier;
  /** The fence flag of the open block, or 0. */
  #block = 0;
  /** A brace open at a line's end waits for the next line that is not blank. */
  #brace = false;
  /**
   * Tag bodies across lines. A line in the run opened a tag: a later look-alike may be its
   * tagged call body (`<b>\nprint(x)\n</b>`), so it ends the run; and once a bracket has stood
   * after that tag (`<b> It is 4.print(x)`), a closing tag would make a body of it, so that
   * line ends the run. A line alone is the classifier's to judge.
   */
  #tagOpen = false;
  #bracketInTag = false;
  /** A fence label alone on the line before: a fence line now makes it a call list's label. */
  #label = false;

  constructor(classify: LineClassifier) {
    this.#classify = classify;
  }

  step(line: string): RunStep {
    const is = this.#classify(line);
    if ((is & LineIs.NotPlain) !== 0) return 'end';
    if (this.#label) {
      this.#label = false;
      if ((is & LineIs.BacktickFence) !== 0) return 'end';
    }
    if (this.#tagOpen) {
      if ((is & LineIs.LookAlike) !== 0) return 'end';
      if ((is & LineIs.TagClose) !== 0 && (this.#bracketInTag || (is & LineIs.Bracket) !== 0)) return 'end';
    }
    if ((is & LineIs.TagOpen) !== 0) this.#tagOpen = true;
    if (this.#tagOpen && (is & LineIs.Bracket) !== 0) this.#bracketInTag = true;
    if (this.#brace) {
      if ((is & LineIs.Blank) !== 0) return 'held';
      if ((is & LineIs.QuoteFirst) !== 0) return 'end';
      this.#brace = false;
    }
    const fence = is & FENCES;
    if (fence !== 0) {
      if (this.#block === 0) this.#block = fence;
      else if (this.#block === fence) this.#block = 0;
      else return 'end';
    }
    if ((is & LineIs.BraceOpenAtEnd) !== 0) this.#brace = true;
    if ((is & LineIs.LabelAlone) !== 0 && this.#block === 0 && !this.#brace) {
      this.#label = true;
      return 'held';
    }
    return this.#block === 0 && !this.#brace ? 'in' : 'held';
  }

  /** At the text's end: a brace open there starts no payload, but a block still open is not plain. */
  finish(): boolean {
    return this.#block === 0;
  }
}

/**
 * Where the plain run of `text` ends: after the last line break of its leading plain lines, or
 * `text.length` when every line is in it (the last one unterminated included).
 */
export function plainRunEnd(text: string, classify: LineClassifier): number {
  if (classify.allPlain(text)) return text.length;
  const cursor = new PlainRunCursor(classify);
  let at = 0;
  let heldAt = -1;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    const step = cursor.step(text.slice(at, end));
    if (step === 'end') return heldAt < 0 ? at : heldAt;
    if (step === 'in') heldAt = -1;
    else if (heldAt < 0) heldAt = at;
    at = end;
  }
  return heldAt < 0 || cursor.finish() ? text.length : heldAt;
}
