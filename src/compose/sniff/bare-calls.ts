/**
 * The stray sniffer (`scanBareCalls`) and its batch form over scanner units (`scanBareUnits`).
 *
 *   text ─ strip thinking tags ─ <tool_call> wrappers → newlines ─┬─ exactly one code wrapper?
 *                                                                 │    sniff the inside first
 *                                                                 └─ line walk (line-scan)
 *        ─ prose with calls cut out (prose) ─ nothing found? native JSON (native-json),
 *          whose prose is the text around the payload
 *
 * Calls inside Markdown fences are found and returned like any other: fencing does not make a
 * call inert (docs/design.md, "Stray text"). Only registered names (plus `ledger` and
 * `load_skill`, or an alias that folds onto a registered name) become calls; model text never
 * throws, it becomes `errors`.
 */
import { isRegistry, normalizeTools, type ToolRegistry } from '../../dialects/registry.js';
import { TEXT_UNIT_KINDS } from '../../dialects/vocabulary.js';
import type { Unit } from '../../scan/types.js';
import { parseHeadCall, type CallExprResult } from '../../lex/call-expr.js';
import type { CallMarks } from '../call-provenance.js';
import { idleMeter } from './meter.js';
import { knownNamesOf, type KnownNames } from './names.js';
import { nativeJsonCalls } from './native-json.js';
import { sniff, type BareScan } from './sniff.js';
import { trimUnicode } from '../../lex/render.js';

export type { BareScan };

/** The object-literal parse of a `name{ ... }` block body; `consumed` includes the name. */
export type DirectObjectResult =
  | { ok: true; value: Record<string, unknown>; consumed: number }
  | { ok: false; error: string };

export type BareUnitResult = { bare: BareScan } | { direct: CallExprResult | DirectObjectResult };

/**
 * Sniff `text` for bare tool calls. `tools` is any registry form `normalizeTools` accepts, or an
 * already-normalised registry; absent/null means only the implicit names are known.
 */
export function scanBareCalls(text: string, tools?: unknown): BareScan {
  if (typeof text !== 'string') throw new TypeError(`scanBareCalls: text must be a string; got ${typeName(text)}`);
  const registry = isRegistry(tools) ? tools : normalizeTools(tools);
  return sniff(text, knownNamesOf(registry), idleMeter(), 0);
}

/** The sniff of `text` against an already-built name set (the composer's profile builds it), for a parse whose marks are `marks`. */
export function sniffWithNames(text: string, known: KnownNames, marks: CallMarks): BareScan {
  return sniff(text, known, idleMeter(), 0, marks);
}

/**
 * The calls of a text that is nothing but one native JSON call object or list (Llama 3 and
 * Ollama print their calls so), read against `known`; null when anything else stands beside it.
 */
export function wholeNativePayload(text: string, known: KnownNames, marks: CallMarks): BareScan | null {
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return null;
  const native = nativeJsonCalls(text, known, idleMeter(), marks);
  const [start, end] = native.payload;
  if (end === 0 || text.slice(0, start).trim() !== '' || text.slice(end).trim() !== '') return null;
  return { calls: native.calls, errors: native.errors, prose: '' };
}

const SNIFFED_KINDS = new Set<string>(TEXT_UNIT_KINDS);
const DIRECT_KINDS = new Set<string>(['block', 'unclosed_block', 'reserved_block']);

/**
 * One entry per unit: `{bare}` (the sniff of the trimmed text) for `text`, `fenced_line` and
 * `harmony_line` units; `{direct}` (the head's call-expression or object-literal parse of the
 * trimmed body) for blocks carrying `head_name` and `head_sep`, whether or not the head names a
 * registered tool; null for everything else.
 */
export function scanBareUnits(units: readonly Unit[], registry: ToolRegistry | null): (BareUnitResult | null)[] {
  if (!Array.isArray(units)) throw new TypeError(`scanBareUnits: units must be an array; got ${typeName(units)}`);
  if (registry !== null && !isRegistry(registry)) {
    throw new TypeError('scanBareUnits: registry must be a normalised tool registry (normalizeTools) or null');
  }
  const known = knownNamesOf(registry);
  return units.map((unit: unknown) => bareUnit(unit, known));
}

function bareUnit(unit: unknown, known: KnownNames): BareUnitResult | null {
  if (typeof unit !== 'object' || unit === null) return null;
  const fields = unit as Record<string, unknown>;
  const kind = fields.kind;
  if (typeof kind !== 'string') return null;
  if (SNIFFED_KINDS.has(kind)) {
    return typeof fields.text === 'string' ? { bare: sniff(trimUnicode(fields.text), known, idleMeter(), 0) } : null;
  }
  if (!DIRECT_KINDS.has(kind)) return null;
  const { body, head_name: head, head_sep: sep } = fields;
  if (typeof body !== 'string' || typeof head !== 'string' || typeof sep !== 'string') return null;
  return { direct: parseHeadCall(trimUnicode(body), head, sep) };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
