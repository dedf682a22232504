/**
 * Tool-shape findings (docs/design.md, "Tool-shape findings"): is the text the turn dropped shaped like a
 * tool call that never ran? One finding at most per turn, reported as `unparsed_tool_syntax`.
 *
 * Runs once per parse over the rejoined drop ledger. The reference states the shapes as regular
 * expressions; the ones that could backtrack (`[^>]*`, `[^{}]*`, identifier runs) are
 * hand-written sweeps here, so a hostile ledger costs linear time.
 */
import { LOOKALIKE } from '../dialects/field/look-alikes.js';
import { FIELD_GRAMMARS } from '../dialects/field/index.js';
import { TOOL_SHAPE } from '../dialects/vocabulary.js';
import { Code, isJsSpace } from '../lex/codes.js';
import { withoutQuotedMarkupLines, withoutQuotedCodeLines } from '../lex/inline-code.js';
import { isBlank, startsWithFolded } from './ascii-fold.js';
import { literalTrieSource } from './literal-trie.js';
import { CONTENTLESS_DROP_REASONS, DIAGNOSED_DROP_REASONS } from './diagnostics.js';
import type { Profile } from './context.js';
import { messagesFor } from './messages.js';
import type { DroppedFragment, ProtocolViolation } from './types.js';

export type ToolShape = (typeof TOOL_SHAPE.shapes)[number];

export interface ToolShapeFinding {
  readonly shape: ToolShape;
  readonly dropped_reason: string;
  readonly excerpt: string;
}

const PROTOCOL_TAGS: ReadonlySet<string> = new Set(TOOL_SHAPE.protocol_tags);
export const EXCERPT_LIMIT = TOOL_SHAPE.excerpt_limit;
const ELLIPSIS = TOOL_SHAPE.ellipsis;

const CALL_MARKUP_KEYWORDS = ['function', 'invoke', 'tool'] as const;
// Literal alternatives only: the engine cannot backtrack, so one sweep stays linear.
const CALL_MARKUP_FRAMED = /\[TOOL_CALLS\]|<\|recipient\|>|<\|channel\|>/i;
const CLOSE_TAG = /<\/([A-Za-z_][A-Za-z0-9_.:-]*)>/g;
const JSON_NAME_KEY = /"(?:name|tool|tool_name|recipient)"\s*:/i;
const JSON_ARGS_KEY = /"(?:arguments|args|parameters|input|params)"\s*:/i;
// The gateway's: a backslash may stand before a key's closing quote (the object written as a
// JSON string's text, `{\"name\": …}`; a match starts at the opening quote), and the arguments
// are an object or JSON text in a string, as every grammar passes them: a list there
// (`"args": ["--port", "1593"]` in a launch.json, a stored procedure's parameters) is data.
const GATEWAY_NAME_KEY = /"(?:name|tool|tool_name|recipient)\\?"\s*:/i;
const GATEWAY_ARGS_OBJECT = /"(?:arguments|args|parameters|input|params)\\?"\s*:\s*\\?["{]/i;

interface Run {
  readonly text: string;
  readonly reason: string;
}

const DIAGNOSED: ReadonlySet<string> = new Set([...DIAGNOSED_DROP_REASONS, ...CONTENTLESS_DROP_REASONS]);

/** The drops that carry no diagnostic of their own, hold content and more than whitespace, in ledger order. */
function silentDrops(dropped: readonly DroppedFragment[]): DroppedFragment[] {
  const kept: DroppedFragment[] = [];
  for (const d of dropped) if (!DIAGNOSED.has(d.reason) && !isBlank(d.text)) kept.push(d);
  return kept;
}

/** All drops that carry no diagnostic of their own, rejoined in ledger order. */
export function rejoinSilentDrops(dropped: readonly DroppedFragment[]): Run | null {
  const kept = silentDrops(dropped);
  if (kept.length === 0) return null;
  return { text: kept.map((d) => d.text).join('\n'), reason: kept[0]!.reason };
}

/**
 * Whether any shape can match, decided per drop before the drops are joined (joining a large
 * ledger is the detector's biggest cost, and most turns' drops are plain prose). The joiner is
 * a newline, and no pattern crosses one except through `[^>]*`, `\s*` or a body, so:
 *   named markup and tagged bodies need a `>` in some drop (a close tag needs `</` inside one);
 *   framed markup (`[TOOL_CALLS]`, `<|...|>`) lies inside one drop;
 *   the JSON shape needs a `"` and a `{` somewhere.
 */
function anyShapePossible(kept: readonly DroppedFragment[]): boolean {
  let quote = false;
  let brace = false;
  for (const { text } of kept) {
    if (text.includes('>') || text.includes('[') || text.includes('<|')) return true;
    if (!quote) quote = text.includes('"');
    if (!brace) brace = text.includes('{');
    if (quote && brace) return true;
  }
  return false;
}

function isIdentStart(code: number): boolean {
  return (code >= Code.UpperA && code <= Code.UpperZ) || (code >= Code.LowerA && code <= Code.LowerZ) || code === Code.Underscore;
}

/** `[A-Za-z0-9_]`, the regex word characters. */
function isWordChar(code: number): boolean {
  return isIdentStart(code) || (code >= Code.Digit0 && code <= Code.Digit9);
}

/** `[A-Za-z0-9_.:-]`, the characters of a tag name. */
function isTagNameChar(code: number): boolean {
  return isWordChar(code) || code === Code.Dot || code === Code.Colon || code === Code.Dash;
}

/**
 * `<(?:function|invoke|tool)\s*[=\s][^>]*>`, case-insensitive: the first `<keyword` followed
 * by whitespace or `=` (after optional whitespace) with a `>` somewhere after. Hand-written
 * because `[^>]*` would rescan to the end from every `<tool ` of a text without `>`.
 */
function callMarkupNamedAt(text: string): number {
  const lastGt = text.lastIndexOf('>');
  for (let at = text.indexOf('<'); at >= 0 && at < lastGt; at = text.indexOf('<', at + 1)) {
    for (const keyword of CALL_MARKUP_KEYWORDS) {
      if (!startsWithFolded(text, at + 1, keyword)) continue;
      let pos = at + 1 + keyword.length;
      if (pos >= text.length) continue;
      // <tool   = ...>    <tool name=...>
      //      ^ pos: one whitespace already satisfies [=\s]; otherwise skip spaces to '='
      let ok = isJsSpace(text.charCodeAt(pos));
      if (!ok) {
        while (pos < text.length && isJsSpace(text.charCodeAt(pos))) pos++;
        ok = pos < text.length && text.charCodeAt(pos) === Code.Equals;
      }
      if (ok && pos + 1 <= lastGt) return at;
    }
  }
  return -1;
}

/**
 * Matches of one "has arguments" pattern in left-to-right order, found on demand. `endFrom(a)`
 * is the smallest end of a match that starts at or after `a` (Infinity when none). Each
 * pattern's matches start and end in increasing order (see the two below), so that is the end
 * of the first match starting at or after `a`; and the open tags ask with increasing `a`, so
 * one cursor walks the text once however many tags ask.
 *
 * perf: this replaces two `Float64Array(n + 1)` tables built over the whole rejoined ledger on
 * every parse, which took half of the bench's drop-heavy row (82 KB, ~800 drops): that row
 * went from 35x `JSON.parse` of its size (16.1 ms) to 6.4x to 8.3x (2.7 to 4.8 ms) in the same
 * runs; the cursors allocate nothing.
 */
abstract class MatchCursor {
  protected start = -1;
  protected end = Infinity;
  protected pos = 0;
  constructor(protected readonly text: string) {}

  endFrom(a: number): number {
    while (this.start < a && this.advance());
    return this.start >= a ? this.end : Infinity;
  }

  /** Moves to the next match (sets `start`, `end`); false when there is none. */
  protected abstract advance(): boolean;
}

/**
 * `[A-Za-z_][A-Za-z0-9_]*\s*\(`: a match ends at a '(' and may start at any identifier start of
 * the word run before the whitespace before it; the rightmost such start is the one that
 * counts (every smaller `a` reaches it). The word run holds no '(', so the rightmost start of a
 * later '(' lies after an earlier '(' : starts and ends increase together.
 */
class CallExprCursor extends MatchCursor {
  protected advance(): boolean {
    const text = this.text;
    for (let q = text.indexOf('(', this.pos); q >= 0; q = text.indexOf('(', q + 1)) {
      this.pos = q + 1;
      // name  (      the match is name...( ; walk left over the spaces, then the word run
      //      ^ r     ^ q
      let r = q;
      while (r > 0 && isJsSpace(text.charCodeAt(r - 1))) r--;
      for (let k = r - 1; k >= 0 && isWordChar(text.charCodeAt(k)); k--) {
        if (isIdentStart(text.charCodeAt(k))) {
          this.start = k;
          this.end = q + 1;
          return true;
        }
      }
    }
    this.pos = text.length;
    this.start = this.end = Infinity;
    return false;
  }
}

/**
 * `\{[^{}]*"?[A-Za-z_][A-Za-z0-9_]*"?\s*:`: a match starts at a '{' and ends at the first ':'
 * of its brace-free stretch that follows a key (spaces, an optional quote, then a word run
 * holding an identifier start). The next match starts at a later '{', after this one's end.
 */
class ObjectKeyCursor extends MatchCursor {
  protected advance(): boolean {
    const text = this.text;
    const n = text.length;
    let open = -1;
    for (let pos = this.pos; pos < n; pos++) {
      const code = text.charCodeAt(pos);
      if (code === Code.LeftBrace) {
        open = pos;
        continue;
      }
      if (code === Code.RightBrace) {
        open = -1;
        continue;
      }
      if (code !== Code.Colon || open < 0) continue;
      let r = pos;
      while (r > open + 1 && isJsSpace(text.charCodeAt(r - 1))) r--;
      if (r > open + 1 && text.charCodeAt(r - 1) === Code.Quote) r--;
      for (let k = r - 1; k > open && isWordChar(text.charCodeAt(k)); k--) {
        if (isIdentStart(text.charCodeAt(k))) {
          // The first key colon after this '{' ends its match; the stretch is done with.
          this.start = open;
          this.end = pos + 1;
          this.pos = pos + 1;
          return true;
        }
      }
    }
    this.pos = n;
    this.start = this.end = Infinity;
    return false;
  }
}

/** First index in sorted `positions` at or after `from`, or -1. */
function firstAtOrAfter(positions: readonly number[], from: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (positions[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < positions.length ? positions[lo]! : -1;
}

/**
 * `<([A-Za-z_][A-Za-z0-9_.:-]*)\b[^>]*>` over the text, in order and without overlap: the
 * opening tags, as [start, name, end]. The name drops trailing `.:-` (the `\b` backtrack).
 */
function* openTags(text: string): Generator<readonly [number, string, number]> {
  let at = text.indexOf('<');
  while (at >= 0) {
    const nameStart = at + 1;
    if (nameStart < text.length && isIdentStart(text.charCodeAt(nameStart))) {
      let nameEnd = nameStart + 1;
      while (nameEnd < text.length && isTagNameChar(text.charCodeAt(nameEnd))) nameEnd++;
      while (!isWordChar(text.charCodeAt(nameEnd - 1))) nameEnd--;
      const gt = text.indexOf('>', nameEnd);
      // No '>' after this '<' means none after any later '<' either.
      if (gt < 0) return;
      yield [at, text.slice(nameStart, nameEnd), gt + 1];
      at = text.indexOf('<', gt + 1);
      continue;
    }
    at = text.indexOf('<', at + 1);
  }
}

/**
 * The gateway's tagged call body: the body itself opens with the call, `name(` (no space before
 * the parenthesis) or `{key:`, as a model writes a call it wraps in a tag of its own
 * (`<search>query("x")</search>`). A sentence in an element (`<p>Logs (click)</p>`,
 * `<summary>Stack trace (click to expand)</summary>`) is prose, where the reference's pattern,
 * matching anywhere in the body, took it for a call. Each body start is looked at once.
 */
function gatewayTaggedCallBodyAt(text: string): number {
  let closes: Map<string, number[]> | null = null;
  for (const [start, rawName, bodyStart] of openTags(text)) {
    const name = rawName.toLowerCase();
    if (PROTOCOL_TAGS.has(name)) continue;
    let at = bodyStart;
    while (at < text.length && isJsSpace(text.charCodeAt(at))) at++;
    const end = callHeadEnd(text, at);
    if (end < 0) continue;
    closes ??= closeTagIndex(text);
    if (firstAtOrAfter(closes.get(name) ?? [], end) >= 0) return start;
  }
  return -1;
}

/** Every close tag's position, by name, in one sweep. */
function closeTagIndex(text: string): Map<string, number[]> {
  const closes = new Map<string, number[]>();
  CLOSE_TAG.lastIndex = 0;
  for (let m = CLOSE_TAG.exec(text); m !== null; m = CLOSE_TAG.exec(text)) {
    const list = closes.get(m[1]!);
    if (list) list.push(m.index);
    else closes.set(m[1]!, [m.index]);
  }
  return closes;
}

/** The end of `name(` or of `{key:` (the key bare or quoted) at `at`, or -1. */
function callHeadEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (isIdentStart(first)) {
    let pos = at + 1;
    while (isWordChar(text.charCodeAt(pos))) pos++;
    return text.charCodeAt(pos) === Code.LeftParen ? pos + 1 : -1;
  }
  if (first !== Code.LeftBrace) return -1;
  let pos = at + 1;
  while (isJsSpace(text.charCodeAt(pos))) pos++;
  const quoted = text.charCodeAt(pos) === Code.Quote;
  if (quoted) pos++;
  if (!isIdentStart(text.charCodeAt(pos))) return -1;
  while (isWordChar(text.charCodeAt(pos))) pos++;
  if (quoted) {
    if (text.charCodeAt(pos) !== Code.Quote) return -1;
    pos++;
  }
  while (isJsSpace(text.charCodeAt(pos))) pos++;
  return text.charCodeAt(pos) === Code.Colon ? pos + 1 : -1;
}

function taggedCallBodyAt(text: string): number {
  // perf: every close tag is indexed in one sweep and the two "has arguments" patterns are
  // walked once by their cursors, so each open tag costs a binary search and two lookups.
  const closes = closeTagIndex(text);
  let callEnds: CallExprCursor | null = null;
  let keyEnds: ObjectKeyCursor | null = null;
  for (const [start, rawName, bodyStart] of openTags(text)) {
    const name = rawName.toLowerCase();
    if (PROTOCOL_TAGS.has(name)) continue;
    // The close is searched case-sensitively with the lowered name, as the reference does.
    const close = firstAtOrAfter(closes.get(name) ?? [], bodyStart);
    if (close < 0) continue;
    callEnds ??= new CallExprCursor(text);
    keyEnds ??= new ObjectKeyCursor(text);
    if (callEnds.endFrom(bodyStart) <= close || keyEnds.endFrom(bodyStart) <= close) return start;
  }
  return -1;
}

function excerptFrom(text: string, at: number): string {
  let excerpt = text.slice(at).trim();
  if (excerpt.length > EXCERPT_LIMIT) excerpt = excerpt.slice(0, EXCERPT_LIMIT) + ELLIPSIS;
  return at > 0 ? ELLIPSIS + excerpt : excerpt;
}

let fieldMarkers: { readonly pattern: RegExp; readonly probes: readonly string[] } | null = null;

/**
 * Every marker of every field grammar, compiled once into one RegExp of literal alternatives
 * (longest first), so a new grammar's record is known here without a line of its own; and its
 * probes: for each marker its first character that is no ASCII letter, digit or blank (`<`,
 * `[`, `‹`), or the whole marker when it is a word (`functools`). A text holding none of the
 * probes holds no marker, and `indexOf` rules that out at a fraction of the pattern's cost per
 * character (perf: plain prose drops, where the pattern was 2.5 % of a parse of 600 calls).
 */
function fieldMarkerPattern(): { readonly pattern: RegExp; readonly probes: readonly string[] } {
  if (fieldMarkers !== null) return fieldMarkers;
  const literals = new Set<string>();
  // An opener that counts only glued to its name (Functionary's `>>>RECIPIENT`) is call syntax
  // only so: `>>> print(1)` is a Python prompt and `a >>> b` a shift.
  const glued = new Set<string>();
  // A marker that is a plain word (Phi-4's `functools`) is call syntax only with its body after
  // it: `functools.reduce(f, xs)` names the module.
  const words = new Set<string>();
  for (const grammar of FIELD_GRAMMARS) {
    // A tag whose body decides (`<tools>`, which also wraps tool definitions) is call syntax only
    // with a call in it, and its reader takes every such body: left over, it is the other kind.
    if (grammar.family === 'call-objects' && grammar.bodyDecides === true) continue;
    for (const marker of grammar.markers) if (marker.trim() !== '') literals.add(marker);
    for (const marker of grammar.markers) if (/^[A-Za-z_]\w*$/.test(marker)) words.add(marker);
    if (grammar.family === 'token-section' && grammar.unregisteredGlued === true) for (const opener of grammar.openers) glued.add(opener);
  }
  const probes = new Set<string>();
  for (const marker of literals) probes.add(/[^A-Za-z0-9 \t\n]/.exec(marker)?.[0] ?? marker);
  fieldMarkers = { pattern: new RegExp(literalTrieSource(literals, { beforeName: glued, beforeBody: words })), probes: [...probes] };
  return fieldMarkers;
}

/**
 * A field grammar's marker in a silent drop (gateway profile): call syntax of an open model's
 * own grammar that did not become a call. Markers lie inside one drop: the drops are searched as
 * one text, joined by a NUL that no marker holds and that every look-ahead of the pattern fails
 * on as it fails at a text's end, so the first hit is the first drop's first marker. perf: one
 * search instead of one per drop, whose fixed cost was most of this check on prose-heavy turns.
 */
function fieldMarkerFinding(kept: readonly DroppedFragment[], text: string): ToolShapeFinding | null {
  const { pattern, probes } = fieldMarkerPattern();
  if (!holdsAny(text, probes)) return null;
  const hit = pattern.exec(text);
  if (hit === null) return null;
  let at = hit.index;
  for (const drop of kept) {
    if (at < drop.text.length) return { shape: 'call_markup', dropped_reason: drop.reason, excerpt: excerptFrom(drop.text, at) };
    at -= drop.text.length + DROP_SEPARATOR.length;
  }
  return null;
}

function holdsAny(text: string, needles: readonly string[]): boolean {
  for (let i = 0; i < needles.length; i++) if (text.includes(needles[i]!)) return true;
  return false;
}

/** Between drops searched as one text: no marker holds it (literal-trie.ts adds look-aheads only). */
const DROP_SEPARATOR = '\u0000';

export interface ToolShapeOptions {
  /** Also treat every field grammar's markers as call syntax (the gateway profile reads them). */
  readonly fieldGrammars?: boolean;
  /** Whose wording the violation carries; absent reads as `harn`. */
  readonly profile?: Profile;
}

/**
 * What every shape but a field grammar's marker needs somewhere in the drops: a tag (`<`, `>`),
 * a framed marker (`[TOOL_CALLS]`, `<|`) or a JSON object (`{`). Quoted markup is masked only
 * where a `<` or `>` stands.
 */
const MARKUP_PROBES: readonly string[] = ['<', '>', '[', '{'];

/** The shape of the silent drops, or null when nothing in them looks like a call. */
export function toolShapeFinding(dropped: readonly DroppedFragment[], options: ToolShapeOptions = {}): ToolShapeFinding | null {
  const field = options.fieldGrammars === true;
  const kept = silentDrops(dropped);
  if (kept.length === 0) return null;
  if (!field) return anyShapePossible(kept) ? shapeInText(kept.map((d) => d.text).join('\n'), kept[0]!.reason) : null;
  const joined = kept.length === 1 ? kept[0]!.text : kept.map((d) => d.text).join(DROP_SEPARATOR);
  // perf: drops that hold no markup at all (the prose between a model's calls: most turns) can
  // show only a field grammar's marker, so the per-drop masking and checks below are skipped:
  // a few searches of the joined text instead of seven per drop (about 0.1 µs a drop).
  if (!holdsAny(joined, MARKUP_PROBES)) return fieldMarkerFinding(kept, joined);
  // The gateway reads a tag quoted in prose (inline code, a close between words) as a mention (lex/inline-code.ts).
  const shown = unquotedAll(kept);
  const found = anyShapePossible(shown) ? shapeInText(shown.map((d) => d.text).join('\n'), shown[0]!.reason, true) : null;
  if (found !== null) return found;
  return fieldMarkerFinding(shown, shown === kept ? joined : shown.length === 1 ? shown[0]!.text : shown.map((d) => d.text).join(DROP_SEPARATOR));
}

/** `drops` each with its quoted markup masked; `drops` itself when none had any. */
function unquotedAll(drops: DroppedFragment[]): DroppedFragment[] {
  let out: DroppedFragment[] | null = null;
  for (let i = 0; i < drops.length; i++) {
    const drop = unquoted(drops[i]!, i > 0 ? drops[i - 1]!.text : '');
    if (drop !== drops[i] && out === null) out = drops.slice(0, i);
    out?.push(drop);
  }
  return out ?? drops;
}

/**
 * `drop` with its quoted markup masked (itself when none). When `before`, the drop ahead of it,
 * ends in a backtick and `drop` starts with a tag, the walk cut inline code at its tag (it starts
 * a unit at the `<` of `` `<invoke>` `` after a code block), so the tag's line is read whole:
 * `before`'s last line, then `drop`.
 */
function unquoted(drop: DroppedFragment, before: string): DroppedFragment {
  // perf: a span the drop before opened can be masked only where its close stands in this drop.
  const ticked = drop.text.indexOf('`') >= 0;
  const lead = ticked && drop.text.charCodeAt(0) === 0x3c && opensCodeSpan(before) ? before.slice(before.lastIndexOf('\n') + 1) : '';
  const masked = withoutQuotedMarkupLines(lead + drop.text);
  const text = (ticked ? withoutQuotedCodeLines(masked) : masked).slice(lead.length);
  return text === drop.text ? drop : { text, reason: drop.reason };
}

/** Whether the last line of `text` leaves an inline code span open: it ends in a backtick, or holds an odd number of them (`` `stop=[" ``). */
function opensCodeSpan(text: string): boolean {
  if (text.endsWith('`')) return true;
  // perf: searched, not walked a character at a time: most drops hold no backtick at all.
  const last = text.lastIndexOf('`');
  if (last < 0) return false;
  const lineStart = text.lastIndexOf('\n', last) + 1;
  let ticks = 0;
  for (let i = text.indexOf('`', lineStart); i >= 0; i = text.indexOf('`', i + 1)) ticks++;
  return ticks % 2 === 1;
}

/** The shapes, first match wins, over already rejoined drop text (no pre-check). */
export function shapeInText(text: string, reason: string, gateway = false): ToolShapeFinding | null {
  const named = callMarkupNamedAt(text);
  const markup = named >= 0 ? named : (CALL_MARKUP_FRAMED.exec(text)?.index ?? -1);
  if (markup >= 0) return { shape: 'call_markup', dropped_reason: reason, excerpt: excerptFrom(text, markup) };
  const tagged = gateway ? gatewayTaggedCallBodyAt(text) : taggedCallBodyAt(text);
  if (tagged >= 0) return { shape: 'tagged_call_body', dropped_reason: reason, excerpt: excerptFrom(text, tagged) };
  if (text.includes('{')) {
    const nameKey = (gateway ? GATEWAY_NAME_KEY : JSON_NAME_KEY).exec(text);
    if (nameKey && (gateway ? GATEWAY_ARGS_OBJECT : JSON_ARGS_KEY).test(text) && !(gateway && recordsRunNear(text, nameKey.index))) {
      return { shape: 'json_name_arguments', dropped_reason: reason, excerpt: excerptFrom(text, nameKey.index) };
    }
  }
  return null;
}

/** A call's outcome or time as a key (`"status":`, `"result":`, `"ts":`; the look-alike record's `resultKeys`). */
const RESULT_KEY = new RegExp(`"(?:${LOOKALIKE.resultKeys.join('|')})"\\s*:`);
/** How far around a name key a record's result key is looked for: one record's line or two. */
const RECORD_REACH = 512;

/**
 * Whether a result key stands near the name key at `at`: the JSON is the record of a call that
 * ran (a job's entry, a log line), which the gateway's readers leave as data, so its shape
 * says no call was lost.
 */
function recordsRunNear(text: string, at: number): boolean {
  return RESULT_KEY.test(text.slice(Math.max(0, at - RECORD_REACH), at + RECORD_REACH));
}

/** `unparsed_tool_syntax` violations for the turn's silent drops (zero or one). */
export function toolShapeViolations(dropped: readonly DroppedFragment[], toolFormat: string, options: ToolShapeOptions = {}): ProtocolViolation[] {
  const finding = toolShapeFinding(dropped, options);
  if (finding === null) return [];
  return [{ kind: 'unparsed_tool_syntax', message: messagesFor(options.profile).unparsedToolSyntax(toolFormat, finding.excerpt), excerpt: finding.excerpt, dropped_reason: finding.dropped_reason }];
}
