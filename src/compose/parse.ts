/**
 * `parseToolCalls`: the public entry (docs/design.md, "Entry points").
 *
 *   options --validate--> context --lane (tagged | json)--> sibling recovery
 *           --tool-shape findings--> restamp ids + empty-argument diagnostics --> ParseResult
 *
 * Model text never throws here; only a wrong argument type (programmer misuse) does.
 */
import { admitCalls } from './admission.js';
import { checkArguments } from './argument-schema.js';
import type { CallMarks } from './call-provenance.js';
import { renderCall } from './canonical.js';
import { composeContext, PROFILES, type ComposeContext, type Profile } from './context.js';
import { fieldLane, type RestLane } from './field/lane.js';
import { jsonLane, siblingRecovery } from './lanes/index.js';
import { messages, messagesFor } from './messages.js';
import { emptyResult } from './project.js';
import { coalesceDrops, coalesceErrors, coalesceViolations } from './coalesce.js';
import { gatewayRestLane, plainLinesOf, taggedLane } from './tagged-lane.js';
import type { LineClassifier } from './plain-run.js';
import { toolShapeViolations } from './tool-shape.js';
import type { TraceEntry } from './funnel.js';
import { RESULT_FIELDS, SHAPES, shapeResult, type AnthropicShaped, type OpenAIShaped, type ResultField, type Shape, type ShapedResult } from './shape.js';
import type { DroppedFragment, LaneResult, ParseResult, ProtocolViolation, ToolCall, TurnPart } from './types.js';

/** How calls are checked against their tool's JSON Schema. */
export const VALIDATE_MODES = ['report', 'reject', 'off'] as const;
export type ValidateMode = (typeof VALIDATE_MODES)[number];

export interface ParseOptions {
  /** The tool registry in any form `normalizeTools` accepts. */
  tools?: unknown;
  /**
   * The grammar the route taught: `text`, `""` and `native` read the tagged lane, `json` the
   * JSON lane, `adaptive` is refused with an error; any other value reads the tagged lane too
   * (as the reference does).
   */
  tool_format?: string;
  /** The first call id number of this parse (`tc_<n>`); default 0. */
  call_id_start?: number;
  /**
   * `true` adds `trace` to the result: how each unit of the tagged walk was accounted for
   * (call, drop or structural outcome) and, where a ladder ran, the recovery rung that decided
   * it. Offsets index the text the walk scanned (thinking tags already stripped; a piece of the
   * turn when the entry ladder split it at an envelope). Lanes without a walk add no entries.
   */
  trace?: boolean;
  /**
   * `gateway` (the default): with a registry only registered names are calls, in every lane; no
   * implicit tools, no alias folding; every open model's own tool-call grammar (Kimi,
   * DeepSeek, ...) is read; feedback never tells a model to switch grammars. `harn` reads
   * exactly as the reference runtime does.
   */
  profile?: Profile;
  /**
   * Gateway profile: `true` says the prompt already opened the reasoning block (Qwen3's and
   * DeepSeek R1's templates end with `<think>`), so the text up to the first reasoning close is
   * reasoning, and all of it is when the response ends before any close. `false` says it did
   * not, so a close with no open is a stray marker. Unset, a close with no open that comes
   * before any other marker ends reasoning that began with the response. Ignored under `harn`.
   */
  reasoning_started?: boolean;
  /**
   * Arguments against the tool's JSON Schema: `report` (the default under `gateway`) keeps the
   * call and adds an `invalid_arguments` violation; `reject` turns the call into an error and an
   * `invalid_arguments` drop; `off` (the default under `harn`) checks nothing.
   */
  validate?: ValidateMode;
  /** `tool-parse` (default): the result record; `openai` / `anthropic`: an assistant message plus `diagnostics`. */
  shape?: Shape;
  /** The result fields to return (default: all); with `openai` / `anthropic`, the diagnostics fields. */
  include?: readonly ResultField[];
}

/** The result of a parse asked for with `trace: true`. */
export type TracedParseResult = ParseResult & { readonly trace: readonly TraceEntry[] };

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

interface CheckedOptions {
  toolFormat: string;
  idStart: number;
  tools: unknown;
  trace: boolean;
  profile: Profile;
  reasoningStarted: boolean | undefined;
  validate: ValidateMode;
  shape: Shape;
  include: ReadonlySet<string> | null;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], name: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new TypeError(`options.${name} must be one of ${allowed.join(', ')}; got ${typeof value === 'string' ? JSON.stringify(value) : typeName(value)}`);
  }
  return value as T;
}

function includeSet(value: unknown): ReadonlySet<string> | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) throw new TypeError(`options.include must be an array of result field names; got ${typeName(value)}`);
  for (const field of value) {
    if (typeof field !== 'string' || !(RESULT_FIELDS as readonly string[]).includes(field)) {
      throw new TypeError(`options.include: ${typeof field === 'string' ? JSON.stringify(field) : typeName(field)} is not a result field (${RESULT_FIELDS.join(', ')})`);
    }
  }
  return new Set(value as string[]);
}

function checkedOptions(text: unknown, options: unknown): CheckedOptions {
  if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeName(text)}`);
  if (options === undefined || options === null) {
    return { toolFormat: '', idStart: 0, tools: undefined, trace: false, profile: PROFILES[0], reasoningStarted: undefined, validate: 'report', shape: 'tool-parse', include: null };
  }
  if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError(`options must be an object; got ${typeName(options)}`);
  const o = options as Record<string, unknown>;
  const toolFormat = o.tool_format ?? '';
  if (typeof toolFormat !== 'string') throw new TypeError(`options.tool_format must be a string; got ${typeName(toolFormat)}`);
  const idStart = o.call_id_start ?? 0;
  if (typeof idStart !== 'number' || !Number.isSafeInteger(idStart) || idStart < 0) {
    throw new TypeError(`options.call_id_start must be a non-negative integer; got ${typeof idStart === 'number' ? String(idStart) : typeName(idStart)}`);
  }
  const trace = o.trace ?? false;
  if (typeof trace !== 'boolean') throw new TypeError(`options.trace must be a boolean; got ${typeName(trace)}`);
  const profile = oneOf(o.profile ?? PROFILES[0], PROFILES, 'profile');
  const reasoningStarted = o.reasoning_started;
  if (reasoningStarted !== undefined && typeof reasoningStarted !== 'boolean') throw new TypeError(`options.reasoning_started must be a boolean; got ${typeName(reasoningStarted)}`);
  const validate = oneOf(o.validate ?? (profile === 'harn' ? 'off' : 'report'), VALIDATE_MODES, 'validate');
  const shape = oneOf(o.shape ?? SHAPES[0], SHAPES, 'shape');
  return { toolFormat, idStart, tools: o.tools, trace, profile, reasoningStarted, validate, shape, include: includeSet(o.include) };
}

function isEmptyObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  // perf: no array of keys per call (this runs for every call of every parse).
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** Required parameters a call with empty arguments left out, as messages (none for unknown tools). */
export function missingRequiredArguments(ctx: ComposeContext, call: ToolCall): string[] {
  if (!isEmptyObject(call.arguments)) return [];
  const tool = ctx.registry?.byName.get(call.name);
  if (!tool) return [];
  const required = tool.params.filter((p) => p.required).map((p) => p.name);
  return required.length === 0 ? [] : [messages.missingRequired(call.name, required)];
}

const argumentMessages = {
  invalid: (id: string, name: string, failures: readonly { pointer: string; message: string }[]) =>
    `The arguments of call ${id} to '${name}' do not match the tool's schema: ${failures.map((f) => `${f.pointer === '' ? '/' : f.pointer} ${f.message}`).join('; ')}.`,
  rejected: (name: string, failures: readonly { pointer: string; message: string }[]) =>
    `Tool '${name}' was called with arguments that do not match its schema, so the call did not run: ${failures.map((f) => `${f.pointer === '' ? '/' : f.pointer} ${f.message}`).join('; ')}.`,
  unchecked: (name: string, reason: string) => `The schema of tool '${name}' could not be compiled (${reason}); its arguments were not checked.`,
} as const;

interface Checked {
  readonly calls: ToolCall[];
  readonly errors: string[];
  readonly violations: ProtocolViolation[];
  readonly dropped: DroppedFragment[];
  readonly refusedBlocks: string[];
  /** The lane's calls (`originals`) refused here. */
  readonly refused: ToolCall[];
}

/**
 * Schema checks of the (admitted) calls; stamps the final ids. `originals[i]` is the lane's
 * call `calls[i]` came from (where its written text is kept).
 */
function checkCalls(calls: readonly ToolCall[], originals: readonly ToolCall[], ctx: ComposeContext, mode: ValidateMode, idStart: number): Checked {
  const out: Checked = { calls: [], errors: [], violations: [], dropped: [], refusedBlocks: [], refused: [] };
  let unchecked: Set<string> | null = null;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const args = call.arguments !== null && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? call.arguments : {};
    const tool = mode === 'off' ? undefined : ctx.registry?.byName.get(call.name);
    const verdict = tool === undefined ? null : checkArguments(tool, args);
    if (verdict !== null && verdict.ok === false && mode === 'reject') {
      const block = renderCall(call.name, args);
      const original = originals[i] ?? call;
      out.errors.push(argumentMessages.rejected(call.name, verdict.failures));
      out.dropped.push({ text: ctx.marks.writtenText(original) ?? block, reason: 'invalid_arguments' });
      out.refusedBlocks.push(block);
      out.refused.push(original);
      continue;
    }
    const id = `tc_${idStart + out.calls.length}`;
    out.calls.push({ id, name: call.name, arguments: args });
    if (verdict === null || verdict.ok === true) continue;
    if (verdict.ok === 'unchecked') {
      unchecked ??= new Set();
      if (unchecked.has(call.name)) continue;
      unchecked.add(call.name);
      out.violations.push({ kind: 'invalid_arguments', message: argumentMessages.unchecked(call.name, verdict.reason), excerpt: null, dropped_reason: null });
      continue;
    }
    const failures = verdict.failures.map((f) => ({ pointer: f.pointer, message: f.message }));
    out.violations.push({ kind: 'invalid_arguments', message: argumentMessages.invalid(id, call.name, failures), excerpt: null, dropped_reason: null, call_id: id, failures });
  }
  return out;
}

/** `canonical_text` without the blocks of calls refused at the boundary. */
function withoutBlocks(canonical: string, blocks: readonly string[]): string {
  let out = canonical;
  for (const block of blocks) {
    const at = out.indexOf(block);
    if (at < 0) continue;
    out = (out.slice(0, at).trimEnd() + '\n\n' + out.slice(at + block.length).trimStart()).trim();
  }
  return out;
}

/**
 * The lane's violations without those that describe only calls refused at the boundary (a
 * `recovered_dialect` must not claim a recovered call that did not leave).
 */
function withoutRefusedClaims(violations: readonly ProtocolViolation[], refused: readonly ToolCall[], marks: CallMarks): readonly ProtocolViolation[] {
  if (refused.length === 0) return violations;
  const set = new Set(refused);
  return violations.filter((violation) => marks.describesALeavingCall(violation, set));
}

/**
 * The boundary: under `gateway` the admission policy over every call any lane produced (no
 * call with an unregistered name leaves), schema checks, consecutive ids from `idStart`,
 * empty-argument diagnostics, repeated diagnostics coalesced (coalesce.ts), exactly the contract's keys.
 */
function finish(parsed: LaneResult, ctx: ComposeContext, idStart: number, mode: ValidateMode): ParseResult {
  const admitted = ctx.profile === 'gateway' ? admitCalls(parsed.calls, ctx.registry, ctx.marks) : null;
  const checked = checkCalls(admitted?.calls ?? parsed.calls, admitted?.originals ?? parsed.calls, ctx, mode, idStart);
  const calls = checked.calls;
  const errors = [...parsed.tool_parse_errors, ...(admitted?.errors ?? []), ...checked.errors];
  const dropped = admitted === null && checked.dropped.length === 0 ? parsed.dropped : [...parsed.dropped, ...(admitted?.dropped ?? []), ...checked.dropped];
  const laneViolations = withoutRefusedClaims(parsed.protocol_violations, [...(admitted?.refused ?? []), ...checked.refused], ctx.marks);
  const violations = checked.violations.length === 0 ? laneViolations : [...laneViolations, ...checked.violations];
  const refused = [...(admitted?.refusedBlocks ?? []), ...checked.refusedBlocks];
  const canonical = refused.length === 0 ? parsed.canonical_text : withoutBlocks(parsed.canonical_text, refused);
  // perf: a set of the messages so far, built on the first missing argument, keeps thousands
  // of empty calls against thousands of errors linear.
  let seen: Set<string> | null = null;
  for (const call of calls) {
    // perf: a call with arguments needs no list of messages made.
    if (!isEmptyObject(call.arguments)) continue;
    for (const message of missingRequiredArguments(ctx, call)) {
      seen ??= new Set(errors);
      if (seen.has(message)) continue;
      seen.add(message);
      errors.push(message);
    }
  }
  const reasoning = ctx.profile === 'gateway' ? { reasoning: parsed.reasoning ?? null } : {};
  return {
    calls,
    prose: parsed.prose,
    ...reasoning,
    user_response: parsed.user_response,
    done_marker: parsed.done_marker,
    canonical_text: canonical,
    tool_parse_errors: coalesceErrors(errors),
    protocol_violations: coalesceViolations(violations),
    dropped: coalesceDrops(dropped),
    recovered_from_stray_count: Math.min(parsed.recovered_from_stray_count, calls.length),
  };
}

/** Parses one model turn into tool calls, prose and diagnostics. */
export function parseToolCalls(text: string, options: ParseOptions & { shape: 'openai' }): OpenAIShaped;
export function parseToolCalls(text: string, options: ParseOptions & { shape: 'anthropic' }): AnthropicShaped;
export function parseToolCalls(text: string, options: ParseOptions & { include: readonly ResultField[] }): Partial<ParseResult>;
export function parseToolCalls(text: string, options: ParseOptions & { trace: true }): TracedParseResult;
export function parseToolCalls(text: string, options?: ParseOptions): ParseResult;
export function parseToolCalls(text: string, options?: ParseOptions): ParseResult | TracedParseResult | ShapedResult {
  // Only the anthropic shape places the turn's parts (its thinking blocks).
  const turn = parseTurn(text, options, options?.shape === 'anthropic');
  const { shape, include } = turn.options;
  const shaped = shape === 'tool-parse' && include === null ? turn.result : shapeResult(turn.result, shape, include, turn.parts);
  return turn.trace === null ? shaped : ({ ...shaped, trace: turn.trace } as TracedParseResult);
}

/** A parse with its internal extras: the turn's parts in document order, and the trace if asked. */
export interface ParsedTurn {
  readonly result: ParseResult;
  /** Reasoning, text and calls (indexes into `result.calls`) in document order; empty without field regions. */
  readonly parts: readonly TurnPart[];
  readonly trace: readonly TraceEntry[] | null;
  readonly options: { readonly shape: Shape; readonly include: ReadonlySet<string> | null };
}

/**
 * `parseToolCalls` before shaping, keeping the turn's order (for output shapes that place
 * thinking blocks, and streams); `ordered: false` when no caller will read `parts` (then empty
 * where the field lane read the turn).
 */
export function parseTurn(text: string, options?: ParseOptions, ordered = true): ParsedTurn {
  const { toolFormat, idStart, tools, trace, profile, reasoningStarted, validate, shape, include } = checkedOptions(text, options);
  const entries: TraceEntry[] | null = trace ? [] : null;
  const ctx = composeContext(tools, toolFormat, entries, profile, reasoningStarted);
  const parsed = parseWith(text, ctx, ordered);
  const result = finish(parsed, ctx, idStart, validate);
  return { result, parts: partsOf(parsed, result), trace: entries, options: { shape, include } };
}

/**
 * The lane's ordered parts with call indexes moved onto the final calls: the boundary may have
 * refused some (admission, `validate: reject`), and those leave the order with them.
 */
function partsOf(parsed: LaneResult, result: ParseResult): readonly TurnPart[] {
  const parts = parsed.parts ?? [];
  if (parts.length === 0 || parsed.calls.length === result.calls.length) return parts;
  const kept = new Map<number, number>();
  let next = 0;
  parsed.calls.forEach((call, i) => {
    const final = result.calls[next];
    if (final !== undefined && final.name === call.name && final.arguments === call.arguments) kept.set(i, next++);
  });
  const out: TurnPart[] = [];
  for (const part of parts) {
    if (part.kind !== 'call') out.push(part);
    else if (kept.has(part.index)) out.push({ kind: 'call', index: kept.get(part.index)! });
  }
  return out;
}

/**
 * How a stream reads pieces of one turn exactly as `parseTurn` reads the whole: the checked
 * options, the context and the lane for text between field regions. `null` lane: the turn is
 * only read whole (`harn`, which has no field lane; `tool_format: adaptive`, refused whole).
 */
export interface TurnReader {
  readonly ctx: ComposeContext;
  readonly idStart: number;
  readonly validate: ValidateMode;
  readonly lane: ((piece: string) => LaneResult) | null;
  /** The lane's plain-line classifier when it reads a piece's plain run on its own (plain-run.ts), else null. */
  readonly plainLines: LineClassifier | null;
}

export function turnReader(options?: ParseOptions): TurnReader {
  const { toolFormat, idStart, tools, profile, reasoningStarted, validate } = checkedOptions('', options);
  const ctx = composeContext(tools, toolFormat, null, profile, reasoningStarted);
  // Only the gateway's field lane cuts a turn into pieces read on their own.
  const piecewise = profile === 'gateway' && toolFormat !== 'adaptive';
  const plainLines = piecewise && toolFormat !== 'json' ? plainLinesOf(ctx) : null;
  return { ctx, idStart, validate, lane: piecewise ? laneOf(ctx) : null, plainLines };
}

/** A piece's lane result through the boundary, with ids from `idStart` and its parts. */
export function finishPiece(parsed: LaneResult, reader: TurnReader, idStart: number): { readonly result: ParseResult; readonly parts: readonly TurnPart[] } {
  const result = finish(parsed, reader.ctx, idStart, reader.validate);
  return { result, parts: partsOf(parsed, result) };
}

function laneOf(ctx: ComposeContext): (piece: string) => LaneResult {
  if (ctx.toolFormat === 'json') return (piece) => jsonLane(piece, ctx, { taggedLane });
  return ctx.profile === 'gateway' ? (piece) => gatewayRestLane(piece, ctx) : (piece) => taggedLane(piece, ctx);
}

/**
 * The gateway's rest lane as the field lane reads pieces between regions: no canonical text of
 * a piece's own (the field lane renders the turn's), and plain pieces taken as they are (a
 * traced parse reads each, so the trace gets its entry).
 */
function pieceLane(ctx: ComposeContext): RestLane {
  const read = (piece: string): LaneResult => gatewayRestLane(piece, ctx, false);
  if (ctx.trace !== null) return read;
  const lines = plainLinesOf(ctx);
  return Object.assign(read, { plain: (piece: string) => lines.allPlain(piece) });
}

function parseWith(text: string, ctx: ComposeContext, ordered: boolean): LaneResult {
  const toolFormat = ctx.toolFormat;
  if (toolFormat === 'adaptive') {
    const refused = emptyResult(text.trim());
    refused.tool_parse_errors.push(messagesFor(ctx.profile).adaptiveRefused);
    return refused;
  }
  const lane = laneOf(ctx);
  // The field grammars' regions are read by their own readers; sibling recovery retries a
  // whole text that produced no call, so it applies only when no region was found.
  const field = ctx.profile === 'gateway' ? fieldLane(text, ctx, ctx.toolFormat === 'json' ? lane : pieceLane(ctx), ordered) : null;
  const parsed = field ?? siblingRecovery(lane(text), text, ctx, taggedLane);
  const unparsed = toolShapeViolations(parsed.dropped, toolFormat, { fieldGrammars: ctx.profile === 'gateway', profile: ctx.profile });
  return unparsed.length === 0 ? parsed : { ...parsed, protocol_violations: [...parsed.protocol_violations, ...unparsed] };
}
