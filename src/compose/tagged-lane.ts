/**
 * The tagged lane (composer spec section 3): the entry ladder, then one walk over the scanner's
 * units, then the post-loop fenced recovery and the projection.
 *
 *   text --provider dialect?--> Mistral / DSML result
 *        --split / envelope?--> envelope result merged with tagged remainders
 *        --scanUnits--> units --walk (consume funnel)--> state --fenced recovery--> result
 *
 * Every unit goes through `consume` exactly once (see funnel.ts); there is no second pass.
 */
import { buildScanSpec } from '../dialects/index.js';
import { DIALECTS } from '../dialects/index.js';
import { scanBareCalls } from '../lex/bare-calls.js';
import { parseCallExpr, parseObjectLiteral } from '../lex/index.js';
import { scanUnits } from '../scan/index.js';
import type { BlockUnit, ScanResult, ScanSpec, UnclosedBlockUnit, Unit } from '../scan/types.js';
import type { DirectParse, UnclosedOutcome } from './ladders/index.js';
import { callFromBody, parseMarkup, unclosedBlockOutcome } from './ladders/index.js';
import { dsmlResult, jsonLane, mistralResult } from './lanes/index.js';
import { EnvelopeOpeners, readEnvelopeAt } from './lanes/envelope.js';
import type { BodyLadder } from './lanes/types.js';
import { ALTERNATE_ENVELOPE_OPENERS } from '../dialects/vocabulary.js';
import { renderCallBlocks } from './canonical.js';
import { emptyResult } from './project.js';
import type { ComposeContext } from './context.js';
import { consume, credited, droppedAs, newWalkState, structural, type TraceEntry, type WalkState } from './funnel.js';
import { recoverFencedText } from './fenced-recovery.js';
import { messages } from './messages.js';
import { handlePending, isCallTag, isTextKind, responseRole } from './pending.js';
import { taggedResult } from './project.js';
import { strayFast, straySlow, type BareScan, type BareSniffer } from './stray.js';
import type { DroppedFragment, LaneResult, ProtocolViolation, ToolCall } from './types.js';

const TAGGED_OPENER = '<tool_call>';

/** The bare-call sniffer over one (already trimmed) string, with the turn's registry. */
export const sniffBare: BareSniffer = (text, ctx) => scanBareCalls(text, ctx.registry) as BareScan;

const SUFFIX_PROBE = 64;

const bodyLadder: BodyLadder = (body, ctx) => callFromBody(body, ctx);

/**
 * The next occurrence of any of `needles` at or after an offset, for a text read front to back.
 * Each needle remembers where it was last found, so a whole pass costs one scan per needle.
 */
class NextOccurrence {
  private readonly next: number[];
  constructor(private readonly text: string, private readonly needles: readonly string[]) {
    this.next = needles.map(() => -2);
  }

  earliest(from: number): number {
    let best = -1;
    for (let k = 0; k < this.needles.length; k++) {
      let at = this.next[k]!;
      if (at === -1) continue;
      if (at < from) {
        at = this.text.indexOf(this.needles[k]!, from);
        this.next[k] = at;
        if (at < 0) continue;
      }
      if (best < 0 || at < best) best = at;
    }
    return best;
  }
}

/**
 * One step of the entry ladder, in document order:
 *   split     `<tool_call>...` before an alternate envelope opener: the head is walked alone;
 *   envelope  a chat-template envelope with calls: the text before it is walked alone.
 */
type Frame =
  | { readonly kind: 'split'; readonly head: LaneResult }
  | { readonly kind: 'envelope'; readonly own: LaneResult; readonly before: LaneResult | null };

/**
 * The tagged lane: what `tool_format` `text`, `native`, `""` and unknown values parse with.
 *
 * The reference states the entry ladder recursively (split halves and envelope remainders are
 * parsed by the lane again). Read front to back, that recursion is a chain: each step leaves
 * a piece walked on its own and continues with the rest of the text. The chain is followed in
 * a loop with shared opener caches, so thousands of envelopes cost neither stack nor rescans,
 * and `assemble` folds the pieces exactly as the nested join and merge would.
 */
export function taggedLane(text: string, ctx: ComposeContext): LaneResult {
  // Provider dialects first, on the raw text (sub-texts of the chain cannot hold a marker
  // the whole text lacks, so this check is needed once).
  if (text.includes(DIALECTS.MISTRAL_CALL_MARKER)) {
    const mistral = mistralResult(text, ctx);
    if (mistral) return mistral;
  }
  if (text.includes(DIALECTS.DSML_MARKER)) {
    const dsml = dsmlResult(text, ctx);
    if (dsml) return dsml;
  }
  const frames: Frame[] = [];
  let terminal: LaneResult | null = null;
  let source = text;
  let cursor = newChainCursor(source);
  let base = 0;
  // Where the rest ends: the whole text, or, once an envelope's trailing text is being read,
  // that text's trimmed end (the reference reads the trimmed remainder).
  let end = source.length;
  for (;;) {
    const taggedAt = cursor.tagged.earliest(base);
    const alternateAt = cursor.alternates.earliest(base);
    // rest = <tool_call>...</tool_call> ... <tool>...
    //        ^ taggedAt                     ^ alternateAt: the head is read alone
    if (alternateAt > base && taggedAt >= 0 && taggedAt < alternateAt) {
      frames.push({ kind: 'split', head: walkText(source.slice(base, alternateAt), ctx) });
      base = alternateAt;
      continue;
    }
    if (taggedAt < 0 || (alternateAt >= 0 && alternateAt < taggedAt)) {
      const envelope = readEnvelopeAt(source, base, ctx, bodyLadder, cursor.openers);
      if (envelope && !envelope.malformed && envelope.result.calls.length > 0) {
        const leading = envelope.prose.trim();
        const trailing = (envelope.trailing ?? '').trim();
        frames.push({ kind: 'envelope', own: envelope.result, before: leading === '' ? null : walkText(leading, ctx) });
        if (trailing === '') break;
        // The trailing text is a suffix of `source`; continue there with the same caches.
        // perf: a bounded prefix confirms the offset (comparing all of it would be quadratic).
        const at = cursor.trimmedLength - trailing.length;
        if (at > base && source.startsWith(trailing.slice(0, SUFFIX_PROBE), at)) {
          base = at;
          end = cursor.trimmedLength;
        } else {
          source = trailing;
          cursor = newChainCursor(source);
          base = 0;
          end = source.length;
        }
        continue;
      }
    }
    terminal = walkText(base === 0 && end === source.length ? source : source.slice(base, end), ctx);
    break;
  }
  return assemble(frames, terminal, ctx);
}

interface ChainCursor {
  readonly tagged: NextOccurrence;
  readonly alternates: NextOccurrence;
  readonly openers: EnvelopeOpeners;
  readonly trimmedLength: number;
}

function newChainCursor(source: string): ChainCursor {
  return {
    tagged: new NextOccurrence(source, [TAGGED_OPENER]),
    alternates: new NextOccurrence(source, ALTERNATE_ENVELOPE_OPENERS),
    openers: new EnvelopeOpeners(source),
    trimmedLength: source.trimEnd().length,
  };
}

/**
 * Folds the chain as the reference's nested `join(head, tail)` and envelope merges do: calls,
 * errors and drops in document order; prose pieces joined by newlines; canonical text as call
 * blocks; the leftmost envelope replaces every violation after it with its one
 * `recovered_dialect`; count, answer and done marker come from the outermost step.
 */
function assemble(frames: readonly Frame[], terminal: LaneResult | null, ctx: ComposeContext): LaneResult {
  const recovered: ProtocolViolation = { kind: 'recovered_dialect', message: messages.envelopeRecovered(ctx.toolFormat), excerpt: null, dropped_reason: null };
  const first = frames[0];
  if (first === undefined) return terminal ?? emptyResult();
  // A lone envelope with nothing around it is returned as the envelope read it.
  if (frames.length === 1 && first.kind === 'envelope' && first.before === null && terminal === null) {
    return { ...first.own, protocol_violations: [recovered] };
  }
  const calls: ToolCall[] = [];
  const errors: string[] = [];
  const dropped: DroppedFragment[] = [];
  const prose: string[] = [];
  const violations: ProtocolViolation[] = [];
  let replaced = false;
  const take = (part: LaneResult, withProse: boolean, withViolations: boolean): void => {
    calls.push(...part.calls);
    errors.push(...part.tool_parse_errors);
    dropped.push(...part.dropped);
    if (withProse && part.prose !== '') prose.push(part.prose);
    if (withViolations) violations.push(...part.protocol_violations);
  };
  for (const frame of frames) {
    if (frame.kind === 'split') {
      take(frame.head, true, !replaced);
      continue;
    }
    if (frame.before) take(frame.before, true, false);
    // Everything from the leftmost envelope on is replaced by its one steer.
    if (!replaced) violations.push(recovered);
    replaced = true;
    take(frame.own, false, false);
  }
  if (terminal) take(terminal, true, !replaced);
  const outer = first.kind === 'split' ? first.head : first.own;
  return {
    calls,
    prose: prose.join('\n'),
    user_response: outer.user_response,
    done_marker: outer.done_marker,
    canonical_text: renderCallBlocks(calls),
    tool_parse_errors: errors,
    protocol_violations: violations,
    dropped,
    recovered_from_stray_count: outer.recovered_from_stray_count,
  };
}

// perf: one scan spec per parse, however many pieces the entry chain walks (the scanner
// compiles a spec on first sight, keyed by the object).
const specs = new WeakMap<ComposeContext, ScanSpec>();

function scanSpecOf(ctx: ComposeContext): ScanSpec {
  let spec = specs.get(ctx);
  if (spec === undefined) {
    spec = buildScanSpec(ctx.registry);
    specs.set(ctx, spec);
  }
  return spec;
}

/** Scans and walks one piece of text. */
function walkText(text: string, ctx: ComposeContext): LaneResult {
  return walkScan(scanUnits(text, scanSpecOf(ctx)), ctx).result;
}

export interface WalkOutput {
  readonly result: LaneResult;
  readonly trace: readonly TraceEntry[] | null;
}

/** Walks already-scanned units. `withTrace` records how each unit's span was accounted for. */
export function walkScan(scan: ScanResult, ctx: ComposeContext, withTrace = false): WalkOutput {
  const state = newWalkState(withTrace);
  for (const unit of scan.units) walkUnit(state, unit, scan.source, ctx);
  recoverFencedText(state, ctx, (fenced, c) => jsonLane(fenced, c, { recoverHeredoc: false }));
  return { result: taggedResult(state), trace: state.trace };
}

function walkUnit(state: WalkState, unit: Unit, source: string, ctx: ComposeContext): void {
  if (state.pendingResponse === null) {
    if (isTextKind(unit)) {
      strayFast(state, unit, null, ctx, sniffBare);
      return;
    }
  } else if (handlePending(state, unit)) {
    return;
  }
  switch (unit.kind) {
    case 'text':
    case 'fenced_line':
    case 'harmony_line':
      // Only reached when a pending response was just interrupted by this very unit, which
      // cannot happen for text kinds; kept so every kind has a defined ending.
      strayFast(state, unit, null, ctx, sniffBare);
      return;
    case 'harmony_skip':
      consume(state, unit, structural('harmony_skip'));
      return;
    case 'wrapper':
      consume(state, unit, structural('wrapper'));
      return;
    case 'stray_close':
      consume(state, unit, structural('stray_close'));
      return;
    case 'angle_call':
      creditCall(state, { id: `tc_angle_${unit.name}`, name: unit.name, arguments: unit.arguments ?? {} });
      state.violations.push({ kind: 'recovered_dialect', message: messages.angleCallRecovered, excerpt: null, dropped_reason: null });
      consume(state, unit, credited(1, 'angle-call'));
      return;
    case 'markup':
      walkMarkup(state, unit, source, ctx);
      return;
    case 'block':
    case 'unclosed_block':
      walkBlock(state, unit, source, ctx);
      return;
    case 'tag':
      walkTag(state, unit);
      return;
    default: {
      const other = unit as Unit;
      straySlow(state, other, source.slice(other.start, other.end), ctx, sniffBare);
    }
  }
}

function creditCall(state: WalkState, call: ToolCall): void {
  state.calls.push(call);
  state.canonical.push({ kind: 'call', name: call.name, arguments: call.arguments });
}

function walkMarkup(state: WalkState, unit: Extract<Unit, { kind: 'markup' }>, source: string, ctx: ComposeContext): void {
  const outcome = parseMarkup(unit.text, ctx);
  if (outcome.ok) {
    creditCall(state, outcome.call);
    state.violations.push({ kind: 'recovered_dialect', message: messages.markupRecovered(outcome.call.name, ctx.toolFormat), excerpt: null, dropped_reason: null });
    consume(state, unit, credited(1, outcome.rung));
    return;
  }
  if (outcome.matched) {
    state.errors.push(outcome.error || messages.markupFailed);
    consume(state, unit, droppedAs(sourceText(unit, source, unit.text), 'unparsed_markup', outcome.rung));
    return;
  }
  straySlow(state, unit, unit.text, ctx, sniffBare);
}

/** The unit's own text, falling back to a field when offsets do not index `source`. */
function sourceText(unit: Unit, source: string, fallback: string): string {
  const slice = source.slice(unit.start, unit.end);
  return slice.trim() !== '' ? slice : fallback;
}

/**
 * The scanner's pre-parse of the body head: `name(...)` or `name{...}` at the start of the
 * trimmed body. `consumed` counts from the start of the trimmed body.
 */
function directParse(unit: BlockUnit | UnclosedBlockUnit, trimmedBody: string): DirectParse | null {
  const name = unit.head_name;
  if (!name || !unit.head_sep) return null;
  if (unit.head_sep === '(') return parseCallExpr(trimmedBody, name);
  const literal = parseObjectLiteral(trimmedBody.slice(name.length), name);
  return literal.ok ? { ...literal, consumed: literal.consumed + name.length } : literal;
}

function directArguments(direct: DirectParse): Record<string, unknown> | null {
  if (!direct.ok) return null;
  const args = 'arguments' in direct ? direct.arguments : direct.value;
  return args ?? {};
}

function walkBlock(state: WalkState, unit: BlockUnit | UnclosedBlockUnit, source: string, ctx: ComposeContext): void {
  const body = unit.body.trim();
  const role = responseRole(unit.tag);
  if (role === 'assistant_prose' || role === 'user_response') {
    if (body !== '') {
      if (role === 'assistant_prose') state.prose.push(body);
      else state.answers.push(body);
      state.canonical.push({ kind: role === 'assistant_prose' ? 'prose' : 'answer', text: body });
    }
    consume(state, unit, structural(role === 'assistant_prose' ? 'prose_block' : 'answer_block'));
    return;
  }
  if (role === 'done') {
    if (body === '') state.violations.push({ kind: 'empty_done', message: messages.emptyDone, excerpt: null, dropped_reason: null });
    else {
      state.done = body;
      state.canonical.push({ kind: 'done', text: body });
    }
    consume(state, unit, structural('done_block'));
    return;
  }
  if (!isCallTag(unit.tag)) {
    straySlow(state, unit, source.slice(unit.start, unit.end), ctx, sniffBare);
    return;
  }
  // The head is parsed only for a known tool: the ladder's direct rung reads nothing else.
  const knownHead = unit.head_name !== undefined && ctx.known.has(unit.head_name);
  const direct = knownHead ? directParse(unit, body) : null;
  // Fast path: `<tool_call>known(...)</tool_call>` with nothing after the call.
  //             ^ head_name/head_sep from the scanner make this a lookup, not a search
  if (unit.kind === 'block' && direct && direct.ok && unit.head_name && body.slice(direct.consumed).trim() === '') {
    creditCall(state, { id: 'tc_0', name: unit.head_name, arguments: directArguments(direct) ?? {} });
    consume(state, unit, credited(1, 'fast-path'));
    return;
  }
  const head = unit.head_name && unit.head_sep ? { name: unit.head_name, sep: unit.head_sep } : undefined;
  const outcome = unit.kind === 'unclosed_block' ? unclosedBlockOutcome(unit.body, ctx, head, direct) : callFromBody(unit.body, ctx, head, direct);
  if (outcome.ok) {
    if (outcome.call) creditCall(state, outcome.call);
    for (const narration of outcome.prose ?? []) {
      if (narration.trim() === '') continue;
      state.prose.push(narration);
      state.canonical.push({ kind: 'prose', text: narration });
    }
    if (outcome.call) {
      if (unit.kind === 'unclosed_block') state.violations.push(recoveredUnclosed(outcome as UnclosedOutcome));
      consume(state, unit, credited(1, outcome.rung));
    } else {
      consume(state, unit, structural('narration_block', outcome.rung));
    }
    return;
  }
  state.errors.push(outcome.error || messages.callBlockFailed);
  consume(state, unit, droppedAs(sourceText(unit, source, `<${unit.tag}>${unit.body}`), 'unparsed_call_block', outcome.rung));
}

function recoveredUnclosed(outcome: UnclosedOutcome): ProtocolViolation {
  return outcome.recoveredViolation ?? { kind: 'recovered_dialect', message: messages.unclosedCallRecovered, excerpt: null, dropped_reason: null };
}

function walkTag(state: WalkState, unit: Extract<Unit, { kind: 'tag' }>): void {
  const raw = unit.raw.trim();
  if (raw === '') {
    consume(state, unit, structural('empty_text'));
    return;
  }
  const role = responseRole(unit.name);
  if (role !== null) {
    state.pendingResponse = unit.name;
    consume(state, unit, structural('pending_open'));
    return;
  }
  if (raw.startsWith('</')) {
    state.violations.push({ kind: 'stray_text', message: messages.strayText(raw), excerpt: raw, dropped_reason: null });
    state.recovered += 1;
  } else {
    state.violations.push({ kind: 'unknown_tag', message: messages.unknownTag(raw), excerpt: raw, dropped_reason: null });
  }
  consume(state, unit, droppedAs(raw, 'salvaged_as_prose'));
}
