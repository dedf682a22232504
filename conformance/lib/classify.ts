/**
 * Sorting a reference check into the two kinds the vectors' README names:
 *
 * - `structural`: calls, arguments, counts, prose, drops, units, and whether an error or
 *   violation exists. These decide pass or fail.
 * - `message`: a text op on an error or violation message. tool-parse words its messages
 *   itself, so such a check is reported, and counts only through `counts_as`: the part of it
 *   that pins a contract (a machine-matched prefix such as `TOOL CALL TRUNCATED:`, or the
 *   violation `kind` the reference message identifies).
 * - `informational`: a check on the output of a reference helper tool-parse does not port.
 */
import type { Check } from './checks.js';

export type CheckClass = 'structural' | 'message' | 'informational';

/**
 * Result fields of helpers no project function covers (the reference's `normalize_tool_args`
 * applied after a parse); checks on them are reported, never counted.
 */
const HELPER_FIELDS = new Set(['normalized_args']);

/** A reference check as stored under conformance/reference/. */
export interface StoredCheck extends Check {
  class: CheckClass;
  /** For a message check: the contract part of it, evaluated instead of the wording. */
  counts_as?: Check[];
  /** `note`: the reference asserts this in code and its vector states it only in the note. */
  origin?: 'note';
}

/** Prefixes downstream code matches on (docs/design.md, "Diagnostics"); they carry over verbatim. */
export const MACHINE_PREFIXES = [
  'TOOL CALL TRUNCATED:',
  'TOOL CALL PARSE ERROR',
  'protocol_violation:',
  'unparsed_tool_syntax:',
] as const;

/** Result fields whose strings are messages: errors of the composer, the sniffer, spec validation. */
const MESSAGE_FIELDS = new Set(['tool_parse_errors', 'protocol_violations', 'errors', 'error']);

const TEXT_OPS = new Set(['contains', 'not_contains', 'matches', 'some_contains', 'none_contains']);

/**
 * The reference's violation templates (docs/design.md, "Diagnostics"), each identifying one stable kind.
 * Only the opening words are matched: enough to tell the kinds apart.
 */
const VIOLATION_TEMPLATES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^protocol_violation: a tool call was emitted as a bare JSON object/, 'bare_json'],
  [/^<done> block is empty/, 'empty_done'],
  [/^protocol_violation: a tool call was emitted in a chat-template tool envelope while/, 'wrong_tool_format'],
  [/^protocol_violation: a tool call was emitted in a .* fence; the contract requires a bare/, 'fence_dialect'],
  [/^protocol_violation: `<tool_call>\.\.\.<\/tool_call>` markup was emitted while/, 'wrong_tool_format'],
  [/^protocol_violation: `[^`]*` was emitted as a bare call expression/, 'wrong_tool_format'],
  [/^A ```tool fence was present while/, 'wrong_tool_format'],
  [/^Recovered a tool call written in the tagged grammar while/, 'wrong_tool_format'],
  [/^Tool call\(s\) were emitted with Mistral/, 'provider_dialect'],
  [/^Recovered a tool call from a `<tool_call>` block that was never closed/, 'recovered_dialect'],
  [/^Tool call `[^`]*` was emitted as chat-template function markup/, 'recovered_dialect'],
  [/^Recovered angle-wrapped tool call/, 'recovered_dialect'],
  [/^Recovered a tool call from a ```tool fence/, 'recovered_dialect'],
  [/^Recovered a tool call from a chat-template envelope/, 'recovered_dialect'],
  [/^Recovered `<tool_call>\.\.\.<\/tool_call>` markup while/, 'recovered_dialect'],
  [/^Recovered JSON tool objects from a `<tool_call>` block/, 'recovered_dialect'],
  [/^Stray text outside response tags/, 'stray_text'],
  [/^Unclosed <[^>]*> block\./, 'unclosed_response'],
  [/^Unknown top-level tag/, 'unknown_tag'],
  [/^unparsed_tool_syntax:/, 'unparsed_tool_syntax'],
];

/** The violation kind a complete reference violation message identifies, if any. */
export function violationKindOf(message: string): string | undefined {
  return VIOLATION_TEMPLATES.find(([template]) => template.test(message))?.[1];
}

function fieldOf(path: string): string {
  const end = path.search(/[.[]/);
  return end < 0 ? path : path.slice(0, end);
}

function holdsText(value: unknown): boolean {
  return typeof value === 'string' || (Array.isArray(value) && value.some((item) => typeof item === 'string'));
}

/** Whether the check pins message wording (rather than structure). */
export function isMessageCheck(check: Check): boolean {
  if (check.op === 'any_of') {
    const alternatives = Array.isArray(check.value) ? (check.value as Check[]) : [];
    return alternatives.length > 0 && alternatives.every(isMessageCheck);
  }
  if (!MESSAGE_FIELDS.has(fieldOf(check.path)) || check.path.endsWith('.length')) return false;
  if (TEXT_OPS.has(check.op)) return true;
  return check.op === 'eq' && holdsText(check.value);
}

/** A needle that is nothing but a machine marker, e.g. `TRUNCATED` or `TOOL CALL PARSE ERROR`. */
function isMarker(needle: string): boolean {
  return /^(TRUNCATED|TOOL CALL TRUNCATED:?|TOOL CALL PARSE ERROR:?)$/.test(needle);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The contract part of a message check: the violation kind its full reference message names,
 * the machine prefix it starts with, or the check itself when its needle is only a marker
 * (`TRUNCATED`) or a spec field path (`spec.call_tags`).
 */
export function contractPartOf(check: Check): Check[] {
  if (check.op === 'any_of') {
    const alternatives = (check.value as Check[]).map((alternative) => contractPartOf(alternative));
    if (alternatives.some((parts) => parts.length === 0)) return [];
    // each alternative reduced to its contract part; one of them must hold
    return [{ path: check.path, op: 'any_of', value: alternatives.map((parts) => (parts.length === 1 ? parts[0] : { path: '', op: 'any_of', value: parts })) }];
  }
  if (Array.isArray(check.value)) {
    // several substrings of one message: only the machine markers among them count
    const markers = check.value.filter((needle): needle is string => typeof needle === 'string' && isMarker(needle));
    return markers.length === 0 ? [] : [{ path: check.path, op: check.op, value: markers.length === 1 ? markers[0] : markers }];
  }
  const needle = check.value;
  if (typeof needle !== 'string') return [];
  const parts: Check[] = [];
  const positive = check.op === 'eq' || check.op === 'contains' || check.op === 'some_contains';
  const elementPath = /^protocol_violations\[\d+\]$/.test(check.path);
  if (check.op === 'eq' && elementPath) {
    const kind = violationKindOf(needle);
    if (kind !== undefined) parts.push({ path: `${check.path}.kind`, op: 'eq', value: kind });
  }
  const prefix = MACHINE_PREFIXES.find((marker) => needle.startsWith(marker));
  if (prefix !== undefined && check.op === 'some_contains') {
    parts.push({ path: check.path, op: 'some_contains', value: prefix });
  } else if (prefix !== undefined && positive) {
    parts.push({ path: check.path, op: 'matches', value: `^${escapeRegex(prefix)}` });
  } else if (prefix !== undefined && needle === prefix) {
    parts.push({ path: check.path, op: check.op, value: needle });
  } else if (isMarker(needle)) {
    parts.push({ path: check.path, op: check.op, value: needle });
  } else if (/^spec(\.[a-z_]+)+$/.test(needle) && check.op === 'contains') {
    parts.push({ path: check.path, op: check.op, value: needle });
  }
  return parts;
}

/** Classifies a reference check for storage. */
export function classifyCheck(check: Check): StoredCheck {
  const stored: StoredCheck = { path: check.path, op: check.op, value: 'value' in check ? check.value : null, class: 'structural' };
  if (HELPER_FIELDS.has(fieldOf(check.path))) {
    stored.class = 'informational';
    return stored;
  }
  if (!isMessageCheck(check)) return stored;
  stored.class = 'message';
  const parts = contractPartOf(check);
  if (parts.length > 0) stored.counts_as = parts;
  return stored;
}
