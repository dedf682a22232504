/**
 * The reasoning family's reader: a thinking block, an answer wrapper's marker, or a stray close.
 *
 *     <think>BODY</think>      BODY -> sink.reasoningSpan; the first close ends it (no nesting)
 *     <think>BODY<end>         cut off: BODY runs to the end of the text
 *     <|channel|>analysis<|message|>BODY<|start|>…   a stop ends BODY and is left for what follows
 *     <|START_RESPONSE|>       an answer marker: the region is the marker; the answer's text is
 *                              read as the text around it (prose, or calls)
 *     </think>                 a stray close: the region is the marker
 *
 * Forward only: nothing before `at` is read. The search for the close is memoised per record
 * (`FieldScan.earliest`), and a suffixed close (Hunyuan) is searched once per block, from the
 * body to the close, which the region then covers; so the work is the bytes of the regions.
 */
import { CALL_HEADS_ENDING_REASONING, CALL_OPENS_ENDING_REASONING, FIELD_GRAMMARS, type ReasoningGrammar } from '../../../dialects/field/index.js';
import { TURN_END } from '../../../dialects/field/turn-end.js';
import { FIELD_NAME_MAX } from '../../../dialects/field/names.js';
import { matchAt } from '../cursor.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';

function isSuffixCode(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d || code === 0x2e
  );
}

/** The end of a `SUFFIX` + `end` after a stem (Hunyuan's `opensource>`), or -1; `at` for a grammar with no suffix. */
export function suffixEnd(text: string, at: number, grammar: ReasoningGrammar): number {
  const suffix = grammar.suffix;
  if (suffix === null) return at;
  let i = at;
  const stop = Math.min(text.length, at + suffix.max);
  while (i < stop && isSuffixCode(text.charCodeAt(i))) i++;
  return i > at && text.startsWith(suffix.end, i) ? i + suffix.end.length : -1;
}

interface BlockEnd {
  /** Where the body stops. */
  readonly body: number;
  /** Where the region stops (after a consumed close). */
  readonly region: number;
}

function blockEnd(scan: FieldScan, bodyStart: number, grammar: ReasoningGrammar, closeLiteral: string | null): BlockEnd {
  const text = scan.text;
  let close: number;
  let closeLength = 0;
  if (closeLiteral !== null) {
    close = text.indexOf(closeLiteral, bodyStart);
    closeLength = closeLiteral.length;
  } else {
    close = grammar.close.length === 0 ? -1 : scan.earliest(grammar.close, bodyStart);
    if (close >= 0) closeLength = matchAt(text, close, grammar.close)!.length;
  }
  const stop = grammar.stop.length === 0 ? -1 : scan.earliest(grammar.stop, bodyStart);
  // A stop that begins with the close (Gemma 4's `<channel|>call:`) wins where both stand.
  if (close >= 0 && (stop < 0 || close < stop)) return { body: close, region: close + closeLength };
  if (stop >= 0) return { body: stop, region: stop };
  // A block never closed ends where an answer begins (`<|START_THINKING|>x<|START_RESPONSE|>y`),
  // or where a call section opens (`<think>x<|tool_calls_section_begin|>…`: the model went on to
  // call, as vLLM's and llama.cpp's readers take it) or the turn ends (`<think>x<|im_end|>`),
  // the marker left for what follows, as
  // under `reasoning_started`. In a block that closes later a call stays reasoning.
  const answer = scan.earliest(answerOpens(), bodyStart);
  const opens = scan.earliest(unclosedReasoningEnds(), bodyStart);
  const head = callHeadEndingReasoning(scan, bodyStart);
  const call = opens < 0 ? head : head < 0 ? opens : Math.min(opens, head);
  const end = answer < 0 ? call : call < 0 ? answer : Math.min(answer, call);
  if (end >= 0) return { body: end, region: end };
  return { body: text.length, region: text.length };
}

/**
 * The earliest call head at or after `from` that ends a reasoning block never closed (GLM's
 * `<tool_call>NAME<arg_key>`, dialects/field/index.ts), or -1. Each opener found is looked at
 * once, over at most a name's length.
 */
export function callHeadEndingReasoning(scan: FieldScan, from: number): number {
  for (const head of CALL_HEADS_ENDING_REASONING) {
    const opens = headOpens(head.open);
    for (let at = scan.earliest(opens, from); at >= 0; at = scan.earliest(opens, at + 1)) {
      if (isCallHeadAt(scan.text, at, head)) return at;
    }
  }
  return -1;
}

/** Whether `<tool_call>NAME` (blanks allowed after the name) and the first `<arg_key>` stand at `at`. */
export function isCallHeadAt(text: string, at: number, head: { readonly open: string; readonly keyOpen: string }): boolean {
  if (!text.startsWith(head.open, at)) return false;
  let i = at + head.open.length;
  const nameAt = i;
  const stop = Math.min(text.length, i + FIELD_NAME_MAX);
  while (i < stop) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x3c || code === 0x3e || code === 0x22 || code === 0x27 || code === 0x7b || code === 0x7d) break;
    i++;
  }
  if (i === nameAt) return false;
  while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d || text.charCodeAt(i) === 0x09)) i++;
  return text.startsWith(head.keyOpen, i);
}

const HEAD_OPENS = new Map<string, readonly string[]>();

/** One array per opener, so `FieldScan` memoises its search. */
function headOpens(open: string): readonly string[] {
  let found = HEAD_OPENS.get(open);
  if (found === undefined) HEAD_OPENS.set(open, (found = [open]));
  return found;
}

let unclosedEnds: readonly string[] | null = null;

/**
 * What ends a reasoning block never closed besides an answer's open: a call's opener written
 * as a special token (dialects/field/index.ts), or a token that ends the turn (the block was cut
 * off with the turn; the token is then read as the turn's end). One array, so `FieldScan`
 * memoises the search.
 */
export function unclosedReasoningEnds(): readonly string[] {
  return (unclosedEnds ??= [...CALL_OPENS_ENDING_REASONING, ...TURN_END.tokens]);
}

let answers: readonly string[] | null = null;

/** Every answer wrapper's open, one array so `FieldScan` memoises the search. */
function answerOpens(): readonly string[] {
  return (answers ??= FIELD_GRAMMARS.flatMap((g) => (g.family === 'reasoning' && g.role === 'answer' ? g.open : [])));
}

/** How many repeats of an open right after it are taken with it. */
const REPEATED_OPENS = 4;

/** The open of `grammar` at `at`: where its body begins and, for a suffixed grammar, the one close that ends it; null when none stands there. */
export function blockOpenAt(text: string, at: number, grammar: ReasoningGrammar): { readonly bodyAt: number; readonly close: string | null } | null {
  const open = matchAt(text, at, grammar.open);
  if (open === null) return null;
  let bodyAt = suffixEnd(text, at + open.length, grammar);
  if (bodyAt < 0) return null;
  // The open written again right after itself (`<|channel><|channel>thought⏎`) is one open:
  // the repeat is a marker, not the body's first text.
  for (let again = 0; again < REPEATED_OPENS && grammar.suffix === null; again++) {
    const repeat = matchAt(text, bodyAt, grammar.open);
    if (repeat === null) break;
    bodyAt += repeat.length;
  }
  // Hunyuan: the close carries the open's suffix, `<think:abc>` … `</think:abc>`; a deployment
  // writes one suffix, so `</think:xyz>` inside that block is text of the block, not its end.
  const close = grammar.suffix === null ? null : `${grammar.close[0] ?? ''}${text.slice(at + open.length, bodyAt)}`;
  return { bodyAt, close };
}

/** The end of a close of `grammar` at `at` (its suffix too: `</think:opensource>`), or -1. */
export function closeEndAt(text: string, at: number, grammar: ReasoningGrammar): number {
  const close = matchAt(text, at, grammar.close);
  return close === null ? -1 : suffixEnd(text, at + close.length, grammar);
}

/** True when `text` ends inside the suffix after an open stem of `grammar` at `at` (`<think:opens`): more text may complete the open. */
export function openCutInSuffix(text: string, at: number, grammar: ReasoningGrammar): boolean {
  const suffix = grammar.suffix;
  const open = suffix === null ? null : matchAt(text, at, grammar.open);
  if (open === null) return false;
  let i = at + open.length;
  while (i < text.length && isSuffixCode(text.charCodeAt(i))) i++;
  return i === text.length && i - (at + open.length) < suffix!.max;
}

export function readReasoning(scan: FieldScan, at: number, grammar: ReasoningGrammar, sink: RegionSink): number {
  const text = scan.text;
  const open = blockOpenAt(text, at, grammar);
  if (open === null) {
    if (matchAt(text, at, grammar.open) !== null) return -1;
    return closeEndAt(text, at, grammar);
  }
  const bodyStart = open.bodyAt;
  if (grammar.role === 'answer') {
    // An answer read as written (Harmony's final channel): the lane reads its body (lane.ts).
    if (grammar.verbatimUntil !== undefined) sink.bodyEnds = grammar.verbatimUntil;
    return bodyStart;
  }
  if (grammar.stopRequired === true) {
    // Plain words: a block only when a stop follows, which is left for what follows.
    const stop = scan.earliest(grammar.stop, bodyStart);
    if (stop < 0) return -1;
    sink.reasoningSpan(bodyStart, stop);
    return stop;
  }
  if (grammar.closeRequired === true) {
    // Plain words: a block only when its close follows at a line's start.
    const close = closeAtLineStart(scan, bodyStart, grammar);
    if (close < 0) return -1;
    sink.reasoningSpan(bodyStart, close);
    return close + matchAt(text, close, grammar.close)!.length;
  }
  const end = blockEnd(scan, bodyStart, grammar, open.close);
  sink.reasoningSpan(bodyStart, end.body);
  return end.region;
}

/** The first close of `grammar` at or after `from` that begins its line (after blanks), or -1. */
function closeAtLineStart(scan: FieldScan, from: number, grammar: ReasoningGrammar): number {
  const text = scan.text;
  for (let at = scan.earliest(grammar.close, from); at >= 0; at = scan.earliest(grammar.close, at + 1)) {
    let i = at - 1;
    while (i >= from && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
    if (i < from || text.charCodeAt(i) === 0x0a) return at;
  }
  return -1;
}
