/**
 * When a field region is whole: it ends with its grammar's outermost close, or (a reasoning
 * block) the next frame's stop has arrived after it, or (a grammar with no close of its own)
 * text that cannot continue it has come after it. Only such a region can be released
 * before the end of the text (segment.ts), and only such a close is worth a try (watch.ts).
 */
import { FIELD_GRAMMARS, type FieldGrammar, type HarmonyGrammar, type ReasoningGrammar } from '../../dialects/field/index.js';
import { TOKEN_SECTION_FALLBACK_GRAMMARS } from '../../dialects/field/token-sections.js';
import { matchAt } from '../field/cursor.js';
import { blockOpenAt } from '../field/readers/reasoning.js';
import type { FieldRegion } from '../field/region.js';
import { isAsciiLetter, isJsonSpace } from '../../lex/codes.js';
import { ValueDepth } from './value-depth.js';

/**
 * A close as a pattern: `stem`, then (suffixed grammars, Hunyuan's `</think:opensource>` and
 * `</tool_calls:opensource>`) a deployment suffix of up to 64 name characters, then `tail`.
 */
export interface Close {
  readonly stem: string;
  readonly suffix: 'none' | 'optional' | 'required';
  readonly tail: string;
}

const SUFFIX_MAX = 64;

/** A word a model might write next, appended to held text to see whether a region reads on. */
export const PROBE = '\nso';
/**
 * The same word on the same line. A region that failed may fail another way with the probe's
 * line break: inside a JSON string left open, the break is a control character that ends the
 * read at once, where a space leaves it open to the end of the text (the string may yet close).
 */
export const INLINE_PROBE = ' so';

function isSuffixCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d || code === 0x2e || code === 0x3a;
}

function closeForms(grammar: FieldGrammar): readonly Close[] {
  const literal = closers(grammar);
  if (grammar.family === 'reasoning' && grammar.suffix !== null) {
    const tail = grammar.suffix.end;
    return literal.map((stem) => ({ stem, suffix: 'required', tail }));
  }
  if (grammar.family === 'param-markup' && grammar.suffixed) {
    return literal.map((close) => {
      const at = close.indexOf('{S}');
      return at < 0 ? { stem: close, suffix: 'none', tail: '' } : { stem: close.slice(0, at), suffix: 'optional', tail: close.slice(at + 3) };
    });
  }
  return literal.map((stem) => ({ stem, suffix: 'none', tail: '' }));
}

/** Where `close` begins when it ends exactly at `end` (after `start`), or -1. */
function closeStartOf(text: string, start: number, end: number, close: Close): number {
  if (close.suffix === 'none') {
    const at = end - close.stem.length;
    return at > start && text.startsWith(close.stem, at) ? at : -1;
  }
  const tailAt = end - close.tail.length;
  if (!text.startsWith(close.tail, tailAt)) return -1;
  let i = tailAt;
  if (close.suffix === 'optional' && tailAt - close.stem.length > start && text.startsWith(close.stem, tailAt - close.stem.length)) return tailAt - close.stem.length;
  while (i > start && tailAt - i < SUFFIX_MAX && isSuffixCode(text.charCodeAt(i - 1))) {
    i--;
    if (i - close.stem.length > start && text.startsWith(close.stem, i - close.stem.length)) return i - close.stem.length;
  }
  return -1;
}

/**
 * True when the JSON (or Python literal) begun in `text` from `start` is still open at `at`:
 * inside a string, or with a brace, bracket or parenthesis not yet closed. A close found there is one the reader took only
 * because the JSON had not ended yet (a marker written inside an argument's string); with
 * more text the reader would read past it, so the region is not whole. Free text with a stray
 * quote may look open too: that only keeps the region until the end, never releases it wrong.
 */
export function jsonOpenAt(text: string, start: number, at: number): boolean {
  const depth = new ValueDepth();
  depth.advance(text, start, at);
  return depth.open;
}

/**
 * True when text that cannot continue `grammar` has come after `at`: past any whitespace, a
 * character that begins none of its markers or openers (a region with no close of its own may
 * still take a following marker, a closing fence or another call).
 */
function followedByOther(text: string, at: number, grammar: FieldGrammar | undefined): boolean {
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (!isJsonSpace(code)) break;
    i++;
  }
  if (i >= text.length || grammar === undefined) return false;
  const next = text.slice(i, i + 64);
  // Harmony's messages chain only through its own markers and header openers: any other text,
  // a `<tool_call>` too, ends the chain once enough of it has come to be none of them.
  const chained = grammar.family === 'harmony';
  // A fence, a separator or another bracket may still belong to the call (```json bodies, `;`
  // between Llama 3's objects, lists of calls).
  if (!chained && CONTINUES.has(next.charCodeAt(0))) return false;
  for (const marker of [...grammar.markers, ...grammar.openers]) {
    if (marker.startsWith(next) || next.startsWith(marker)) return false;
    // A marker's first character may begin it once more text comes; a word marker (Command R+'s
    // `Action:`) only as written: `After the call.` begins none.
    const first = marker.charCodeAt(0);
    if (!chained && !isAsciiLetter(first) && first === next.charCodeAt(0)) return false;
  }
  return true;
}

const CONTINUES = new Set([0x60, 0x7e, 0x2c, 0x3b, 0x7b, 0x5b, 0x28, 0x3c, 0x7c, 0x22, 0x27, 0x5d, 0x7d, 0x29]);

let grammarIndex: Map<string, FieldGrammar> | null = null;

export function grammarOf(id: string): FieldGrammar | undefined {
  grammarIndex ??= new Map(FIELD_GRAMMARS.map((g) => [g.id, g]));
  return grammarIndex.get(id);
}

let formsById: Map<string, readonly Close[]> | null = null;

function formsOf(grammarId: string): readonly Close[] {
  formsById ??= new Map(FIELD_GRAMMARS.map((g) => [g.id, closeForms(g)]));
  return formsById.get(grammarId) ?? [];
}

/**
 * The markers after which a region of `grammar` is whole: its outermost close. A region that
 * ends any other way (an inner close, a next opener, the end of the text) may still grow, so
 * it waits; grammars with no close of their own (pythonic lists, look-alike JSON) wait for the
 * end of the text.
 */
export function closers(grammar: FieldGrammar): readonly string[] {
  switch (grammar.family) {
    case 'token-section':
      return grammar.sectionClose.length > 0 ? grammar.sectionClose : grammar.callClose;
    case 'call-objects':
      return grammar.close;
    case 'param-markup': {
      const close = grammar.section?.close ?? grammar.callWrap?.close ?? grammar.envelope?.close;
      if (close !== undefined && close.length > 0) return close;
      return grammar.call.kind === 'tag' ? grammar.call.tag.close : grammar.call.close;
    }
    case 'value-grammar':
      return grammar.close;
    case 'harmony':
      return grammar.ends;
    case 'reasoning':
      return grammar.close;
    default:
      return [];
  }
}

/** A reasoning block stopped by the next frame: the stop is left for what follows, and has arrived. */
function stoppedBefore(text: string, region: FieldRegion, grammar: FieldGrammar | undefined): boolean {
  if (grammar?.family !== 'reasoning' || region.end >= text.length) return false;
  return grammar.stop.some((stop) => text.startsWith(stop, region.end));
}

/**
 * Whether a reasoning-family region is whole, where its own markers say so; null when the
 * closes of its grammar decide as for any grammar.
 *
 * - A lone marker (an answer wrapper's open, a stray close) is the whole region: the text after
 *   it is read on its own, and nothing that follows changes the marker.
 * - A suffixed block (Hunyuan's `<think:S>`) ends only with the close that carries its open's
 *   suffix, as its reader reads it (readers/reasoning.ts).
 * - A mentioned open's line is never whole before the end.
 */
function reasoningMarkerWhole(text: string, region: FieldRegion, grammar: ReasoningGrammar): boolean | null {
  // A mention's line (field/lane.ts, `reasoningMention`) is prose: whether it is a mention at
  // all may turn on a close still to come.
  if (region.prose.length > 0) return false;
  const open = blockOpenAt(text, region.start, grammar);
  if (open === null) return matchAt(text, region.start, grammar.close) !== null ? true : null;
  if (grammar.role === 'answer') return region.end === open.bodyAt;
  if (open.close === null) return null;
  return region.end - open.close.length >= open.bodyAt && text.startsWith(open.close, region.end - open.close.length);
}

/** Only blanks stand before `at` on its line, and that line begins in `text` (after a break, or at its start when `startsLine`). */
function lineBeginsIn(text: string, at: number, startsLine: boolean): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const code = text.charCodeAt(i);
    if (code === 0x0a) return true;
    if (code !== 0x20 && code !== 0x09) return false;
  }
  return startsLine;
}

/** Where the blanks that end text[start, end) begin. */
function blanksBefore(text: string, start: number, end: number): number {
  let at = end;
  while (at > start && isJsonSpace(text.charCodeAt(at - 1))) at--;
  return at;
}

/** The region ends with Harmony's `<|message|>`: where a message's body begins. */
export function endsAtMessage(text: string, region: FieldRegion, grammar: HarmonyGrammar): boolean {
  return region.end - grammar.message.length > region.start && text.startsWith(grammar.message, region.end - grammar.message.length);
}

/** What a caller knows of the text a region is judged in, beyond the text itself. */
export interface RegionSetting {
  /** The turn has a registry. */
  readonly registered: boolean;
  /** The text begins the response, so its first character begins a line. */
  readonly startsResponse: boolean;
  /**
   * The text ends with a close the caller wrote in to try the region (announce.ts), not one the
   * model wrote: whether another role's turn begins with that close is not asked.
   */
  readonly closeTried?: boolean;
}

const UNKNOWN_SETTING: RegionSetting = { registered: false, startsResponse: false };
/** A region tried with its close written in, nothing else known. */
export const CLOSE_TRIED: RegionSetting = { ...UNKNOWN_SETTING, closeTried: true };

/** Whether no later text can change `region`, the last region read in `text`. */
export function wholeRegion(text: string, region: FieldRegion, setting: RegionSetting = UNKNOWN_SETTING): boolean {
  // An answer's body read as written (field/lane.ts, `answerBodyRegion`) is whole once the
  // marker that ends it has come; cut off, it runs to the end of the text.
  if (region.answerBody === true) return region.end < text.length;
  const grammar = grammarOf(region.grammar);
  if (grammar === undefined) return false;
  // The text may end inside an opener that begins with the region's last marker (`<|end|><|sy`
  // of `<|end|><|system|>`, another role's turn): that opener would take the marker.
  if (setting.closeTried !== true && endsInsideComposite(text, region)) return false;
  // A look-alike is read, or left as prose, by rules over the whole response: with no registry
  // it must be the whole response, and with one, an unregistered name is an error only there.
  // Calls that all passed a registry are calls whatever follows, once text that cannot continue
  // them has come after their line.
  if (grammar.family === 'look-alike') {
    if (!setting.registered || region.calls.length === 0 || region.errors.length > 0) return false;
    // Its line must begin in `text`: a value glued to the region before it (`</function_calls>[f(a=1)]`)
    // is no line-start look-alike in the whole text, though it begins the text held after that region.
    if (!lineBeginsIn(text, region.start, setting.startsResponse)) return false;
    return followedByOther(text, region.end, grammar) && !jsonOpenAt(text, region.start, region.end);
  }
  // Harmony's frames chain into one region: one that ends with a frame's end (`<|call|>`) grows
  // when the next frame (`<|start|>…`) follows, so it is whole only once other text has come.
  if (grammar.family === 'harmony') {
    // A region that stops at a visible message's body (`commentary<|message|>`, `final`) hands
    // the body to the text after it: once that body has begun, no later text changes the region.
    if (region.end < text.length && endsAtMessage(text, region, grammar)) return true;
    if (!followedByOther(text, region.end, grammar)) return false;
    // The chain's last message ended with its end marker (a lone one too: a stray `<|return|>`).
    const end = blanksBefore(text, region.start, region.end);
    const close = grammar.ends.find((e) => end - e.length >= region.start && text.startsWith(e, end - e.length));
    if (close !== undefined) return !jsonOpenAt(text, region.start, end - close.length);
  }
  // A region opened by an envelope (`<|start|>to=R<|message|>` … `<|eom|>`) ends with the
  // envelope's close, whatever section it holds.
  if (grammar.family === 'param-markup' && grammar.envelope !== null && opensEnvelope(text, region.start, grammar.envelope)) {
    return grammar.envelope.close.some((close) => region.end - close.length > region.start && text.startsWith(close, region.end - close.length));
  }
  if (grammar.family === 'reasoning') {
    // A close that begins a stop (Gemma 4's `<channel|>` of `<channel|>call:`), with no more
    // after it than the stop's beginning: the stop may yet come, and then the close belongs to
    // what follows the block. A stray close alone too: the stop would open a call there.
    if (grammar.close.some((close) => text.startsWith(close, region.end - close.length) && grammar.stop.some((stop) => stop.length > close.length && text.length - (region.end - close.length) < stop.length && stop.startsWith(text.slice(region.end - close.length))))) return false;
    const marker = reasoningMarkerWhole(text, region, grammar);
    if (marker !== null) return marker;
  }
  // Calls with no section around them chain (`…<|eom_id|><|python_tag|>…` is one region), and a
  // grammar whose body takes any text (Llama 3.1's code) reads the next call as its own, where
  // alone it would read as another grammar's sharing the opener (`<function=…>`): such a region
  // is whole only once other text follows its close.
  if (FALLBACK_IDS.has(grammar.id) && !followedByOther(text, region.end, grammar)) return false;
  const forms = formsOf(region.grammar);
  // A region that took the blanks after its close (a reader looking for the next call) and
  // stopped before other text ends with that close; one that ends with the text may yet go on.
  const end = region.end < text.length ? blanksBefore(text, region.start, region.end) : region.end;
  for (const close of forms) {
    const at = closeStartOf(text, region.start, end, close);
    // Raw-text parameters are no JSON: an apostrophe or a bracket in a value, or MiniMax M3's
    // `]<]minimax[>[` token, would look like an open string or list. Whether such a region reads
    // on past its close is asked of its reader instead (segment.ts, `mayRunOn`).
    if (at >= 0) return grammar.family === 'param-markup' || !jsonOpenAt(text, region.start, at);
  }
  // With no close, as with a close that is optional (Llama 3's `<|python_tag|>{…}` and no
  // `<|eom_id|>`), the region ends where text that cannot continue it follows.
  if (forms.length === 0 || closeIsOptional(grammar)) return followedByOther(text, region.end, grammar) && !jsonOpenAt(text, region.start, region.end) && !endsAtChainSeparator(text, region);
  return stoppedBefore(text, region, grammar);
}

/**
 * The region took a separator after its last call (`{…}; ` of Llama 3's chained calls): the next
 * call of the chain may follow whatever comes (`search.call(…)` begins with a word).
 */
function endsAtChainSeparator(text: string, region: FieldRegion): boolean {
  const end = blanksBefore(text, region.start, region.end);
  const last = text.charCodeAt(end - 1);
  return end > region.start && (last === 0x3b || last === 0x2c);
}

let composites: { readonly prefixes: ReadonlySet<string>; readonly longest: number } | null = null;

/**
 * The proper prefixes, longer than that marker, of the turn-end openers that begin with a whole
 * marker of another grammar (`<|im_end|>⏎<|im_start|>user`, `<|end|><|system|>`), and the
 * longest such opener.
 */
function compositePrefixes(): { readonly prefixes: ReadonlySet<string>; readonly longest: number } {
  if (composites !== null) return composites;
  const prefixes = new Set<string>();
  let longest = 0;
  const literals = FIELD_GRAMMARS.flatMap((g) => [...g.openers, ...g.markers]);
  for (const grammar of FIELD_GRAMMARS) {
    if (grammar.family !== 'turn-end') continue;
    for (const opener of grammar.openers) {
      // From the whole marker it begins with: a region may have ended with that marker (a call's
      // optional `<|eom_id|>`), and the text may end right there with the opener still to come.
      const lead = literals.reduce((most, literal) => (literal !== opener && literal.length < opener.length && opener.startsWith(literal) ? Math.max(most, literal.length) : most), 0);
      if (lead === 0) continue;
      longest = Math.max(longest, opener.length);
      for (let k = lead; k < opener.length; k++) prefixes.add(opener.slice(0, k));
    }
  }
  return (composites = { prefixes, longest });
}

/** Whether the text from some point in the region's last characters is a proper prefix of a turn-end opener. */
function endsInsideComposite(text: string, region: FieldRegion): boolean {
  const { prefixes, longest } = compositePrefixes();
  // perf: only a region within one opener's length of the end of the text is asked.
  if (text.length - region.end >= longest) return false;
  for (let at = Math.max(region.start, text.length - longest + 1); at < region.end; at++) {
    if (text.charCodeAt(at) === 0x3c && prefixes.has(text.slice(at))) return true;
  }
  return false;
}

/** A call-objects grammar whose close may be left out (Llama 3's `<|python_tag|>{…}` with no `<|eom_id|>`). */
export function closeIsOptional(grammar: FieldGrammar): boolean {
  return grammar.family === 'call-objects' && grammar.closeOptional === true;
}

/** The token-section grammars read after every other sharing their opener, whose body takes any text. */
const FALLBACK_IDS: ReadonlySet<string> = new Set(TOKEN_SECTION_FALLBACK_GRAMMARS.map((g) => g.id));

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every marker that may make a region whole (each grammar's closes, reasoning stops and answer
 * wrappers' opens) as RegExp alternatives, longest first, and the longest text one can match.
 */
export function wholeMarkerSource(): { readonly source: string; readonly longest: number } {
  const patterns = new Map<string, number>();
  for (const grammar of FIELD_GRAMMARS) {
    for (const close of closeForms(grammar)) {
      if (close.suffix === 'none') patterns.set(escapeRegExp(close.stem), close.stem.length);
      else patterns.set(`${escapeRegExp(close.stem)}[\\w.:-]{0,${SUFFIX_MAX}}${escapeRegExp(close.tail)}`, close.stem.length + SUFFIX_MAX + close.tail.length);
    }
    // A Harmony message's `<|message|>` may end a region that hands a visible body on.
    if (grammar.family === 'harmony') patterns.set(escapeRegExp(grammar.message), grammar.message.length);
    if (grammar.family !== 'reasoning') continue;
    for (const stop of grammar.stop) patterns.set(escapeRegExp(stop), stop.length);
    // An answer wrapper's open is a whole region by itself (`reasoningMarkerWhole`).
    if (grammar.role === 'answer') for (const open of grammar.open) patterns.set(escapeRegExp(open), open.length);
  }
  const sorted = [...patterns].sort((a, b) => b[1] - a[1]);
  return { source: sorted.map(([p]) => p).join('|'), longest: sorted.length === 0 ? 1 : sorted[0]![1] };
}

/** Whether one of an envelope's header spellings begins at `at`. */
export function opensEnvelope(text: string, at: number, envelope: { readonly open: readonly string[]; readonly responseOpen: readonly string[] }): boolean {
  return envelope.open.some((open) => text.startsWith(open, at)) || envelope.responseOpen.some((open) => text.startsWith(open, at));
}
