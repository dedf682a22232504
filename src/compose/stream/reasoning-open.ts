/**
 * Where a stream may let a reasoning block's body flow before the block ends: an open of a
 * reasoning block at a line's start (not a stray close; a suffixed open once its suffix is
 * complete) with no reference-grammar block open before it in the held text (a marker there could be
 * part of that block's arguments). `reasoning_started` streams from the first character, up
 * to any close that may end it or an answer wrapper's marker.
 */
import { CALL_HEADS_ENDING_REASONING, FIELD_GRAMMARS, type ReasoningGrammar } from '../../dialects/field/index.js';
import { isJsonSpace } from '../../lex/codes.js';
import { referenceBlockTags } from '../field/call-markup.js';
import { matchAt } from '../field/cursor.js';
import { fenceOpenAt } from '../field/answer-fences.js';
import { blockOpenAt, openCutInSuffix, unclosedReasoningEnds } from '../field/readers/reasoning.js';

export interface ReasoningOpen {
  /** Where the body begins (relative to the open). */
  readonly bodyAt: number;
  /** What ends the body: the grammar's closes and stops. */
  readonly ends: readonly string[];
}

/** The reasoning family's records but plain-word blocks (`closeRequired`), which never flow before their close. */
function reasoningGrammars(): ReasoningGrammar[] {
  return FIELD_GRAMMARS.filter((g): g is ReasoningGrammar => g.family === 'reasoning' && g.closeRequired !== true);
}

let referenceOpens: readonly string[] | null = null;

/** Only blanks stand before `at` on its line in `held`. */
function atLineStart(held: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const code = held.charCodeAt(i);
    if (code === 0x0a) return true;
    if (!isJsonSpace(code)) return false;
  }
  return true;
}

export function reasoningOpenAt(held: string, at: number): ReasoningOpen | null {
  // Mid-line, an open may be a mention (field/lane.ts, `reasoningMention`): that is decided by
  // what follows it, so its body waits for its region.
  if (!atLineStart(held, at)) return null;
  // In a code block the answer opened, an open is the sample's text (field/lane.ts, `fencedSample`).
  if (fenceOpenAt(held, at)) return null;
  referenceOpens ??= referenceBlockTags().open;
  for (const open of referenceOpens) {
    const i = held.indexOf(open);
    if (i >= 0 && i < at) return null;
  }
  for (const grammar of reasoningGrammars()) {
    if (grammar.role !== 'reasoning') continue;
    const open = blockOpenAt(held, at, grammar);
    if (open === null) continue;
    // A suffixed block ends only with the close that carries its open's suffix. An answer's
    // open ends a block never closed (readers/reasoning.ts): the body waits there.
    const closes = open.close === null ? grammar.close : [open.close];
    return { bodyAt: open.bodyAt - at, ends: [...closes, ...grammar.stop, ...answerOpens(), ...unclosedReasoningEnds(), ...headOpens()] };
  }
  return null;
}

/**
 * True when `reasoningOpenAt` may say more once more text comes: the held text ends inside the
 * suffix of a reasoning open at `at`, inside a longer open of the same grammar than the one
 * written so far (`<|channel>` of `<|channel>thought⏎`), or inside a repeat of the open right
 * after it (`<|channel><|chan`), which the open takes in.
 */
export function reasoningOpenCut(held: string, at: number): boolean {
  return reasoningGrammars().some((grammar) => grammar.role === 'reasoning' && (openCutInSuffix(held, at, grammar) || openMayGrow(held, at, grammar)));
}

function openMayGrow(held: string, at: number, grammar: ReasoningGrammar): boolean {
  // From each open written in a row (the first, then its repeats): the text there may still be
  // a longer open, or the next repeat may be starting.
  let from = at;
  for (let opens = 0; opens <= REPEATS_LOOKED_AT; opens++) {
    if (grammar.open.some((open) => held.length - from < open.length && open.startsWith(held.slice(from)))) return true;
    if (opens > 0 && grammar.suffix !== null) return false;
    const open = matchAt(held, from, grammar.open);
    if (open === null) return false;
    from += open.length;
  }
  return false;
}

/** How many opens in a row `openMayGrow` looks at (the reader takes the open and up to four repeats). */
const REPEATS_LOOKED_AT = 5;

/**
 * What the response's first characters that are not blank (from `at`) say under
 * `reasoning_started`: `opened`, a reasoning open the model wrote itself (field/lane.ts,
 * `opensWithReasoning`); `undecided`, the held text may still grow into one; `prompt`, neither.
 */
export function startedLead(held: string, at: number): 'opened' | 'undecided' | 'prompt' {
  let undecided = false;
  for (const grammar of reasoningGrammars()) {
    if (grammar.role !== 'reasoning') continue;
    if (blockOpenAt(held, at, grammar) !== null) return 'opened';
    if (openCutInSuffix(held, at, grammar) || grammar.open.some((open) => held.length - at < open.length && open.startsWith(held.slice(at)))) undecided = true;
  }
  return undecided ? 'undecided' : 'prompt';
}

/**
 * The openers of call heads that end a block never closed (GLM's `<tool_call>NAME<arg_key>`):
 * the body waits at any of them until the parse has read what follows (a front that stops at a
 * marker the parse reads past only releases less).
 */
function headOpens(): readonly string[] {
  return CALL_HEADS_ENDING_REASONING.map((head) => head.open);
}

let answers: readonly string[] | null = null;

function answerOpens(): readonly string[] {
  return (answers ??= reasoningGrammars().flatMap((g) => (g.role === 'answer' ? g.open : [])));
}

let started: readonly string[] | null = null;

/** What ends reasoning that the prompt opened: any close that may be an orphan, or an answer wrapper's open or close. */
export function startedEnds(): readonly string[] {
  if (started !== null) return started;
  const ends = new Set<string>();
  for (const grammar of reasoningGrammars()) {
    if (grammar.role === 'reasoning') for (const close of grammar.orphanClose) ends.add(close);
    // An answer wrapper's marker ends it, its close too (Kimi K3's template may open
    // `response` in the prompt, so its close can stand with no open). A front that stops at a
    // marker the parse reads past only releases less.
    else for (const marker of [...grammar.open, ...grammar.close]) ends.add(marker);
  }
  // A call section's opener, or a turn's end token, ends it when no close follows (field/lane.ts): the body waits there.
  for (const open of unclosedReasoningEnds()) ends.add(open);
  for (const open of headOpens()) ends.add(open);
  started = [...ends];
  return started;
}
