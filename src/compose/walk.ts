/**
 * The unit walk of the tagged lane (docs/design.md, "Walk" and "Fenced recovery"): one pass over the
 * scanner's units, each accounted for through the consume funnel, then the post-loop fenced
 * recovery and the projection.
 *
 *   unit --pending?--> pending body | interrupted (unclosed_response), then by kind:
 *     text / fenced_line / harmony_line  stray ladder (sniff executes)
 *     block / unclosed_block             prose, answer, done, or the call-body ladder
 *     markup / angle_call                recovered call, diagnosed drop, or stray ladder
 *     tag                                pending response, stray close, unknown tag
 *     harmony_skip / wrapper / stray_close   structural, no content
 */
import { parseHeadCall } from '../lex/index.js';
import { isAsciiLetter } from '../lex/codes.js';
import type { BlockUnit, ScanResult, UnclosedBlockUnit, Unit } from '../scan/types.js';
import type { DirectParse, UnclosedOutcome } from './ladders/index.js';
import { callFromBody, parseMarkup, unclosedBlockOutcome } from './ladders/index.js';
import { jsonLane } from './lanes/json-lane.js';
import type { ComposeContext } from './context.js';
import { consume, credited, droppedAs, newWalkState, structural, type TraceEntry, type WalkState } from './funnel.js';
import { isBlankFrom } from './ascii-fold.js';
import { recoverFencedText } from './fenced-recovery.js';
import { maySniffCall } from './sniff-gate.js';
import { admissionMessages, refusalReason } from './admission.js';
import { admitName, registeredNames } from './field/admit.js';
import { NOTHING_SNIFFED } from './profile-sniff.js';
import { messages, messagesFor } from './messages.js';
import { handlePending, isCallTag, isTextKind, responseRole } from './pending.js';
import { taggedResult } from './project.js';
import { sniffBare, strayFast, straySlow, type BareSniffer } from './stray.js';
import type { LaneResult, ProtocolViolation, ToolCall } from './types.js';


/** perf: the sniffer for stray units, skipped where it cannot find anything (see `sniff-gate.ts`). */
const sniffStray: BareSniffer = (text, ctx) => (maySniffCall(text) ? sniffBare(text, ctx) : NOTHING_SNIFFED);

export interface WalkOutput {
  readonly result: LaneResult;
  readonly trace: readonly TraceEntry[] | null;
}

/** Walks already-scanned units. `withTrace` records how each unit's span was accounted for. */
export function walkScan(scan: ScanResult, ctx: ComposeContext, withTrace = false): WalkOutput {
  const state = newWalkState(withTrace);
  for (const unit of scan.units) walkUnit(state, unit, scan.source, ctx);
  recoverFencedText(state, ctx, (fenced, c) => jsonLane(fenced, c));
  return { result: taggedResult(state, ctx.profile === 'gateway'), trace: state.trace };
}

function walkUnit(state: WalkState, unit: Unit, source: string, ctx: ComposeContext): void {
  if (state.pendingResponse === null) {
    if (isTextKind(unit)) {
      strayFast(state, unit, ctx, sniffStray, source);
      return;
    }
  } else if (handlePending(state, unit, ctx)) {
    return;
  }
  switch (unit.kind) {
    case 'text':
    case 'fenced_line':
    case 'harmony_line':
      // Only reached when a pending response was just interrupted by this very unit, which
      // cannot happen for text kinds; kept so every kind has a defined ending.
      strayFast(state, unit, ctx, sniffStray, source);
      return;
    case 'harmony_skip':
      consume(state, unit, structural('harmony_skip'));
      return;
    case 'wrapper':
      consume(state, unit, structural('wrapper'));
      return;
    case 'stray_close':
      // The gateway keeps a record of every marker it consumed: a close with no open is
      // often the only trace of a call whose opener the model left out.
      consume(state, unit, ctx.profile === 'gateway' ? droppedAs(source.slice(unit.start, unit.end), 'stray_close_tag') : structural('stray_close'));
      return;
    case 'angle_call': {
      const call = ctx.marks.writtenAs({ id: `tc_angle_${unit.name}`, name: unit.name, arguments: unit.arguments ?? {} }, source.slice(unit.start, unit.end));
      creditCall(state, call);
      state.violations.push(ctx.marks.describing({ kind: 'recovered_dialect', message: messagesFor(ctx.profile).angleCallRecovered, excerpt: null, dropped_reason: null }, [call]));
      consume(state, unit, credited(1, 'angle-call'));
      return;
    }
    case 'markup':
      walkMarkup(state, unit, source, ctx);
      return;
    case 'block':
    case 'unclosed_block':
      walkBlock(state, unit, source, ctx);
      return;
    case 'tag':
      walkTag(state, unit, ctx);
      return;
    default: {
      const other = unit as Unit;
      straySlow(state, other, source.slice(other.start, other.end), ctx, sniffStray);
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
    creditCall(state, ctx.marks.writtenAs(outcome.call, sourceText(unit, source, unit.text)));
    state.violations.push(ctx.marks.describing({ kind: 'recovered_dialect', message: messagesFor(ctx.profile).markupRecovered(outcome.call.name, ctx.toolFormat), excerpt: null, dropped_reason: null }, [outcome.call]));
    consume(state, unit, credited(1, outcome.rung));
    return;
  }
  if (outcome.matched) {
    const error = outcome.error || messages.markupFailed;
    state.errors.push(error);
    consume(state, unit, droppedAs(sourceText(unit, source, unit.text), refusalReason(ctx, error, 'unparsed_markup'), outcome.rung));
    return;
  }
  straySlow(state, unit, unit.text, ctx, sniffStray);
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
  return parseHeadCall(trimmedBody, name, unit.head_sep);
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
    straySlow(state, unit, source.slice(unit.start, unit.end), ctx, sniffStray);
    return;
  }
  if (ctx.profile === 'gateway' && unit.head_name === undefined && namespacedBlock(state, unit, body, source, ctx)) return;
  // The head is parsed only for a known tool: the ladder's direct rung reads nothing else.
  const knownHead = unit.head_name !== undefined && ctx.known.has(unit.head_name);
  const direct = knownHead ? directParse(unit, body) : null;
  // Fast path: `<tool_call>known(...)</tool_call>` with nothing after the call.
  //             ^ head_name/head_sep from the scanner make this a lookup, not a search
  if (unit.kind === 'block' && direct && direct.ok && unit.head_name && isBlankFrom(body, direct.consumed)) {
    creditCall(state, ctx.marks.writtenAs({ id: 'tc_0', name: unit.head_name, arguments: directArguments(direct) ?? {} }, blockText(unit, source)));
    consume(state, unit, credited(1, 'fast-path'));
    return;
  }
  const head = unit.head_name && unit.head_sep ? { name: unit.head_name, sep: unit.head_sep } : undefined;
  const outcome = unit.kind === 'unclosed_block' ? unclosedBlockOutcome(unit.body, ctx, head, direct) : callFromBody(unit.body, ctx, head, direct);
  if (outcome.ok) {
    if (outcome.call) creditCall(state, ctx.marks.writtenAs(outcome.call, blockText(unit, source)));
    for (const narration of outcome.prose ?? []) {
      if (narration.trim() === '') continue;
      state.prose.push(narration);
      state.canonical.push({ kind: 'prose', text: narration });
    }
    if (outcome.call) {
      if (unit.kind === 'unclosed_block') state.violations.push(ctx.marks.describing(recoveredUnclosed(outcome as UnclosedOutcome, ctx), [outcome.call]));
      consume(state, unit, credited(1, outcome.rung));
    } else {
      consume(state, unit, structural('narration_block', outcome.rung));
    }
    return;
  }
  const error = outcome.error || messages.callBlockFailed;
  state.errors.push(error);
  consume(state, unit, droppedAs(blockText(unit, source), refusalReason(ctx, error, 'unparsed_call_block'), outcome.rung));
}

/** A call block's own text (its tags included). */
function blockText(unit: BlockUnit | UnclosedBlockUnit, source: string): string {
  return sourceText(unit, source, `<${unit.tag}>${unit.body}`);
}

/** `functions.look(...)`: the head the scanner's name grammar stops at (`.` is not a name character). */
const NAMESPACED_HEAD = /^([A-Za-z_][A-Za-z0-9_-]*\.)+([A-Za-z_][A-Za-z0-9_-]*)\s*[({]/;

/**
 * Gateway: a call block whose head carries a namespace prefix. The admission policy strips a
 * known prefix when the rest names a tool; any other prefixed name is reported (an error and an
 * `unknown_tool` drop), never left as narration.
 */
function namespacedBlock(state: WalkState, unit: BlockUnit | UnclosedBlockUnit, body: string, source: string, ctx: ComposeContext): boolean {
  const m = NAMESPACED_HEAD.exec(body);
  if (m === null) return false;
  const written = body.slice(0, m[0].length - 1).trimEnd();
  const admission = admitName(written, ctx.registry, 'marked');
  const sep = body.charAt(m[0].length - 1);
  const rest = body.slice(written.length - (admission.ok ? admission.name.length : 0));
  if (!admission.ok) {
    state.errors.push(admissionMessages.unknownTool(written, registeredNames(ctx.registry)));
    consume(state, unit, droppedAs(blockText(unit, source), 'unknown_tool', 'namespaced-head'));
    return true;
  }
  const name = admission.name;
  const parsed = parseHeadCall(rest, name, sep);
  if (!parsed.ok || !isBlankFrom(rest, parsed.consumed)) return false;
  const call = ctx.marks.writtenAs({ id: 'tc_0', name, arguments: directArguments(parsed) ?? {} }, blockText(unit, source));
  creditCall(state, call);
  if (unit.kind === 'unclosed_block') state.violations.push(ctx.marks.describing({ kind: 'recovered_dialect', message: messagesFor(ctx.profile).unclosedCallRecovered, excerpt: null, dropped_reason: null }, [call]));
  consume(state, unit, credited(1, 'namespaced-head'));
  return true;
}

function recoveredUnclosed(outcome: UnclosedOutcome, ctx: ComposeContext): ProtocolViolation {
  return outcome.recoveredViolation ?? { kind: 'recovered_dialect', message: messagesFor(ctx.profile).unclosedCallRecovered, excerpt: null, dropped_reason: null };
}

function walkTag(state: WalkState, unit: Extract<Unit, { kind: 'tag' }>, ctx: ComposeContext): void {
  const msg = messagesFor(ctx.profile);
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
    state.violations.push({ kind: 'stray_text', message: msg.strayText(raw), excerpt: raw, dropped_reason: null });
    state.recovered += 1;
  } else if (ctx.profile !== 'gateway' || namesTag(raw)) {
    state.violations.push({ kind: 'unknown_tag', message: msg.unknownTag(raw), excerpt: raw, dropped_reason: null });
  }
  consume(state, unit, droppedAs(raw, 'salvaged_as_prose'));
}

/**
 * The gateway's test: a letter, `_` or a special token's bar follows the `<`, so a tag or token
 * was written. `<-- {…}` in a protocol trace, `<= 5` or `<3` is text: no tag to report.
 */
function namesTag(raw: string): boolean {
  const code = raw.charCodeAt(1);
  return isAsciiLetter(code) || code === 0x5f || code === 0x7c || code === 0xff5c;
}
