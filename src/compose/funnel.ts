/**
 * The walk state and the consume funnel: the only way the tagged walk moves past a unit.
 *
 * Every unit ends in exactly one of three accounts:
 *   call        one or more calls were credited from it;
 *   drop        its text went to the `dropped` ledger with a reason code;
 *   structural  one of the closed `STRUCTURAL_OUTCOMES` (a frame marker, a prose block, ...).
 * Anything else is a bug in the walk, not model input, and the funnel throws.
 */
import type { Unit } from '../scan/types.js';
import { isBlank } from './ascii-fold.js';
import type { CanonicalPart } from './canonical.js';
import { STRUCTURAL_OUTCOMES, type StructuralOutcome } from './diagnostics.js';
import type { DropReason, DroppedFragment, ProtocolViolation, ToolCall } from './types.js';

export interface WalkState {
  readonly calls: ToolCall[];
  readonly errors: string[];
  readonly violations: ProtocolViolation[];
  /** Narration parts, joined with blank lines at projection. */
  readonly prose: string[];
  /** `<user_response>` bodies. */
  readonly answers: string[];
  /** The last non-empty `<done>` body. */
  done: string | null;
  readonly canonical: CanonicalPart[];
  readonly dropped: DroppedFragment[];
  /** Stray-recovery counter; capped at `calls.length` at projection. */
  recovered: number;
  /** The spelling of an unclosed response tag awaiting its body. */
  pendingResponse: string | null;
  /** A pending user_response spelling was interrupted by a non-text unit. */
  unclosedResponseProse: boolean;
  /**
   * Stray texts holding a canonical tool fence, decided after the walk, each with where the walk
   * stood in `prose`, `canonical` and `dropped` when it set the text aside (its place as prose).
   */
  readonly fenced: FencedText[];
  /** Calls already attributed to a unit by `consume`; the rest were appended by the current branch. */
  creditedCalls: number;
  /** Present when the caller asked for a trace (tests and the drop-invariant property). */
  readonly trace: TraceEntry[] | null;
}

export interface FencedText {
  readonly text: string;
  readonly proseAt: number;
  readonly canonicalAt: number;
  readonly droppedAt: number;
  /** Where the walk stood in `trace` (-1 with none). */
  readonly traceAt: number;
}

export type Account = 'call' | 'drop' | 'structural';

/**
 * How one unit's span was accounted for. The post-loop fence decision adds entries with
 * `start === end === -1`: one `fence_recovered` for calls, or `fenced_narration` for a drop (one
 * at the end under `harn`; under `gateway` one per held text, where the walk held it).
 */
export interface TraceEntry {
  readonly start: number;
  readonly end: number;
  readonly account: Account;
  /** The reason code (drop), the structural outcome name, or `call`. */
  readonly outcome: string;
  /** The drop text when `account === 'drop'`. */
  readonly text?: string;
  /** The recovery rung that decided the unit, when a ladder ran (`fast-path`, `sniff`, a body-ladder rung, ...). */
  readonly rung?: string;
}

export type Outcome =
  | { readonly account: 'call'; readonly count: number; readonly rung?: string }
  | { readonly account: 'drop'; readonly text: string; readonly reason: DropReason; readonly rung?: string }
  | { readonly account: 'structural'; readonly name: StructuralOutcome; readonly rung?: string };

export function newWalkState(withTrace: boolean): WalkState {
  return {
    calls: [],
    errors: [],
    violations: [],
    prose: [],
    answers: [],
    done: null,
    canonical: [],
    dropped: [],
    recovered: 0,
    pendingResponse: null,
    unclosedResponseProse: false,
    fenced: [],
    creditedCalls: 0,
    trace: withTrace ? [] : null,
  };
}

export const credited = (count: number, rung?: string): Outcome => (rung ? { account: 'call', count, rung } : { account: 'call', count });
export const droppedAs = (text: string, reason: DropReason, rung?: string): Outcome => (rung ? { account: 'drop', text, reason, rung } : { account: 'drop', text, reason });
// perf: a structural outcome without a rung is immutable data, made once per name.
const plainStructural = new Map<StructuralOutcome, Outcome>();
export const structural = (name: StructuralOutcome, rung?: string): Outcome => {
  if (rung) return { account: 'structural', name, rung };
  let outcome = plainStructural.get(name);
  if (outcome === undefined) {
    outcome = Object.freeze({ account: 'structural', name });
    plainStructural.set(name, outcome);
  }
  return outcome;
};

/**
 * Accounts for `unit`. A call outcome must name exactly the calls the branch appended since the
 * previous `consume`; any other outcome must come with no new call; a drop must carry
 * non-empty text; a structural outcome must be one of the closed list.
 */
export function consume(state: WalkState, unit: Unit, outcome: Outcome): void {
  const fresh = state.calls.length - state.creditedCalls;
  let label: string;
  switch (outcome.account) {
    case 'call':
      if (!(outcome.count > 0) || fresh !== outcome.count) {
        throw new Error(`consume: a ${unit.kind} unit claimed ${outcome.count} call(s) but appended ${fresh}`);
      }
      state.creditedCalls = state.calls.length;
      label = 'call';
      break;
    case 'drop':
      if (isBlank(outcome.text)) throw new Error(`consume: a drop for a ${unit.kind} unit carried no text`);
      state.dropped.push({ text: outcome.text, reason: outcome.reason });
      label = outcome.reason;
      break;
    case 'structural':
      if (!Object.hasOwn(STRUCTURAL_OUTCOMES, outcome.name)) {
        throw new Error(`consume: ${String(outcome.name)} is not a structural outcome`);
      }
      label = outcome.name;
      break;
    default:
      throw new Error(`consume: unknown outcome for a ${unit.kind} unit`);
  }
  if (outcome.account !== 'call' && fresh !== 0) {
    throw new Error(`consume: a ${unit.kind} unit appended ${fresh} call(s) without crediting them`);
  }
  if (state.trace) {
    const entry: { -readonly [K in keyof TraceEntry]: TraceEntry[K] } = { start: unit.start, end: unit.end, account: outcome.account, outcome: label };
    if (outcome.account === 'drop') entry.text = outcome.text;
    if (outcome.rung !== undefined) entry.rung = outcome.rung;
    state.trace.push(entry);
  }
}
