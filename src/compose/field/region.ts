/**
 * What a field reader reports about one region of the text, through one funnel: a call (which
 * passes the registry rule here, so no reader decides names on its own), a failure (an error
 * plus a drop of the text it covers), a plain drop, a violation, or visible prose inside the
 * region. Marker text a reader steps over is structural and carries no content.
 *
 * The ledger promise holds per region: every character of the region is a marker, part of a
 * credited call, prose, reasoning, or inside a recorded drop.
 */
import type { FieldGrammar } from '../../dialects/field/index.js';
import type { ToolRegistry } from '../../dialects/registry.js';
import { isPlainRecord } from '../../lex/json-object.js';
import type { CallMarks } from '../call-provenance.js';
import type { DroppedFragment, DropReason, ProtocolViolation, ToolCall, ViolationKind } from '../types.js';
import { admitName, registeredNames, type Admission, type CallOrigin } from './admit.js';
import { callMarkupWithin } from './call-markup.js';
import { argumentsInString } from './json-text.js';
import { fieldMessages } from './messages.js';
import { FieldScan } from './scan.js';
import { emptyList, listOf } from '../site-free.js';

/** What a region held, in document order (the turn's ordered parts are built from it). */
export type RegionPart =
  | { readonly kind: 'call'; readonly call: ToolCall }
  | { readonly kind: 'prose'; readonly text: string }
  | { readonly kind: 'reasoning'; readonly text: string };

export interface FieldRegion {
  readonly grammar: string;
  readonly start: number;
  readonly end: number;
  readonly calls: readonly ToolCall[];
  readonly errors: readonly string[];
  readonly dropped: readonly DroppedFragment[];
  readonly violations: readonly ProtocolViolation[];
  readonly prose: readonly string[];
  readonly reasoning: readonly string[];
  /** Null when the region holds calls and nothing else visible: its parts are its calls, in order. */
  readonly parts: readonly RegionPart[] | null;
  /**
   * A value in it had no close of its own before a call of its grammar began: a close still to
   * come after that call would make the call part of the value (param-markup.ts,
   * `throughInnerCalls`), so what follows the region is not settled until the text ends.
   */
  readonly runsOn?: true;
  /** The region took in a Markdown fence around it (fence-frame.ts): its lines are the region's. */
  readonly framed?: true;
  /**
   * The region ends where a visible answer's body begins whose text is prose as written
   * (Harmony's `final` and `commentary` messages): the lane reads that body as a region of its
   * own (`answerBody`), up to the first of its `ends`.
   */
  readonly verbatimBody?: VerbatimBody;
  /** The region is such a body: prose, up to one of its ends (or, cut off, the end of the text). */
  readonly answerBody?: true;
  /**
   * The region is a line naming a grammar's token as inline code (lane.ts `inlineCodeMention`):
   * prose up to its line's end, so more text on that line extends it.
   */
  readonly mention?: true;
  /**
   * The region is a code block the answer opened, taken whole as prose (lane.ts `fencedSample`):
   * up to its closing fence line's end, or the end of the text while none has come, so more
   * text extends a region that ends where the text does.
   */
  readonly sample?: true;
  /**
   * The region stands in a code block the answer opened and has not closed (past the block's
   * first text): were the block to close later, the region would be the block's text (a sample),
   * so a stream holds it until the text ends.
   */
  readonly inOpenBlock?: true;
}

/** A visible answer's body that no grammar reads calls in, and what ends it. */
export interface VerbatimBody {
  readonly grammar: FieldGrammar;
  readonly ends: readonly string[];
}

export interface CallReport {
  /** The name as written (prefixes included); the registry rule decides what it becomes. */
  readonly name: string;
  readonly arguments: unknown;
  /** The call's span in the text, for the drop ledger when the call is refused. */
  readonly start: number;
  readonly end: number;
  readonly origin?: CallOrigin;
  /** The call's closing markers were missing (end of text): read, with a `recovered_dialect`. */
  readonly unclosed?: boolean;
}

/**
 * What a sink reads as before its first report of a kind. Not frozen: V8 iterates a frozen array
 * on its slow path (an iterator result per element) wherever a list of regions is walked; the
 * type keeps writers off it.
 */
const NONE: readonly never[] = [];

/** A region's first call ids (the boundary gives every call its final id), made once. */
const FIELD_IDS: readonly string[] = Array.from({ length: 8 }, (_, i) => `tc_field_${i}`);

export class RegionSink {
  // perf: each list is made at its first report: most regions hold one call and nothing else, and
  // five empty lists per region were an eighth of what a Qwen3-Coder region allocated.
  #calls: ToolCall[] | null = null;
  #errors: string[] | null = null;
  #dropped: DroppedFragment[] | null = null;
  #violations: ProtocolViolation[] | null = null;
  #prose: string[] | null = null;
  #reasoning: string[] | null = null;
  #parts: RegionPart[] | null = null;
  /** See `FieldRegion.runsOn`. */
  runsOn = false;
  /** See `FieldRegion.verbatimBody`: the markers that end the body after the region. */
  bodyEnds: readonly string[] | null = null;
  readonly #text: string;
  #grammar: FieldGrammar;
  // perf: the grammar's id, kept beside it: the sink serves every family's records, whose several
  // layouts made a load of `id` from the record megamorphic once a parse had met them all.
  #id: string;
  readonly #registry: ToolRegistry | null;
  readonly #marks: CallMarks;
  #scan: FieldScan | null;

  /**
   * `marks` are the parse's (call-provenance.ts); `scan` is the parse's shared one (its
   * memoised searches keep many blocks linear).
   */
  constructor(text: string, grammar: FieldGrammar, registry: ToolRegistry | null, marks: CallMarks, scan: FieldScan | null = null) {
    this.#text = text;
    this.#grammar = grammar;
    this.#id = grammar.id;
    this.#registry = registry;
    this.#marks = marks;
    this.#scan = scan;
  }

  get grammar(): FieldGrammar {
    return this.#grammar;
  }

  get calls(): readonly ToolCall[] {
    return this.#calls ?? NONE;
  }

  get errors(): readonly string[] {
    return this.#errors ?? NONE;
  }

  get dropped(): readonly DroppedFragment[] {
    return this.#dropped ?? NONE;
  }

  get violations(): readonly ProtocolViolation[] {
    return this.#violations ?? NONE;
  }

  get prose(): readonly string[] {
    return this.#prose ?? NONE;
  }

  get reasoning(): readonly string[] {
    return this.#reasoning ?? NONE;
  }

  /** See `FieldRegion.parts`. */
  get parts(): readonly RegionPart[] | null {
    return this.#parts;
  }

  /**
   * The parts list, made when the first prose or reasoning is reported: until then the calls say
   * the order (perf: no part object and list per call for the regions that hold calls only).
   */
  #partsList(): RegionPart[] {
    if (this.#parts === null) {
      const calls = this.calls;
      const parts = emptyList<RegionPart>();
      for (let i = 0; i < calls.length; i++) parts.push(new CallRegionPart(calls[i]!));
      this.#parts = parts;
    }
    return this.#parts;
  }

  /** Nothing reported yet (a reader that answered -1 leaves its sink so). */
  get empty(): boolean {
    return this.calls.length === 0 && this.errors.length === 0 && this.dropped.length === 0 && this.violations.length === 0 && (this.#parts === null || this.#parts.length === 0) && !this.runsOn && this.bodyEnds === null;
  }

  /**
   * This sink for another grammar's attempt, when nothing was reported into it (else a fresh
   * one, so a report never moves to another grammar's region).
   */
  reuseFor(grammar: FieldGrammar): RegionSink {
    if (!this.empty) return new RegionSink(this.#text, grammar, this.#registry, this.#marks, this.#scan);
    this.#grammar = grammar;
    this.#id = grammar.id;
    return this;
  }

  /**
   * A sink for a trial read (a reader trying how some text reads) whose reports are thrown
   * away: it holds no registry, so a call's structure alone decides what it reads.
   */
  trial(): RegionSink {
    return new RegionSink(this.#text, this.#grammar, null, this.#marks, this.#scan);
  }

  // The last admission asked for: a reader that typed a call's arguments by its tool asked the
  // same question of the same name just before reporting the call.
  #asked: string | null = null;
  #askedOf: ToolRegistry | null = null;
  #askedAs: CallOrigin = 'marked';
  #answer: Admission | null = null;

  /** `admitName`, answered again without work for the name just asked about. */
  admit(name: string, registry: ToolRegistry | null, origin: CallOrigin): Admission {
    if (this.#answer !== null && name === this.#asked && registry === this.#askedOf && origin === this.#askedAs) return this.#answer;
    const answer = admitName(name, registry, origin);
    this.#asked = name;
    this.#askedOf = registry;
    this.#askedAs = origin;
    this.#answer = answer;
    return answer;
  }

  /**
   * A call's name as its messages show it: as the registry admits it (`functions.look` is
   * `look` when `look` is registered), else as written; so an error about a call's arguments
   * names the tool the model meant, as the call itself would have.
   */
  shownName(name: string): string {
    if (name === '' || this.#registry === null) return name;
    const admission = this.admit(name, this.#registry, 'marked');
    return admission.ok ? admission.name : name;
  }

  /**
   * True, with the unknown-tool error and drop a complete call would get, when the registry
   * refuses `name`: for a call whose arguments do not read, the name is the first thing wrong
   * (the model learns which tools exist, not how to fix arguments nothing would run).
   */
  refusedName(name: string, start: number, end: number): boolean {
    if (name === '' || this.#registry === null) return false;
    const admission = this.admit(name, this.#registry, 'marked');
    if (admission.ok || admission.why === 'empty') return false;
    this.fail(fieldMessages.unknownTool(admission.name, this.#id, registeredNames(this.#registry)), start, end, 'unknown_tool');
    return true;
  }

  /** A call the reader read completely; the registry rule and the argument shape are checked here. */
  call(report: CallReport): boolean {
    const admission = this.admit(report.name, this.#registry, report.origin ?? 'marked');
    const id = this.#id;
    if (!admission.ok) {
      const message =
        admission.why === 'empty' ? fieldMessages.missingName(id) : fieldMessages.unknownTool(admission.name, id, registeredNames(this.#registry));
      this.fail(message, report.start, report.end, admission.why === 'empty' ? 'unparsed_call_block' : 'unknown_tool');
      return false;
    }
    let args = report.arguments;
    if (typeof args === 'string') {
      // Arguments written as a JSON string holding the object: every grammar decodes them alike.
      const decoded = argumentsInString(args);
      if (!decoded.ok) {
        this.fail(fieldMessages.badArguments(id, admission.name, decoded.error), report.start, report.end, 'unparsed_call_block');
        return false;
      }
      args = decoded.value;
    }
    if (!isPlainRecord(args)) {
      this.fail(fieldMessages.argumentsNotObject(id, admission.name), report.start, report.end, 'unparsed_call_block');
      return false;
    }
    const n = this.calls.length;
    const call: ToolCall = this.#marks.writtenAs(new LaneCall(n < FIELD_IDS.length ? FIELD_IDS[n]! : `tc_field_${n}`, admission.name, args), this.#text.slice(report.start, report.end));
    // perf: a first report makes a list of one (a push onto `[]` reserves room for 17).
    if (this.#calls === null) this.#calls = listOf(call);
    else this.#calls.push(call);
    if (this.#parts !== null) this.#parts.push(new CallRegionPart(call));
    if (report.unclosed === true) this.recovered(fieldMessages.endMarkersMissing(id), this.calls.length - 1);
    return true;
  }

  /**
   * A `recovered_dialect` about the calls read from `firstCall` on (a section whose close was
   * missing). One cut is one recovery: when the last violation reported the same recovery of
   * calls among these, with no call read since (the last call's close and its section's close
   * both missing at the end of the text), it is widened to these calls, not repeated.
   */
  recovered(message: string, firstCall = 0): void {
    const violation: ProtocolViolation = this.#marks.describing({ kind: 'recovered_dialect', message, excerpt: null, dropped_reason: null }, this.calls.slice(firstCall));
    const violations = (this.#violations ??= []);
    const last = this.#lastRecovery;
    if (last !== null && last.at === violations.length - 1 && last.calls === this.calls.length && last.firstCall >= firstCall && violations[last.at]!.message === message) {
      violations[last.at] = violation;
    } else {
      violations.push(violation);
    }
    this.#lastRecovery = { at: violations.length - 1, firstCall, calls: this.calls.length };
  }

  /** The last `recovered_dialect` reported: its index, its first call, and how many calls had been read then. */
  #lastRecovery: { readonly at: number; readonly firstCall: number; readonly calls: number } | null = null;

  /** An error beside a call that was produced (a value the schema types could not read, kept as text). */
  note(error: string): void {
    (this.#errors ??= []).push(error);
  }

  /** A call attempted and not produced: its error, and its text on the drop ledger. */
  fail(error: string, start: number, end: number, reason: DropReason = 'unparsed_call_block'): void {
    (this.#errors ??= []).push(error);
    this.drop(start, end, reason);
  }

  drop(start: number, end: number, reason: DropReason): void {
    const text = this.#text.slice(start, end).trim();
    if (text !== '') (this.#dropped ??= []).push({ text, reason });
  }

  violation(kind: ViolationKind, message: string, excerpt: string | null = null): void {
    (this.#violations ??= []).push({ kind, message, excerpt, dropped_reason: null });
  }

  /** Visible text inside the region (a preamble, an answer channel). */
  proseSpan(start: number, end: number): void {
    this.proseText(this.#text.slice(start, end));
  }

  /** Visible text a reader decoded from the region (a JSON answer's string value). */
  proseText(raw: string): void {
    const text = raw.trim();
    if (text === '') return;
    (this.#prose ??= emptyList()).push(text);
    this.#partsList().push(new ProseRegionPart(text));
  }

  /**
   * Reasoning inside the region (a thinking block, Harmony's analysis channel): kept verbatim
   * (trimmed), never prose. Call markup inside it did not run: a `call_in_reasoning` violation
   * names the first marker.
   */
  reasoningSpan(start: number, end: number): void {
    const scan = (this.#scan ??= new FieldScan(this.#text, this.#registry));
    const marker = callMarkupWithin((needles, from) => scan.earliest(needles, from), this.#text, start, end);
    if (marker !== null) this.violation('call_in_reasoning', fieldMessages.callInReasoning(this.#id, marker), marker);
    const text = this.#text.slice(start, end).trim();
    if (text === '') return;
    (this.#reasoning ??= emptyList()).push(text);
    this.#partsList().push(new ReasoningRegionPart(text));
  }

  /**
   * The region, and this sink emptied for the next attempt: the region owns the lists it was
   * given (perf: one sink per parse where each region took a fresh one).
   */
  handOff(start: number, end: number): FieldRegion {
    const region = this.region(start, end);
    this.#calls = this.#errors = this.#dropped = this.#violations = this.#prose = this.#reasoning = this.#parts = null;
    this.#lastRecovery = null;
    this.runsOn = false;
    this.bodyEnds = null;
    return region;
  }

  region(start: number, end: number): FieldRegion {
    const region = new HandedRegion(this.#id, start, end, this.calls, this.errors, this.dropped, this.violations, this.prose, this.reasoning, this.parts);
    // perf: set only when true (two conditional spreads took the literal off its fast path).
    if (this.runsOn) region.runsOn = true;
    if (this.bodyEnds !== null) region.verbatimBody = { grammar: this.#grammar, ends: this.bodyEnds };
    return region;
  }
}

/**
 * A call as the lane holds it until the boundary (which makes the result's own records). perf: an
 * instance, not a literal (site-free.ts).
 */
class LaneCall implements ToolCall {
  arguments: Record<string, unknown>;
  constructor(
    public id: string,
    public name: string,
    args: Record<string, unknown>,
  ) {
    this.arguments = args;
  }
}

/** A region's parts (instances, not literals: site-free.ts). */
class CallRegionPart {
  readonly kind = 'call';
  constructor(readonly call: ToolCall) {}
}

class ProseRegionPart {
  readonly kind = 'prose';
  constructor(readonly text: string) {}
}

class ReasoningRegionPart {
  readonly kind = 'reasoning';
  constructor(readonly text: string) {}
}

/**
 * A region as a sink hands it off. perf: an instance, not an object literal: the lane keeps every
 * region until the turn is assembled, and a literal's objects were tenured (site-free.ts). On the
 * bench's 80 KB Qwen3-Coder row a parse took 0.96x the CPU time (seven pairs of processes, each
 * parsing alone for 4 to 5 s).
 */
class HandedRegion implements FieldRegion {
  // Declared only (no own key until set): a region that does not run on has no `runsOn` key.
  declare runsOn?: true;
  declare verbatimBody?: VerbatimBody;
  constructor(
    readonly grammar: string,
    readonly start: number,
    readonly end: number,
    readonly calls: readonly ToolCall[],
    readonly errors: readonly string[],
    readonly dropped: readonly DroppedFragment[],
    readonly violations: readonly ProtocolViolation[],
    readonly prose: readonly string[],
    readonly reasoning: readonly string[],
    readonly parts: readonly RegionPart[] | null,
  ) {}
}
