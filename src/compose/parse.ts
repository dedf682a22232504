/**
 * `parseToolCalls`: the public entry (docs/design.md, "Entry points").
 *
 *   options --validate--> context --lane (tagged | json)--> sibling recovery
 *           --tool-shape findings--> restamp ids + empty-argument diagnostics --> ParseResult
 *
 * Model text never throws here; only a wrong argument type (programmer misuse) does.
 */
import { composeContext, type ComposeContext } from './context.js';
import { jsonLane, siblingRecovery } from './lanes/index.js';
import { messages } from './messages.js';
import { emptyResult } from './project.js';
import { taggedLane } from './tagged-lane.js';
import { toolShapeViolations } from './tool-shape.js';
import type { TraceEntry } from './funnel.js';
import type { LaneResult, ParseResult, ToolCall } from './types.js';

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
}

/** The result of a parse asked for with `trace: true`. */
export type TracedParseResult = ParseResult & { readonly trace: readonly TraceEntry[] };

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function checkedOptions(text: unknown, options: unknown): { toolFormat: string; idStart: number; tools: unknown; trace: boolean } {
  if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeName(text)}`);
  if (options === undefined || options === null) return { toolFormat: '', idStart: 0, tools: undefined, trace: false };
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
  return { toolFormat, idStart, tools: o.tools, trace };
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** Required parameters a call with empty arguments left out, as messages (none for unknown tools). */
export function missingRequiredArguments(ctx: ComposeContext, call: ToolCall): string[] {
  if (!isEmptyObject(call.arguments)) return [];
  const tool = ctx.registry?.byName.get(call.name);
  if (!tool) return [];
  const required = tool.params.filter((p) => p.required).map((p) => p.name);
  return required.length === 0 ? [] : [messages.missingRequired(call.name, required)];
}

/** The boundary: consecutive ids from `idStart`, empty-argument diagnostics, exactly the contract's keys. */
function finish(parsed: LaneResult, ctx: ComposeContext, idStart: number): ParseResult {
  const calls: ToolCall[] = parsed.calls.map((call, i) => ({
    id: `tc_${idStart + i}`,
    name: call.name,
    arguments: call.arguments !== null && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? call.arguments : {},
  }));
  const errors = [...parsed.tool_parse_errors];
  // perf: a set of the messages so far, built on the first missing argument, keeps thousands
  // of empty calls against thousands of errors linear.
  let seen: Set<string> | null = null;
  for (const call of calls) {
    for (const message of missingRequiredArguments(ctx, call)) {
      seen ??= new Set(errors);
      if (seen.has(message)) continue;
      seen.add(message);
      errors.push(message);
    }
  }
  return {
    calls,
    prose: parsed.prose,
    user_response: parsed.user_response,
    done_marker: parsed.done_marker,
    canonical_text: parsed.canonical_text,
    tool_parse_errors: errors,
    protocol_violations: parsed.protocol_violations,
    dropped: parsed.dropped,
    recovered_from_stray_count: Math.min(parsed.recovered_from_stray_count, calls.length),
  };
}

/** Parses one model turn into tool calls, prose and diagnostics. */
export function parseToolCalls(text: string, options: ParseOptions & { trace: true }): TracedParseResult;
export function parseToolCalls(text: string, options?: ParseOptions): ParseResult;
export function parseToolCalls(text: string, options?: ParseOptions): ParseResult | TracedParseResult {
  const { toolFormat, idStart, tools, trace } = checkedOptions(text, options);
  const entries: TraceEntry[] | null = trace ? [] : null;
  const ctx = composeContext(tools, toolFormat, entries);
  const result = parseWith(text, ctx, idStart);
  return entries === null ? result : { ...result, trace: entries };
}

function parseWith(text: string, ctx: ComposeContext, idStart: number): ParseResult {
  const toolFormat = ctx.toolFormat;
  if (toolFormat === 'adaptive') {
    const refused = emptyResult(text.trim());
    refused.tool_parse_errors.push(messages.adaptiveRefused);
    return finish(refused, ctx, idStart);
  }
  const pinned = toolFormat === 'json' ? jsonLane(text, ctx, { taggedLane }) : taggedLane(text, ctx);
  const parsed = siblingRecovery(pinned, text, ctx, taggedLane);
  const unparsed = toolShapeViolations(parsed.dropped, toolFormat);
  return finish(unparsed.length === 0 ? parsed : { ...parsed, protocol_violations: [...parsed.protocol_violations, ...unparsed] }, ctx, idStart);
}
