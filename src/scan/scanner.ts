/**
 * The scan loop (docs/design.md, "Scanner" and "Scan steps"): skip whitespace, take one step, emit
 * exactly one unit, repeat. The emit funnel is the only place a unit enters the list and, with
 * the whitespace skipper, the only code that moves the cursor; it refuses a unit that does not
 * start at the cursor or does not advance, so units plus skipped whitespace tile the source.
 */
import { Code, isUnicodeWhitespace } from '../lex/codes.js';
import type { ScanStats } from '../lex/spans.js';
import { stripThinkingTags } from '../lex/thinking.js';
import { angleCall } from './angle-call.js';
import { reservedBlock } from './call-block.js';
import { compileScanSpec, type CompiledScanSpec } from './compile.js';
import { harmonyLine, harmonySkip } from './harmony.js';
import { fencedLine, tagFragment } from './line-units.js';
import { createScanState, type ScanState } from './state.js';
import { tagEntry } from './tag-units.js';
import { textRun } from './text-run.js';
import type { ScanResult, ScanSpec, Unit } from './types.js';
import { isValidatedScanSpec, validateScanSpec } from './validate.js';

/** Kinds that do not count as a block for the adjacency rule of branch 5. */
function countsAsBlock(unit: Unit): boolean {
  return unit.kind !== 'text' && unit.kind !== 'fenced_line' && unit.kind !== 'tag';
}

/** The inter-unit skipper: ASCII space, tab, LF, FF, CR only (not VT, not Unicode spaces). */
function skipWhitespace(state: ScanState): void {
  const { source, length } = state;
  let at = state.cursor;
  while (at < length) {
    const code = source.charCodeAt(at);
    if (code !== Code.Space && code !== Code.Tab && code !== Code.LineFeed && code !== Code.FormFeed && code !== Code.CarriageReturn) break;
    at++;
  }
  if (state.stats) state.stats.work += at - state.cursor;
  state.cursor = at;
}

/** The emit funnel. */
function emit(state: ScanState, units: Unit[], unit: Unit): void {
  if (unit.start !== state.cursor || unit.end <= unit.start || unit.end > state.length) {
    // A scanner bug, never a property of the input: fail loudly rather than loop or drop text.
    throw new Error(`tool-parse scanner: ${unit.kind} unit [${unit.start}, ${unit.end}) does not advance the cursor at ${state.cursor}`);
  }
  units.push(unit);
  state.cursor = unit.end;
  if (countsAsBlock(unit)) {
    state.lastBlockEnd = unit.end;
    state.blockGapEnd = -1;
  }
  if (state.stats) state.stats.work += 1;
}

/**
 * Adjacency excuses a `<` that is not line-leading: only Unicode whitespace separates it from
 * the previous block (`</tool_call><tool_call>` chains stay top-level). The gap after a block is
 * measured once, not once per `<`.
 */
function adjacentToBlock(state: ScanState): boolean {
  if (state.lastBlockEnd === 0) return false;
  if (state.blockGapEnd === -1) {
    let at = state.lastBlockEnd;
    while (at < state.length && isUnicodeWhitespace(state.source.charCodeAt(at))) at++;
    if (state.stats) state.stats.work += at - state.lastBlockEnd;
    state.blockGapEnd = at;
  }
  return state.cursor <= state.blockGapEnd;
}

/** One step: the thirteen branches in the reference's order; the first that matches wins. */
function step(state: ScanState): Unit {
  const unit =
    reservedBlock(state) ?? // 1
    textRun(state) ?? // 2 (everything below starts on `<`)
    harmonyLine(state) ?? // 3
    harmonySkip(state) ?? // 4
    fencedLine(state, adjacentToBlock(state)); // 5
  if (unit !== null) return unit;
  const slot = state.vocab.lessThan.get(state.source.charCodeAt(state.cursor + 1)) ?? state.vocab.lessThanAny;
  for (const entry of slot.beforeAngle) {
    const found = tagEntry(state, entry); // 6/7, 8
    if (found !== null) return found;
  }
  const angle = angleCall(state); // 9
  if (angle !== null) return angle;
  for (const entry of slot.afterAngle) {
    const found = tagEntry(state, entry); // 10, 11, 12
    if (found !== null) return found;
  }
  return tagFragment(state); // 13
}

const COMPILED_BY_CONTENT_LIMIT = 64;
const compiledByContent = new Map<string, CompiledScanSpec>();

/**
 * The compiled vocabulary of a spec. A validated spec carries its own cache entry; a raw one
 * (callers often build a fresh spec per request) is looked up by its JSON text, so that equal
 * specs are validated and compiled once instead of once per scan.
 */
function vocabularyOf(spec: unknown): CompiledScanSpec {
  if (isValidatedScanSpec(spec)) return compileScanSpec(spec);
  let key: string | undefined;
  try {
    key = JSON.stringify(spec);
  } catch {
    key = undefined;
  }
  const known = key === undefined ? undefined : compiledByContent.get(key);
  if (known !== undefined) return known;
  const compiled = compileScanSpec(validateScanSpec(spec));
  if (key !== undefined) {
    if (compiledByContent.size >= COMPILED_BY_CONTENT_LIMIT) compiledByContent.clear();
    compiledByContent.set(key, compiled);
  }
  return compiled;
}

/**
 * Scan `text` into units with the vocabulary of `spec` (validated unless it came from
 * `validateScanSpec`). `stats`, when given, accumulates a count of characters examined.
 */
export function scanUnits(text: string, spec: ScanSpec, stats?: ScanStats): ScanResult {
  if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${text === null ? 'null' : typeof text}`);
  const vocab = vocabularyOf(spec);
  const source = vocab.spec.strip_thinking ? stripThinkingTags(text, stats) : text;
  const state = createScanState(source, vocab, stats);
  const units: Unit[] = [];
  for (;;) {
    skipWhitespace(state);
    if (state.cursor >= state.length) break;
    emit(state, units, step(state));
  }
  return { source, units };
}
