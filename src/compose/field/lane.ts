/**
 * The field lane (gateway profile): the regions of the text written in an open model's own
 * tool-call grammar, read by their family's reader, with the text between them read by the
 * caller's lane (the tagged or JSON lane, so the reference grammar and prose read as before).
 *
 *   text --detect openers--> [rest][region][rest][region][rest]
 *        rest   -> restLane(piece)            (prose, reference-grammar calls)
 *        region -> family reader -> sink      (calls through the registry rule, errors, drops,
 *                                              reasoning: its own channel, never prose)
 *        --> one result, everything in document order (and `parts`, the turn's order)
 *
 * Returns null when no region was found, so a text without field markers costs one probe and
 * reads exactly as the other lanes read it.
 */
import { CALL_HEADS_ENDING_REASONING, FIELD_GRAMMARS, type FieldGrammar, type ReasoningGrammar } from '../../dialects/field/index.js';
import { THINK } from '../../dialects/field/reasoning.js';
import { SEQUENCE_START, TURN_END, TURN_FOREIGN, TURN_HEADER } from '../../dialects/field/turn-end.js';
import { callBlock, proseBlock } from '../canonical.js';
import type { ComposeContext } from '../context.js';
import { appendAll } from '../lanes/result.js';
import type { DroppedFragment, LaneResult, ProtocolViolation, ToolCall, TurnPart } from '../types.js';
import { FIELD_NAME_MAX } from '../../dialects/field/names.js';
import { isJsonSpace, skipBlanks, skipJsonSpace } from '../../lex/codes.js';
import { isIdentStart } from '../../lex/ident.js';
import { blockquoteTextAt, quotesTagsOnly, withoutMentionedCloses } from '../../lex/inline-code.js';
import { indexWithin, matchAt, skipSpace } from './cursor.js';
import { blockOpenAt, closeEndAt, isCallHeadAt, unclosedReasoningEnds } from './readers/reasoning.js';
import { compileOpeners, type OpenerDetector, type OpenerHit } from './detect.js';
import { withCutMarkerAtEnd } from './cut-close.js';
import { withFenceFrame } from './fence-frame.js';
import { unreadableTokenCall } from './unreadable-token-call.js';
import { readRegion, readUnmarkedRegion } from './readers/index.js';
import { lookalikeRefusedForGood } from './readers/look-alike.js';
import { isTokenMention, mentionAfter } from './readers/token-section.js';
import { ReferenceBlocks } from './reference-blocks.js';
import { referenceBlockTags } from './call-markup.js';
import { AnswerFences, blockEndAfter, callPlaceInFence, fenceLineAt, fenceMarkBefore } from './answer-fences.js';
import { CALL_FENCE_INFOS } from '../../dialects/field/fences.js';
import { grammarsToTry } from './reference-head.js';
import { RegionSink, type FieldRegion, type VerbatimBody } from './region.js';
import { FieldScan } from './scan.js';
import { lateCloseRegion } from './late-close.js';
import { blockCloseCut, closesCutAtEnd, CUT_ALONE, CUT_IN_BLOCK, MarkersCutAtEnd } from './close-cut-at-end.js';
import { dropEntry } from '../site-free.js';

/** A piece's reading between regions: `assembleRegions` renders the canonical text from its calls and prose, never reads its own. */
export interface RestLane {
  (piece: string): LaneResult;
  /**
   * True when `piece` (not blank) reads as one plain run: its trimmed text is prose and a
   * `salvaged_as_prose` drop, and nothing else (plain-run.ts), so `assembleRegions` takes it so
   * without a reading. perf: most pieces between calls are a line of prose, and their readings
   * (a result record and four lists each) were a tenth of what a parse of 600 calls allocated.
   */
  readonly plain?: (piece: string) => boolean;
}

let detector: OpenerDetector | null = null;

function openers(): OpenerDetector {
  return (detector ??= compileOpeners(FIELD_GRAMMARS));
}

function isReasoning(grammar: FieldGrammar): grammar is ReasoningGrammar {
  return grammar.family === 'reasoning';
}

/** What the lane asks of an opener's grammars at every hit. */
interface HitGrammars {
  /** Every grammar of the opener is a reasoning block (or an answer wrapper). */
  readonly reasoningOnly: boolean;
  /** Those that a sentence may name without opening (`mayBeMentioned`), in record order. */
  readonly mentionable: readonly ReasoningGrammar[];
}

// perf: answered once per opener's list of grammars (the detector hands out one list per opener):
// asked at every hit, each question loaded `family` from records of every family's layout,
// a megamorphic load per grammar once a process had read them all (about 11 per call opener).
const HIT_GRAMMARS = new WeakMap<readonly FieldGrammar[], HitGrammars>();

function hitGrammars(grammars: readonly FieldGrammar[]): HitGrammars {
  let known = HIT_GRAMMARS.get(grammars);
  if (known === undefined) {
    known = { reasoningOnly: grammars.every(isReasoning), mentionable: grammars.filter(mayBeMentioned) };
    HIT_GRAMMARS.set(grammars, known);
  }
  return known;
}

let orphanStops: ReadonlyMap<string, ReasoningGrammar> | null = null;

/**
 * Per opener that is a reasoning grammar's stop beginning with its orphan close (Gemma 4's
 * `<channel|>call:`, another grammar's opener), that grammar: such a hit ends the reasoning
 * before it as its orphan close would, and its opener is left to its own grammar.
 */
function orphanStopsByOpener(): ReadonlyMap<string, ReasoningGrammar> {
  if (orphanStops === null) {
    const map = new Map<string, ReasoningGrammar>();
    for (const grammar of FIELD_GRAMMARS) {
      if (!isReasoning(grammar) || grammar.role !== 'reasoning') continue;
      for (const stop of grammar.stop) if (grammar.orphanClose.some((close) => stop.length > close.length && stop.startsWith(close))) map.set(stop, grammar);
    }
    orphanStops = map;
  }
  return orphanStops;
}

/**
 * The reasoning grammar whose orphan close stands at `hit`, and where its region ends (past the
 * close, or at a stop), or null. `flagged`: the caller said the prompt opened the block.
 */
function orphanCloseAt(text: string, hit: OpenerHit, flagged: boolean): { grammar: ReasoningGrammar; end: number } | null {
  // Indexed: an opener's grammars are a frozen array (see cursor.ts `matchAt`).
  for (let g = 0; g < hit.grammars.length; g++) {
    const grammar = hit.grammars[g]!;
    if (!isReasoning(grammar) || grammar.role !== 'reasoning' || (!flagged && !grammar.orphanUnflagged) || matchAt(text, hit.index, grammar.orphanClose) === null) continue;
    const end = closeEndAt(text, hit.index, grammar);
    if (end >= 0) return { grammar, end };
  }
  const stopped = orphanStopsByOpener().get(hit.opener);
  return stopped === undefined ? null : { grammar: stopped, end: hit.index };
}

/** A region of reasoning from `start` (the start of the response) to a close, or to the end. */
function reasoningRegion(text: string, grammar: FieldGrammar, ctx: ComposeContext, scan: FieldScan, bodyEnd: number, end: number): FieldRegion {
  const sink = new RegionSink(text, grammar, ctx.registry, ctx.marks, scan);
  sink.reasoningSpan(0, bodyEnd);
  return sink.region(0, end);
}

/** Per grammar, its closing markers (`</…>`), one array each so `FieldScan` memoises the search. */
const CLOSERS = new Map<FieldGrammar, readonly string[]>();

function closersOf(grammar: FieldGrammar): readonly string[] {
  let closers = CLOSERS.get(grammar);
  if (closers === undefined) {
    closers = grammar.markers.filter((marker) => marker.startsWith('</'));
    CLOSERS.set(grammar, closers);
  }
  return closers;
}

/** What would start a call body or markup after an opener, one array so `FieldScan` memoises it. */
const BODY_STARTS: readonly string[] = ['{', '(', '<', '['];
const NEWLINE: readonly string[] = ['\n'];

/** Per opener literal, a one-needle list, so `FieldScan` memoises the search for its next use. */
const SAME_OPENER = new Map<string, readonly string[]>();

function sameOpener(opener: string): readonly string[] {
  let needles = SAME_OPENER.get(opener);
  if (needles === undefined) {
    needles = [opener];
    SAME_OPENER.set(opener, needles);
  }
  return needles;
}

/**
 * An opener no reader claimed, standing mid-line with words after it, that pairs with no close
 * (`Wrap each call in a <tool_call> tag, then wait.`), is a mention: its line is prose, read here
 * so the sentence is not cut at the opener. It pairs with no close when no closing marker of its
 * grammars follows, or when the same opener comes again before the first one does (`Use
 * <tool_call> tags. <tool_call>{…}</tool_call>`: the close is the later pair's); when that
 * opener stands on the line with a body after it, the mention ends where it starts, and the
 * call is read from there.
 *
 * perf: every search is memoised in `FieldScan` (line ends, body starts, closers, the opener)
 * and the line start is looked for back to `floor` only through `lines`, so many openers on one
 * long line cost one pass over it.
 */
/**
 * What may follow an opener named in a sentence: a blank, a closing quote or bracket, a stop;
 * or, in a script written without spaces between words, the next word itself (`使用<tool_call>标签调用工具`).
 */
const MENTION_FOLLOWERS: ReadonlySet<number> = new Set([0x20, 0x09, 0x22, 0x27, 0x29, 0x5d, 0x2e, 0x2c, 0x3b, 0x21, 0x3f, 0x2a, 0x201d, 0x2019]);

/** A character of a script written without spaces between words (Chinese, Japanese), or its punctuation. */
function isUnspacedScript(code: number): boolean {
  return (code >= 0x3000 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xff01 && code <= 0xff65);
}

function mentionLine(text: string, hit: OpenerHit, floor: number, ctx: ComposeContext, scan: FieldScan, lines: LineStarts): FieldRegion | null {
  const lineStart = lineStartAfter(lines.startOf(text, hit.index, floor), floor);
  // Mid-line: a word stands before the opener on its line (or the region before it, a mention
  // of another tag in the same sentence, ended right there: `使用<think>标签…，使用<tool_call>标签…`).
  let before = hit.index - 1;
  while (before >= lineStart && (text.charCodeAt(before) === 0x20 || text.charCodeAt(before) === 0x09)) before--;
  if (before < lineStart && !(floor === hit.index && floor > 0 && text.charCodeAt(floor - 1) !== 0x0a)) return null;
  const newline = scan.earliest(NEWLINE, hit.index);
  const lineEnd = newline < 0 ? text.length : newline;
  let after = tagEnd(text, hit, lineEnd);
  if (after < 0) return null;
  // An empty pair named in a sentence (`in <tool_call></tool_call> tags`) is one mention.
  for (const grammar of hit.grammars) {
    const pairClose = matchAt(text, after, closersOf(grammar));
    if (pairClose !== null) {
      after += pairClose.length;
      break;
    }
  }
  // Words after it: a blank or a closing quote, bracket or stop (`the '<tool_call>' tag`,
  // `(<tool_call>)`), then something that opens no body, and no body start before the mention ends.
  if (!MENTION_FOLLOWERS.has(text.charCodeAt(after)) && !isUnspacedScript(text.charCodeAt(after))) return null;
  const again = scan.earliest(sameOpener(hit.opener), after);
  // A close named between words on the line (`in <tool_call> and </tool_call> tags`) pairs with
  // nothing either: the line is read with it masked (lex/inline-code.ts).
  let masked: string | null = null;
  for (const grammar of hit.grammars) {
    const closers = closersOf(grammar);
    if (closers.length === 0) return null;
    const close = scan.earliest(closers, after);
    if (close < 0 || (again >= 0 && again < close)) continue;
    if (close >= lineEnd) return null;
    masked ??= withoutMentionedCloses(text.slice(lineStart, lineEnd));
    if (masked.charCodeAt(close - lineStart) === text.charCodeAt(close)) return null;
  }
  // The same opener again on the line, a body after it: that one opens the call, and the
  // mention ends where it starts.
  const end = again >= 0 && again < lineEnd && opensBody(text, again + hit.opener.length) ? again : lineEnd;
  let body = masked === null ? scan.earliest(BODY_STARTS, after) : bodyStartIn(masked, after - lineStart, lineStart);
  // A tag no grammar writes (`results in <tool_result> tags`) begins no body.
  while (body >= 0 && body < end && text.charCodeAt(body) === 0x3c && scan.earliest(grammarTags(), body) !== body) {
    body = masked === null ? scan.earliest(BODY_STARTS, body + 1) : bodyStartIn(masked, body + 1 - lineStart, lineStart);
  }
  if (body >= 0 && body < end) return null;
  if (text.slice(after, Math.min(end, after + 64)).trim() === '') return null;
  // A block closed before the mention on its line (`<tool_call>look(…)</tool_call> then a
  // <tool_call> tag.`) is a call, not part of the sentence: the mention begins after its close.
  const start = Math.max(lineStart, blockClosedBefore(text, Math.max(lineStart, floor), hit));
  const sink = new RegionSink(text, hit.grammars[0]!, ctx.registry, ctx.marks, scan);
  sink.proseSpan(start, end);
  return sink.region(start, end);
}

/**
 * Where the last close of the opener's grammars, or of a reference block, ends before the opener
 * on its line (from `from`, the line's start or the last region's end), past the blanks after it;
 * -1 when none does. perf: read back from the opener to `from` once; regions after a mention
 * begin past it, so the spans read are disjoint.
 */
function blockClosedBefore(text: string, from: number, hit: OpenerHit): number {
  const closes = [...referenceBlockTags().close, ...hit.grammars.flatMap((grammar) => closersOf(grammar))];
  for (let i = hit.index - 1; i >= from; i--) {
    const code = text.charCodeAt(i);
    for (const close of closes) {
      const at = i + 1 - close.length;
      if (close.charCodeAt(close.length - 1) === code && at >= from && text.startsWith(close, at)) return skipBlanks(text, i + 1);
    }
  }
  return -1;
}

/** Where in the text the first body start of `line` (which starts at `lineStart`) at or after `from` stands, or -1. */
function bodyStartIn(line: string, from: number, lineStart: number): number {
  for (let i = from; i < line.length; i++) if (BODY_STARTS.includes(line.charAt(i))) return lineStart + i;
  return -1;
}

/** The longest attributes an opener's tag may hold in a mention (`<function=NAME>`, `<invoke name="x">`). */
const MENTION_ATTRIBUTES_MAX = 64;

/**
 * Where the opener's tag ends: past the opener, or, for an opener that takes attributes (`<function=`,
 * `<invoke name=`), past the `>` that ends them on the line, with no blank-free run into another `<`; -1 when none does.
 */
function tagEnd(text: string, hit: OpenerHit, lineEnd: number): number {
  const after = hit.index + hit.opener.length;
  if (hit.opener.charCodeAt(0) !== 0x3c || hit.opener.charCodeAt(hit.opener.length - 1) === 0x3e) return after;
  for (let i = after, stop = Math.min(lineEnd, after + MENTION_ATTRIBUTES_MAX); i < stop; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x3e) return i + 1;
    if (code === 0x3c) return -1;
  }
  return -1;
}

/**
 * Whether a place stands inside an inline code span on its line (an odd number of backticks
 * before it). perf: asked at places that only move forward, so the backticks are counted once.
 */
class CodeSpans {
  #line = -1;
  #at = 0;
  #ticks = 0;

  inside(text: string, lineStart: number, at: number): boolean {
    if (lineStart !== this.#line) {
      this.#line = lineStart;
      this.#at = lineStart;
      this.#ticks = 0;
    }
    for (; this.#at < at; this.#at++) if (text.charCodeAt(this.#at) === 0x60) this.#ticks++;
    return this.#ticks % 2 === 1;
  }
}

/**
 * Where the backticks that may open an inline code span around a turn token at `at` are counted
 * from: its line's start, or the end of a call region on that line (a call's own backticks, the
 * fence of DeepSeek V3's arguments, open no span in the answer; a quoted token's region keeps
 * the line's backticks, `` `<|start|>user…<|end|>` ``).
 */
function spanLineStart(text: string, at: number, floor: number, found: readonly FieldRegion[], lines: LineStarts): number {
  const lineStart = lines.startOf(text, at, 0);
  const last = found[found.length - 1];
  return last !== undefined && last.end === floor && last.calls.length > 0 && floor > lineStart ? floor : lineStart;
}

/** Whether only the turn-end family's records open at this hit (its tokens, headers and foreign turns). */
function onlyTurnTokens(hit: OpenerHit): boolean {
  for (const grammar of hit.grammars) if (grammar.family !== 'turn-end') return false;
  return true;
}

let tags: readonly string[] | null = null;

/** Every opener and marker of a field grammar that is a tag (`<…`), one array so `FieldScan` memoises the search. */
function grammarTags(): readonly string[] {
  return (tags ??= [...new Set(FIELD_GRAMMARS.flatMap((g) => [...g.openers, ...g.markers]).filter((t) => t.charCodeAt(0) === 0x3c))]);
}

/** Whether a call body or markup starts at `at`, after blanks. */
function opensBody(text: string, at: number): boolean {
  let i = at;
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i++;
  return BODY_STARTS.includes(text.charAt(i));
}

/**
 * A special-token opener no reader took, mid-line and followed on its line by words that can
 * hold no call (`The [TOOL_CALLS] token marks a call.`), is the token named in prose: its whole
 * line is prose. At a line's start it opens a call that cannot be read (unreadable-token-call.ts).
 */
function tokenMentionLine(text: string, hit: OpenerHit, floor: number, ctx: ComposeContext, scan: FieldScan, lines: LineStarts): FieldRegion | null {
  const newline = scan.earliest(NEWLINE, hit.index);
  const lineEnd = newline < 0 ? text.length : newline;
  // The same token again on the line (`…now:[TOOL_CALLS]get_weather[ARGS]{…}`) is read on its own: the sentence ends there.
  const again = scan.earliest(sameOpener(hit.opener), hit.index + hit.opener.length);
  const end = again >= 0 && again < lineEnd ? again : lineEnd;
  const grammar = hit.grammars.find((g) => (g.family === 'token-section' ? isTokenMention(scan, hit.index, g) : spacedTokenMention(text, hit, scan, g)));
  if (grammar === undefined) return null;
  const lineStart = lineStartAfter(lines.startOf(text, hit.index, floor), floor);
  if (skipBlanks(text, lineStart) >= hit.index) return null;
  const sink = new RegionSink(text, grammar, ctx.registry, ctx.marks, scan);
  sink.proseSpan(lineStart, end);
  return sink.region(lineStart, end);
}

/**
 * Another family's special-token opener (Gemma 4's `<|tool_call>`) that a blank and words with no
 * `{` or `[` follow on its line: named in a sentence (`emits <|tool_call> before each call`), as
 * such a grammar writes its call glued to the token.
 */
function spacedTokenMention(text: string, hit: OpenerHit, scan: FieldScan, grammar: FieldGrammar): boolean {
  if (grammar.family === 'reasoning' || hit.opener.charCodeAt(0) !== 0x3c || hit.opener.charCodeAt(1) !== 0x7c) return false;
  const after = hit.index + hit.opener.length;
  const next = text.charCodeAt(after);
  return (next === 0x20 || next === 0x09) && mentionAfter(scan, after);
}

const BACKTICK: readonly string[] = ['`'];
/** Per reasoning grammar, its closes in an array of their own, so `FieldScan` memoises this search apart from the readers'. */
const BLOCK_CLOSES = new Map<ReasoningGrammar, readonly string[]>();

/**
 * A grammar whose open may be only mentioned: a tag pair (`<think>…</think>`, `<response>…`);
 * not a frame a stop may end (Harmony's analysis) nor a marker with no close (Solar's `<|content|>`).
 */
export function mayBeMentioned(grammar: FieldGrammar): grammar is ReasoningGrammar {
  return isReasoning(grammar) && grammar.stop.length === 0 && grammar.close.length > 0;
}

/**
 * A reasoning open (or an answer wrapper's) that is only mentioned, in a sentence about it: its
 * line is prose (as `mentionLine` reads a call opener), up to a call opener on it. Two narrow
 * cases, both mid-line (a word before it on its line, after the last region):
 *
 *     Use the `<think>` tag to reason.      inline code: a backtick just before the open, and
 *                                           another later on its line
 *     Put it in <answer> tags.              no close of its grammar anywhere after it
 *
 * An open at a line's start is never a mention, so a stream may let a block's body flow as soon
 * as its open has come at a line's start (stream/reasoning-open.ts). vLLM's Qwen3 parser, too,
 * reads no reasoning from an open that has no close.
 */
function reasoningMention(text: string, hit: OpenerHit, known: HitGrammars, floor: number, ctx: ComposeContext, scan: FieldScan, lines: LineStarts): FieldRegion | null {
  let grammar: ReasoningGrammar | undefined;
  const mentionable = known.mentionable;
  // Indexed, no closure: this runs at every opener.
  for (let i = 0; i < mentionable.length && grammar === undefined; i++) {
    const g = mentionable[i]!;
    if (matchAt(text, hit.index, g.open) !== null) grammar = g;
  }
  if (grammar === undefined) return null;
  const open = blockOpenAt(text, hit.index, grammar);
  if (open === null) return null;
  // The line as it stands after the last region: a word written after that region counts.
  const lineStart = Math.max(lines.startOf(text, hit.index, 0), floor);
  if (text.slice(lineStart, hit.index).trim() === '') return null;
  const newline = scan.earliest(NEWLINE, open.bodyAt);
  let lineEnd = newline < 0 ? text.length : newline;
  if (!inInlineCode(text, hit.index, open.bodyAt, lineEnd, scan)) {
    let closes = BLOCK_CLOSES.get(grammar);
    if (closes === undefined) BLOCK_CLOSES.set(grammar, (closes = [...grammar.close]));
    // A close cut by the end of the text (`…</thi`) was being written: the block has one.
    if (scan.earliest(closes, open.bodyAt) >= 0 || blockCloseCut(grammar).at(text, open.bodyAt) !== null) return null;
  }
  // A call written later on the line is still read: the mention stops at the next opener of
  // a call grammar (reasoning markers on its line are part of the mention).
  let next = openers().next(text, open.bodyAt);
  while (next !== null && next.index < lineEnd && next.grammars.every(isReasoning)) next = openers().next(text, next.index + 1);
  if (next !== null && next.index < lineEnd) lineEnd = next.index;
  const sink = new RegionSink(text, grammar, ctx.registry, ctx.marks, scan);
  sink.proseSpan(lineStart, lineEnd);
  return sink.region(lineStart, lineEnd);
}

/**
 * A call grammar's opener written as inline code mid-line (`` Use the `<tool_call>` tag. ``,
 * `` Wrap it in `<tool_call>…</tool_call>`. ``): a sentence about the grammar, read by no reader,
 * so the rest lane keeps its line as prose (plain-run.ts masks inline code the same way). A
 * call quoted as inline code mid-line is a quotation, as the look-alike rules read one.
 */
/** Whether the call opener at `hit` is written as inline code mid-line (`inlineCodeMention` reads its line). */
function isInlineCodeMention(text: string, hit: OpenerHit, known: HitGrammars, floor: number, scan: FieldScan, lines: LineStarts): boolean {
  return !known.reasoningOnly && quotedMidLine(text, hit, floor, scan, lines);
}

/** The line of an opener written as inline code mid-line (`isInlineCodeMention`), as a prose mention. */
function inlineCodeMention(text: string, hit: OpenerHit, floor: number, ctx: ComposeContext, scan: FieldScan, lines: LineStarts): FieldRegion {
  const lineStart = lineStartAfter(lines.startOf(text, hit.index, floor), floor);
  const after = hit.index + hit.opener.length;
  const newline = scan.earliest(NEWLINE, hit.index);
  const lineEnd = newline < 0 ? text.length : newline;
  // The same opener again on the line, a body or a name glued to it (`[TOOL_CALLS]get_weather[ARGS]{…}`)
  // after it and no backtick before it: that one opens the call.
  const again = scan.earliest(sameOpener(hit.opener), after);
  const opens = again >= 0 && again < lineEnd && text.charCodeAt(again - 1) !== 0x60 && (opensBody(text, again + hit.opener.length) || isIdentStart(text.charCodeAt(again + hit.opener.length)));
  const end = opens ? again : lineEnd;
  // A block closed before the mention on its line (`<tool_call>look(…)</tool_call> then a
  // <tool_call> tag.`) is a call, not part of the sentence: the mention begins after its close.
  const start = Math.max(lineStart, blockClosedBefore(text, Math.max(lineStart, floor), hit));
  const sink = new RegionSink(text, hit.grammars[0]!, ctx.registry, ctx.marks, scan);
  sink.proseSpan(start, end);
  return { ...sink.region(start, end), mention: true };
}

/**
 * The code block the answer opened that holds a reasoning marker at `hit` (`fences` says it is
 * open there): prose as written, from its opening fence line to its closing one, or to the end
 * of the text when it never closes (Markdown shows the rest as code too). The marker is the
 * sample's text, not a block: an example of a reasoning model's output.
 */
function fencedSample(text: string, hit: OpenerHit, fences: AnswerFences, ctx: ComposeContext, scan: FieldScan): FieldRegion {
  const start = fences.openedAt;
  const end = blockEndAfter(text, hit.index, fences.kind);
  const sink = new RegionSink(text, hit.grammars[0]!, ctx.registry, ctx.marks, scan);
  sink.proseSpan(start, end);
  return { ...sink.region(start, end), sample: true };
}

/** The hit is a reasoning grammar's close (`</think>`, Apriel's `[BEGIN FINAL RESPONSE]`), not an open. */
function isReasoningClose(hit: OpenerHit): boolean {
  if (hit.opener.startsWith('</')) return true;
  return hit.grammars.some((g) => isReasoning(g) && g.close.includes(hit.opener) && !g.open.includes(hit.opener));
}

/**
 * A marker written as inline code after other text on its line (`` Use the `<tool_call>` tag. ``,
 * `` If you see a stray `</think>`, … ``): one backtick right before it, another later on its
 * line, and its line (begun no earlier than `floor`, the last region's end) holding text before
 * the first. A sentence about the marker: a close so written ends no reasoning.
 */
function quotedMidLine(text: string, hit: OpenerHit, floor: number, scan: FieldScan, lines: LineStarts): boolean {
  const tick = hit.index - 1;
  if (text.charCodeAt(tick) !== 0x60 || text.charCodeAt(tick - 1) === 0x60) return false;
  if (skipBlanks(text, lineStartAfter(lines.startOf(text, hit.index, floor), floor)) >= tick) return false;
  const newline = scan.earliest(NEWLINE, hit.index);
  return inInlineCode(text, hit.index, hit.index + hit.opener.length, newline < 0 ? text.length : newline, scan);
}

/** A marker at [at, after) written as inline code: a backtick just before it, another after it on its line. */
function inInlineCode(text: string, at: number, after: number, lineEnd: number, scan: FieldScan): boolean {
  if (text.charCodeAt(at - 1) !== 0x60) return false;
  const tick = scan.earliest(BACKTICK, after);
  return tick >= 0 && tick < lineEnd;
}

/**
 * The body of a visible answer that follows a region (`FieldRegion.verbatimBody`: Harmony's
 * `final` or `commentary` message), from `at`: prose as written up to the first of its ends,
 * which is left for what follows. No grammar reads a call in it (in Harmony a call is a message
 * with a recipient), so `Here is the JSON: {"name": …}` stays the answer's text. Cut off by the
 * end of the text inside an end (`…<|ret`), the region takes the fragment: the marker had
 * begun. Null for an empty body.
 */
export function answerBodyRegion(text: string, at: number, body: VerbatimBody, ctx: ComposeContext, scan: FieldScan): FieldRegion | null {
  const ends = answerBodyEnds(body);
  const stop = scan.earliest(ends, at);
  const bodyEnd = stop >= 0 ? stop : (bodyEndCut(ends).at(text, at)?.at ?? text.length);
  const end = stop >= 0 ? stop : text.length;
  if (end <= at) return null;
  const sink = new RegionSink(text, body.grammar, ctx.registry, ctx.marks, scan);
  sink.proseSpan(at, bodyEnd);
  return { ...sink.region(at, end), answerBody: true };
}

const BODY_ENDS = new WeakMap<readonly string[], readonly string[]>();

/**
 * What ends an answer's body: its grammar's ends, and a special token that ends a turn
 * (`<|endoftext|>`, written out when a server did not skip it), which carries no content and is
 * read as such after the body. One array per body kind, so `FieldScan` memoises the search.
 */
export function answerBodyEnds(body: VerbatimBody): readonly string[] {
  let ends = BODY_ENDS.get(body.ends);
  if (ends === undefined) {
    ends = [...new Set([...body.ends, ...TURN_END.tokens])];
    BODY_ENDS.set(body.ends, ends);
  }
  return ends;
}

const BODY_END_CUTS = new WeakMap<readonly string[], MarkersCutAtEnd<null>>();

/** An answer body's end cut off by the text's end: two characters of one count (`…<|ret`). */
function bodyEndCut(ends: readonly string[]): MarkersCutAtEnd<null> {
  let index = BODY_END_CUTS.get(ends);
  if (index === undefined) BODY_END_CUTS.set(ends, (index = new MarkersCutAtEnd(ends.map((marker) => ({ owner: null, marker })), CUT_IN_BLOCK)));
  return index;
}

const ORPHAN_CLOSING = (): MarkersCutAtEnd<ReasoningGrammar> => closesCutAtEnd(REASONING_BLOCKS.filter((g) => g.orphanUnflagged), CUT_ALONE);
const STRAY_CLOSING = (): MarkersCutAtEnd<ReasoningGrammar> =>
  closesCutAtEnd(
    FIELD_GRAMMARS.filter((g): g is ReasoningGrammar => isReasoning(g) && g.close.length > 0 && g.close.every((close) => g.openers.includes(close))),
    CUT_ALONE,
  );
let orphanClosing: MarkersCutAtEnd<ReasoningGrammar> | null = null;
let strayClosing: MarkersCutAtEnd<ReasoningGrammar> | null = null;
let inAnyBlock: MarkersCutAtEnd<ReasoningGrammar> | null = null;

/**
 * `found` (the regions of `text`) with a reasoning close that the end of the text cut off after
 * the last of them read as that close would be: with no region before it (and the orphan rule
 * on), it ends reasoning the prompt opened (`abc</thi`: reasoning `abc`); otherwise it is a
 * stray close's start, a marker (`Answer.</thi`: prose `Answer.`). Either way the fragment
 * reaches neither prose nor reasoning, as a whole close would not. The fragment must be more
 * than half its close (`</thi`, not `</th`, which HTML writes too).
 */
function withCloseCutAtEnd(text: string, found: FieldRegion[], orphansEnd: boolean, ctx: ComposeContext, scan: FieldScan | null): FieldRegion[] {
  const from = found.length === 0 ? 0 : found[found.length - 1]!.end;
  if (from >= text.length) return found;
  const orphan = found.length === 0 && orphansEnd;
  const cut = (orphan ? (orphanClosing ??= ORPHAN_CLOSING()) : (strayClosing ??= STRAY_CLOSING())).at(text, from);
  if (cut === null) return found;
  const sink = new RegionSink(text, cut.owner, ctx.registry, ctx.marks, scan ?? new FieldScan(text, ctx.registry));
  if (orphan) sink.reasoningSpan(0, cut.at);
  found.push(sink.region(orphan ? 0 : cut.at, text.length));
  return found;
}

/** Line starts for increasing offsets, each found by looking back only to the previous offset. */
/**
 * The start of a sentence that may name an opener: its line's start, or, after a region that
 * ended on that line (`found` is -1), the region's end, as in the text a stream holds after
 * releasing that region.
 */
function lineStartAfter(found: number, floor: number): number {
  return found < 0 ? floor : found;
}

class LineStarts {
  #at = 0;
  #start = 0;

  /** The start of the line holding `index`, or -1 when it lies before `floor`. */
  startOf(text: string, index: number, floor: number): number {
    let i = index - 1;
    while (i >= this.#at && text.charCodeAt(i) !== 0x0a) i--;
    const start = i >= this.#at ? i + 1 : this.#start;
    this.#at = index;
    this.#start = start;
    return start < floor ? -1 : start;
  }
}

const UNMARKED_FIRST = FIELD_GRAMMARS.filter((grammar) => grammar.family === 'token-section' && grammar.unmarkedFirstSegment === true);

/**
 * Whether a response whose first non-blank line is `line` may begin with an unmarked first
 * segment (`unmarkedFirstRegion`): that line, trimmed, is a segment head a reader takes there
 * (a prose head such as Functionary's `all`, or a registered name). Until a region comes, a
 * stream releases a response's first plain lines only when it cannot.
 */
export function mayHeadUnmarkedSegment(line: string, ctx: ComposeContext): boolean {
  const head = line.trim();
  for (const grammar of UNMARKED_FIRST) if (grammar.family === 'token-section' && grammar.proseHeads?.includes(head) === true) return true;
  return ctx.registry?.byName.has(head) === true;
}

/**
 * Whether `held`, the start of a response, may still begin with an unmarked first segment whose
 * grammar's opener has not come: its first line that is not blank is ended and may head one
 * (`mayHeadUnmarkedSegment`), and no such opener follows in it. Until one does, a stream
 * releases nothing: the segment may read on to the end of the text (raw code does), or stop at
 * an opener still to come.
 */
export function awaitsUnmarkedOpener(held: string, ctx: ComposeContext): boolean {
  for (let at = 0; at < held.length; ) {
    const nl = held.indexOf('\n', at);
    if (nl < 0) return false;
    const line = held.slice(at, nl + 1);
    at = nl + 1;
    if (line.trim() === '') continue;
    if (!mayHeadUnmarkedSegment(line, ctx)) return false;
    return !UNMARKED_FIRST.some((grammar) => grammar.family === 'token-section' && grammar.callOpen.some((open) => held.includes(open, at)));
  }
  return false;
}

/** Where the first line of `text` (a segment head) ends, or -1 when it is longer than a head may be. */
function headLineEnd(text: string): number {
  return indexWithin(text, '\n', skipSpace(text, 0), FIELD_NAME_MAX);
}

/** Whether `text` may begin with an unmarked first segment: its first line is a head a reader takes there. */
function mayBeginUnmarked(text: string, ctx: ComposeContext): boolean {
  if (UNMARKED_FIRST.length === 0) return false;
  const end = headLineEnd(text);
  return end > 0 && mayHeadUnmarkedSegment(text.slice(0, end), ctx);
}

/**
 * The segment at the start of `text` of a grammar whose first opener sat in the prompt, or
 * null. It ends before that grammar's next opener when one follows; a prose head's text also
 * ends where any other opener stands after the head (that grammar's region may begin there).
 */
function unmarkedFirstRegion(text: string, ctx: ComposeContext, scan: FieldScan, detect: OpenerDetector): FieldRegion | null {
  const proseStop = detect.next(text, headLineEnd(text) + 1)?.index ?? text.length;
  for (const grammar of UNMARKED_FIRST) {
    const opener = grammar.family === 'token-section' ? scan.earliest(grammar.callOpen, 0) : -1;
    if (opener === 0) continue;
    const sink = new RegionSink(text, grammar, ctx.registry, ctx.marks, scan);
    const end = readUnmarkedRegion(scan, grammar, sink, proseStop);
    if (end > 0 && (opener < 0 || end <= opener)) return sink.region(0, end);
  }
  return null;
}

/** The reasoning blocks with markers of their own (not plain words, `ReasoningGrammar.closeRequired`). */
const REASONING_BLOCKS = FIELD_GRAMMARS.filter((g): g is ReasoningGrammar => isReasoning(g) && g.role === 'reasoning' && g.closeRequired !== true);

/**
 * Under `reasoning_started`, whether the model wrote the open itself (`<think>`, `[THINK]`,
 * Harmony's analysis header) before anything but blanks: the block then reads as any block
 * does, from that open to its own close (vLLM's reasoning parsers strip such an open too).
 */
export function opensWithReasoning(text: string): boolean {
  const at = skipJsonSpace(text, 0);
  return REASONING_BLOCKS.some((grammar) => blockOpenAt(text, at, grammar) !== null);
}

/**
 * The closes that end a reasoning frame but are never orphans (Harmony's and Solar's `<|end|>`):
 * under `reasoning_started` one does not end the reasoning, but written last, just before what
 * does (an answer wrapper's marker, a close, the end of the text), it is that frame's end: a
 * marker, not reasoning.
 */
export const FRAME_ENDS: readonly string[] = [
  ...new Set(REASONING_BLOCKS.flatMap((g) => (g.suffix === null ? g.close.filter((close) => !g.orphanClose.includes(close)) : []))),
];

let orphans: readonly string[] | null = null;

/** Every close that may end reasoning the prompt opened, one array so `FieldScan` memoises the search. */
function orphanCloses(): readonly string[] {
  return (orphans ??= [...new Set(REASONING_BLOCKS.flatMap((g) => g.orphanClose))]);
}

/** Where the reasoning the prompt opened stops, when what ends it stands at `end`: before a frame end written last. */
export function startedBodyEnd(text: string, end: number): number {
  let at = end;
  while (at > 0 && isJsonSpace(text.charCodeAt(at - 1))) at--;
  for (const close of FRAME_ENDS) if (at >= close.length && text.startsWith(close, at - close.length)) return at - close.length;
  return end;
}

/**
 * The regions of `text`, in order. Besides the readers' regions, four rules need the text before
 * a marker, so they live here, not in a (forward-only) reader:
 *
 * - `reasoning_started`: the prompt opened the reasoning block, so the text up to the first
 *   orphan-capable close (or an answer wrapper's marker, which stays) is reasoning (all of it
 *   when there is none), whatever it holds; unless the response begins with an open itself
 *   (`opensWithReasoning`).
 * - a mention: an open mid-line in a sentence about it (`reasoningMention`) makes its line prose.
 * - the orphan close: when no region came before it, the text from the start of the response
 *   up to the first such close is reasoning.
 * - the unmarked first segment: a grammar whose template ends the prompt with its first
 *   opener (Functionary's `>>>`) reads the start of the response as a segment when its opener
 *   follows (`unmarkedFirstRegion`).
 *
 * A reasoning marker inside a complete block of the reference grammar belongs to that block.
 */
/** How a stream reads the text after a region it has already released (src/compose/stream). */
export interface RegionReading {
  /** A region came before this text: `reasoning_started` and the orphan-close rule are spent. */
  readonly afterRegion?: boolean;
  /** Receives the position of every opener no reader took (the stream may not release past one). */
  readonly rejected?: number[];
  /** The text begins inside a visible answer's body whose header was released before it. */
  readonly inBody?: VerbatimBody;
}

export function fieldRegions(text: string, ctx: ComposeContext, reading: RegionReading = {}): FieldRegion[] {
  const found: FieldRegion[] = [];
  const detect = openers();
  const afterRegion = reading.afterRegion === true;
  const started = !afterRegion && ctx.reasoningStarted === true && !opensWithReasoning(text);
  // An explicit `reasoning_started: false` says the prompt opened no block, so a close with no
  // open is a stray marker, never the end of reasoning.
  const orphansEnd = !afterRegion && ctx.reasoningStarted !== false;
  // A stream's text that begins inside an answer's body: that body first, then what follows it.
  const resumed = reading.inBody === undefined ? null : answerBodyRegion(text, 0, reading.inBody, ctx, new FieldScan(text, ctx.registry));
  // perf: the first search doubles as the "no marker at all" probe, so a text whose only
  // marker is at its end (an orphan close after long reasoning) is swept once, not twice.
  const first = detect.next(text, resumed?.end ?? 0);
  if (resumed !== null) found.push(resumed);
  // The unmarked first segment begins the response only, never text after a released region.
  const unmarkedMayBegin = !afterRegion && !started && mayBeginUnmarked(text, ctx);
  if (!started && first === null && !unmarkedMayBegin) return withCloseCutAtEnd(text, found, orphansEnd, ctx, null);
  const scan = new FieldScan(text, ctx.registry);
  // Whether calls, and whether reasoning, stand before the hit being read (`lateCloseRegion`).
  let callsBefore = false;
  let reasoningBefore = false;
  const keep = (region: FieldRegion): void => {
    found.push(region);
    if (region.calls.length > 0) callsBefore = true;
    if (region.reasoning.length > 0) reasoningBefore = true;
    // Reasoning, or the turn's header, that opens the text: what follows starts the visible answer.
    const unseen = (region.reasoning.length > 0 || region.grammar === TURN_HEADER.id || region.grammar === SEQUENCE_START.id) && region.prose.length === 0 && region.calls.length === 0;
    if (unseen && region.start <= skipSpace(text, scan.answerFrom)) scan.answerFrom = region.end;
  };
  // An answer that follows opening reasoning on the same line (`</think> [look(q='x')]`) begins
  // as a line does: a line-start opener counts at its first character.
  const nextHit = (at: number): OpenerHit | null => {
    const hit = detect.next(text, at);
    if (at === 0 || at !== scan.answerFrom) return hit;
    const lead = skipBlanks(text, at);
    return hit !== null && hit.index <= lead ? hit : (detect.lineOpenerAt(text, lead) ?? hit);
  };
  const blocks = new ReferenceBlocks(scan);
  const fences = new AnswerFences(scan);
  const spans = new CodeSpans();
  let from = resumed?.end ?? 0;
  let hit = first;
  if (started) {
    for (; hit !== null; hit = detect.next(text, hit.index + 1)) {
      const orphan = orphanCloseAt(text, hit, true);
      if (orphan !== null) {
        const end = orphan.end;
        keep(reasoningRegion(text, orphan.grammar, ctx, scan, startedBodyEnd(text, hit.index), end));
        from = end;
        break;
      }
      // An answer wrapper's marker ends the reasoning too, and so does a call section's opener
      // when no close follows (the block was never closed); it is read as usual below.
      const endsReasoning = matchAt(text, hit.index, unclosedReasoningEnds()) !== null || CALL_HEADS_ENDING_REASONING.some((head) => isCallHeadAt(text, hit!.index, head));
      if (hit.grammars.some((g) => isReasoning(g) && g.role === 'answer') || (endsReasoning && scan.earliest(orphanCloses(), hit.index) < 0)) {
        keep(reasoningRegion(text, THINK, ctx, scan, startedBodyEnd(text, hit.index), hit.index));
        from = hit.index;
        break;
      }
    }
    if (hit === null) {
      // Cut off inside a close that would end it (`…</thi`): the fragment is that close begun.
      const cut = (inAnyBlock ??= closesCutAtEnd(REASONING_BLOCKS, CUT_IN_BLOCK)).at(text, 0);
      return [reasoningRegion(text, THINK, ctx, scan, startedBodyEnd(text, cut?.at ?? text.length), text.length)];
    }
    hit = nextHit(from);
  }
  // A grammar's first opener may have sat in the prompt: the response's first segment reads as that grammar's.
  if (unmarkedMayBegin) {
    const unmarked = unmarkedFirstRegion(text, ctx, scan, detect);
    if (unmarked !== null) {
      keep(unmarked);
      from = unmarked.end;
      hit = detect.next(text, from);
    }
  }
  // Where the last region ended: reference blocks are looked for from there.
  let floor = from;
  // perf: a reader that answers -1 leaves its sink empty, so one sink serves every failed
  // attempt (at the seed-shaped response's 250 `<tool_call>` openers, six grammars each refuse
  // the reference body): the gateway parse of that response went from 29.8 to 23.8 bytes
  // allocated per input byte (V8 sampling heap profile); and a region hands its lists off and
  // leaves the sink empty for the next opener.
  let spare: RegionSink | null = null;
  const lines = new LineStarts();
  for (; hit !== null; hit = nextHit(from)) {
    // A stream's text after a released region does not begin the response.
    const opener = hit.opener;
    if (afterRegion && hit.grammars.every((g) => g.openAt === 'response-start' || g.responseOpeners?.includes(opener) === true)) {
      from = hit.index + 1;
      continue;
    }
    // An opener made of one repeated character inside a longer run of it (`>>>>>>> REPLACE`, a
    // merge conflict's or Aider's marker, for Functionary's `>>>`) is that run, not the opener.
    if (inLongerRun(text, hit.index, opener)) {
      from = hit.index + 1;
      continue;
    }
    const known = hitGrammars(hit.grammars);
    const reasoningOnly = known.reasoningOnly;
    if (reasoningOnly && blocks.inside(hit.index, floor)) {
      from = hit.index + 1;
      continue;
    }
    // A reasoning marker in a code block the answer opened (a sample showing `<think>…</think>`):
    // the block is the sample's text, a close in it too (no orphan).
    if (reasoningOnly && fences.inside(hit.index, floor)) {
      const sample = fencedSample(text, hit, fences, ctx, scan);
      keep(sample);
      from = floor = sample.end;
      continue;
    }
    // A Markdown blockquote line quotes what it holds (`> <tool_call>…`): no opener on it is
    // read, and the rest lane keeps the line as written (lex/inline-code.ts masks it). Its line
    // begins no earlier than the last region's end, as the rest piece after that region does.
    if (blockquoteTextAt(text, lineStartAfter(lines.startOf(text, hit.index, floor), floor)) >= 0) {
      from = hit.index + 1;
      continue;
    }
    // A reasoning close quoted as inline code mid-line is a sentence about it: the rest lane
    // keeps the span as written (lex/inline-code.ts masks it).
    if (reasoningOnly && isReasoningClose(hit) && quotedMidLine(text, hit, floor, scan, lines)) {
      from = hit.index + 1;
      continue;
    }
    // Another role's turn written in a code block or span is a sample of a chat template's text;
    // so is any turn token in a code span (`stop=["<|im_end|>"]`): quoted, never written out.
    if (onlyTurnTokens(hit) && (spans.inside(text, spanLineStart(text, hit.index, floor, found, lines), hit.index) || (hit.grammars[0] === TURN_FOREIGN && fenceMarkBefore(scan, floor, hit.index) && fences.inside(hit.index, floor)))) {
      from = hit.index + 1;
      continue;
    }
    // A call opener inside a code block the answer opened, past the block's first text (a
    // program's string, an example after its introduction): the block is the sample's text.
    // perf: the fences are swept only where a fence's characters stand between the last region and the opener.
    // A block the model never closed (it forgot, before calling) is no sample: the call is read,
    // and a stream holds it while a closing line may still come.
    let inOpenBlock = false;
    // An opener that is itself the block's closing fence line (a look-alike list's "```⏎[" right
    // after a block) stands after the block, not in it.
    if (!reasoningOnly && fenceMarkBefore(scan, floor, hit.index) && fences.inside(hit.index, floor) && fenceLineAt(text, hit.index) !== fences.kind && !callPlaceInFence(text, fences.openedAt, hit.index, CALL_FENCE_INFOS)) {
      if (fences.closes(hit.index)) {
        const sample = fencedSample(text, hit, fences, ctx, scan);
        keep(sample);
        from = floor = sample.end;
        continue;
      }
      inOpenBlock = true;
    }
    const orphan = orphansEnd && found.length === 0 ? orphanCloseAt(text, hit, false) : null;
    if (orphan !== null) {
      const end = orphan.end;
      keep(reasoningRegion(text, orphan.grammar, ctx, scan, hit.index, end));
      from = floor = end;
      continue;
    }
    const mentioned = reasoningMention(text, hit, known, floor, ctx, scan, lines);
    if (mentioned !== null) {
      keep(mentioned);
      from = floor = mentioned.end;
      continue;
    }
    if (orphansEnd && callsBefore && !reasoningBefore) {
      const late = orphanCloseAt(text, hit, false);
      if (late !== null && late.end > hit.index) {
        keep(lateCloseRegion(text, late.grammar, hit.index, late.end, ctx, scan));
        from = floor = late.end;
        continue;
      }
    }
    if (isInlineCodeMention(text, hit, known, floor, scan, lines)) {
      // A tag is left to the rest lane, which masks such spans (lex/inline-code.ts), so the
      // paragraph keeps its lines as written; a token the rest lane may read (`[TOOL_CALLS]`,
      // `<|…|>`) is prose here, its line a mention. perf: the tag's case builds no region, so
      // a line of many quoted tags (`` `<tool_call>`<tool_call>… ``) is not sliced at each.
      if (hit.opener.charCodeAt(0) === 0x3c && !isTokenBar(hit.opener.charCodeAt(1)) && hit.opener.charCodeAt(1) !== 0x3c) {
        // A span the rest lane masks whole (tags only, a call quoted as inline code) has no
        // opener in it read either: `` `<tool_call><function=f>…</tool_call>` `` is no call.
        const close = scan.earliest(BACKTICK, hit.index);
        from = close > hit.index && quotesTagsOnly(text, hit.index, close) ? close : hit.index + 1;
      } else {
        const quoted = inlineCodeMention(text, hit, floor, ctx, scan, lines);
        keep(quoted);
        from = floor = quoted.end;
      }
      continue;
    }
    let end = -1;
    // perf: a reference-grammar call (`<tool_call>look({…})`) is read by none of the grammars
    // sharing its opener (reference-head.ts), so they are not tried one by one: at the
    // seed-shaped response's 250 such openers, six readers each refused it: the regions of that
    // response took 618 µs of CPU, now 129 µs, and its gateway parse 0.76x the time. A JSON
    // body there skips the token-section grammars, which never read one: 80 KB of Hermes calls
    // and the reasoning-family row, 0.88x and 0.87x the time; so does a markup body (80 KB of
    // Qwen3-Coder calls, `<tool_call>\n<function=…`: 0.82x).
    const grammars = grammarsToTry(text, hit);
    for (let g = 0; g < grammars.length; g++) {
      const grammar = grammars[g]!;
      spare = spare === null ? new RegionSink(text, grammar, ctx.registry, ctx.marks, scan) : spare.reuseFor(grammar);
      end = readRegion(scan, hit.index, grammar, spare);
      if (end > hit.index) {
        const framed = withFenceFrame(text, spare.handOff(hit.index, end), floor);
        const region = inOpenBlock ? { ...framed, inOpenBlock: true as const } : framed;
        keep(region);
        end = region.end;
        // A visible answer's body after it is read as written (`answerBodyRegion`).
        const body = region.verbatimBody === undefined ? null : answerBodyRegion(text, end, region.verbatimBody, ctx, scan);
        if (body !== null) {
          keep(body);
          end = body.end;
        }
        floor = end;
        break;
      }
    }
    if (end <= hit.index) {
      // A refused opener, or a mention line (decided by what comes later): a stream may not
      // release past either, unless no later text can make a reader take the opener.
      if (reading.rejected !== undefined && !refusedForGood(scan, hit.index, grammars)) reading.rejected.push(hit.index);
      const mention =
        mentionLine(text, hit, floor, ctx, scan, lines) ??
        tokenMentionLine(text, hit, floor, ctx, scan, lines) ??
        unreadableTokenCall(text, hit, floor, ctx, scan, (at) => openers().next(text, at)?.index ?? -1);
      if (mention !== null) {
        keep(mention);
        end = floor = mention.end;
      }
    }
    from = end > hit.index ? end : hit.index + 1;
  }
  return withCloseCutAtEnd(text, found, orphansEnd, ctx, scan);
}

/** A special token's bar after its `<`: `|`, or the full-width `｜` of DeepSeek's tokens (`<｜tool▁calls▁begin｜>`). */
function isTokenBar(code: number): boolean {
  return code === 0x7c || code === 0xff5c;
}

/** Whether `opener`, one character repeated, stands at `at` with that character right before or after it. */
function inLongerRun(text: string, at: number, opener: string): boolean {
  const code = opener.charCodeAt(0);
  if (opener.length < 2 || (text.charCodeAt(at + opener.length) !== code && (at === 0 || text.charCodeAt(at - 1) !== code))) return false;
  for (let i = 1; i < opener.length; i++) if (opener.charCodeAt(i) !== code) return false;
  return true;
}

/**
 * Whether every grammar tried at a refused opener refuses it whatever text comes after: only the
 * look-alike reader's bounded probe says so (a Markdown link's `[`, an object whose first key
 * names no call), and no mention reading applies to its line-start openers.
 */
function refusedForGood(scan: FieldScan, at: number, grammars: readonly FieldGrammar[]): boolean {
  if (grammars.length === 0) return false;
  for (const grammar of grammars) if (grammar.family !== 'look-alike' || !lookalikeRefusedForGood(scan, at, grammar)) return false;
  return !mayOpenOtherGrammar(scan.text, at);
}

/** Each first character of another family's opener, and the openers it begins (made once). */
let otherOpeners: Map<number, string[]> | null = null;

/**
 * Whether an opener of another family stands at `at`, or may once more text comes: `[THINK]`,
 * `[TOOL_REQUEST]` and `[BEGIN FINAL RESPONSE]` begin with the look-alike list's `[`, and the
 * text may end inside them.
 */
function mayOpenOtherGrammar(text: string, at: number): boolean {
  if (otherOpeners === null) {
    otherOpeners = new Map();
    for (const grammar of FIELD_GRAMMARS) {
      if (grammar.family === 'look-alike') continue;
      for (const opener of [...grammar.openers, ...(grammar.responseOpeners ?? [])]) {
        const code = opener.charCodeAt(0);
        otherOpeners.set(code, [...(otherOpeners.get(code) ?? []), opener]);
      }
    }
  }
  const rest = text.length - at;
  for (const opener of otherOpeners.get(text.charCodeAt(at)) ?? []) {
    if (rest >= opener.length ? text.startsWith(opener, at) : opener.startsWith(text.slice(at))) return true;
  }
  return false;
}

/** For a stream: whether no later text can make a reader take the opener at `at` of `text`, which `grammars` open. */
export function openerRefusedForGood(text: string, at: number, grammars: readonly FieldGrammar[], ctx: ComposeContext): boolean {
  return refusedForGood(new FieldScan(text, ctx.registry), at, grammars);
}

/** `ordered`: whether the turn's parts in document order are wanted (see `assembleRegions`). */
export function fieldLane(text: string, ctx: ComposeContext, restLane: RestLane, ordered = true): LaneResult | null {
  const regions = fieldRegions(text, ctx);
  if (regions.length === 0) return null;
  return assembleRegions(text, withCutMarkerAtEnd(text, regions, ctx), restLane, text.length, ordered);
}

/**
 * The lane result of `text` up to `end` from its regions (those that end by `end`): each piece
 * between regions read by `restLane` on its own, everything in document order; with `ordered`,
 * the result's `parts` say that order.
 */
export function assembleRegions(text: string, regions: readonly FieldRegion[], restLane: RestLane, end: number, ordered = true): LaneResult {
  const calls: ToolCall[] = [];
  const errors: string[] = [];
  const dropped: DroppedFragment[] = [];
  const violations: ProtocolViolation[] = [];
  const prose: string[] = [];
  const reasoning: string[] = [];
  // perf: the canonical text is written as the parts come (as `renderParts` joins them), not
  // kept as a part object per call and per prose piece and rendered at the end.
  let canonical = '';
  // The separator before the next block: none before the first.
  let lead = '';
  // The parts in order are for output shapes that place them and for streams; a caller that
  // wants neither gets none (perf: an object per call and per prose piece).
  const order: TurnPart[] | null = ordered ? [] : null;
  let userResponse: string | null = null;
  let doneMarker: string | null = null;
  let recovered = 0;
  const plain = restLane.plain;
  const takeRest = (piece: string): void => {
    const trimmed = piece.trim();
    if (trimmed === '') return;
    if (plain !== undefined && plain(piece)) {
      prose.push(trimmed);
      canonical += proseBlock(trimmed, lead);
      lead = BLOCK_SEPARATOR;
      order?.push({ kind: 'text', text: trimmed });
      dropped.push(dropEntry(trimmed, 'salvaged_as_prose'));
      return;
    }
    const rest = restLane(piece);
    const firstCall = calls.length;
    appendAll(calls, rest.calls);
    appendAll(errors, rest.tool_parse_errors);
    appendAll(dropped, rest.dropped);
    appendAll(violations, rest.protocol_violations);
    if (rest.prose !== '') {
      prose.push(rest.prose);
      canonical += proseBlock(rest.prose, lead);
      lead = BLOCK_SEPARATOR;
      order?.push({ kind: 'text', text: rest.prose });
    }
    for (let i = 0; i < rest.calls.length; i++) {
      const call = rest.calls[i]!;
      canonical += callBlock(call.name, call.arguments, lead);
      lead = BLOCK_SEPARATOR;
      order?.push({ kind: 'call', index: firstCall + i });
    }
    userResponse ??= rest.user_response;
    doneMarker ??= rest.done_marker;
    recovered += rest.recovered_from_stray_count;
  };
  const takeCall = (call: ToolCall): void => {
    order?.push({ kind: 'call', index: calls.length });
    calls.push(call);
    canonical += callBlock(call.name, call.arguments, lead);
    lead = BLOCK_SEPARATOR;
  };
  let cursor = 0;
  for (const region of regions) {
    if (region.end > end) break;
    takeRest(text.slice(cursor, region.start));
    appendAll(errors, region.errors);
    appendAll(dropped, region.dropped);
    appendAll(violations, region.violations);
    const parts = region.parts;
    if (parts === null) {
      for (let i = 0; i < region.calls.length; i++) takeCall(region.calls[i]!);
    } else {
      for (const part of parts) {
        if (part.kind === 'call') takeCall(part.call);
        else if (part.kind === 'prose') {
          prose.push(part.text);
          canonical += proseBlock(part.text, lead);
          lead = BLOCK_SEPARATOR;
          order?.push({ kind: 'text', text: part.text });
        } else {
          reasoning.push(part.text);
          // The result's own record (the region's part is the lane's).
          order?.push({ kind: 'reasoning', text: part.text });
        }
      }
    }
    cursor = region.end;
  }
  if (end > cursor) takeRest(text.slice(cursor, end));
  return {
    calls,
    prose: prose.join('\n\n'),
    reasoning: joinReasoning(reasoning),
    user_response: userResponse,
    done_marker: doneMarker,
    canonical_text: canonical,
    tool_parse_errors: errors,
    protocol_violations: violations,
    dropped,
    recovered_from_stray_count: recovered,
    ...(order === null ? {} : { parts: order }),
  };
}

/** Between two blocks of the canonical text (as `renderParts` joins them). */
const BLOCK_SEPARATOR = '\n\n';

/** One block is returned as read (no copy); several are joined by a blank line. */
function joinReasoning(blocks: readonly string[]): string | null {
  if (blocks.length === 0) return null;
  return blocks.length === 1 ? blocks[0]! : blocks.join('\n\n');
}
