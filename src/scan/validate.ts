/**
 * Spec validation at the boundary (docs/design.md, "Dialects and the scan spec").
 *
 * The scanner holds no vocabulary of its own: every field is required and an absent one is a
 * caller error, never a fallback. The one default is `strip_thinking` (true), which selects a
 * behaviour rather than naming vocabulary. Fields are checked in the reference's order and the
 * first problem throws a TypeError naming the field path (`spec.harmony.standalone_markers`).
 *
 * Deliberate difference from the reference: empty strings are rejected in every vocabulary
 * position. The reference accepts them and then loops forever (`message_marker: ""`) or emits a
 * zero-length unit (`markup_openers[].close: ""`); see conformance/DIFFERENCES.md.
 *
 * The result is a fresh, deeply frozen copy. Passing it back to `scanUnits` skips validation.
 */
import type { HarmonyVocabulary, MarkupOpener, ScanSpec } from './types.js';

/** A spec that passed validation: frozen, `strip_thinking` filled in. */
export type ValidatedScanSpec = ScanSpec & { readonly strip_thinking: boolean };

const validated = new WeakSet<object>();

/** True for an object `validateScanSpec` returned. */
export function isValidatedScanSpec(value: unknown): value is ValidatedScanSpec {
  return typeof value === 'object' && value !== null && validated.has(value);
}

/** The reference's type vocabulary, so messages read the same whatever the caller's language. */
function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    default:
      return 'dict';
  }
}

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(dict: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(dict, key) ? dict[key] : undefined;
}

function required(path: string): TypeError {
  return new TypeError(
    `${path} is required: the scanner has no built-in dialect vocabulary, so a missing field is an error, not a fallback`,
  );
}

function stringField(dict: Record<string, unknown>, key: string, path: string): string {
  const value = own(dict, key);
  if (value === undefined || value === null) throw required(path);
  if (typeof value !== 'string') throw new TypeError(`${path} must be a string; got ${typeName(value)}`);
  if (value === '') throw new TypeError(`${path} must be a non-empty string`);
  return value;
}

function stringList(dict: Record<string, unknown>, key: string, path: string): readonly string[] {
  const value = own(dict, key);
  if (value === undefined || value === null) throw required(path);
  if (!Array.isArray(value)) throw new TypeError(`${path} must be a list; got ${typeName(value)}`);
  const out: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    if (typeof entry !== 'string') throw new TypeError(`${path}[${i}] must be a string; got ${typeName(entry)}`);
    if (entry === '') throw new TypeError(`${path}[${i}] must be a non-empty string`);
    out.push(entry);
  }
  return Object.freeze(out);
}

function markupList(dict: Record<string, unknown>): readonly MarkupOpener[] {
  const path = 'spec.markup_openers';
  const value = own(dict, 'markup_openers');
  if (value === undefined || value === null) throw required(path);
  if (!Array.isArray(value)) throw new TypeError(`${path} must be a list; got ${typeName(value)}`);
  const out: MarkupOpener[] = [];
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    const at = `${path}[${i}]`;
    if (!isDict(entry)) throw new TypeError(`${at} must be a dict with \`opener\` and \`close\`; got ${typeName(entry)}`);
    const opener = stringField(entry, 'opener', `${at}.opener`);
    const close = stringField(entry, 'close', `${at}.close`);
    out.push(Object.freeze({ opener, close }));
  }
  return Object.freeze(out);
}

function harmonyDict(dict: Record<string, unknown>): HarmonyVocabulary {
  const path = 'spec.harmony';
  const value = own(dict, 'harmony');
  if (value === undefined || value === null) throw required(path);
  if (!isDict(value)) throw new TypeError(`${path} must be a dict; got ${typeName(value)}`);
  return Object.freeze({
    header_markers: stringList(value, 'header_markers', `${path}.header_markers`),
    standalone_markers: stringList(value, 'standalone_markers', `${path}.standalone_markers`),
    frame_prefix: stringField(value, 'frame_prefix', `${path}.frame_prefix`),
    frame_suffix: stringField(value, 'frame_suffix', `${path}.frame_suffix`),
    message_marker: stringField(value, 'message_marker', `${path}.message_marker`),
    tool_call_header_prefix: stringField(value, 'tool_call_header_prefix', `${path}.tool_call_header_prefix`),
    corrupted_openers: stringList(value, 'corrupted_openers', `${path}.corrupted_openers`),
  });
}

/**
 * Checks a caller-supplied spec and returns a frozen, validated copy (extra keys dropped).
 * Throws a TypeError naming the first offending field.
 */
export function validateScanSpec(spec: unknown): ValidatedScanSpec {
  if (isValidatedScanSpec(spec)) return spec;
  if (!isDict(spec)) throw new TypeError(`spec must be a dict of dialect vocabulary; got ${typeName(spec)}`);
  const call_tags = stringList(spec, 'call_tags', 'spec.call_tags');
  const block_tags = stringList(spec, 'block_tags', 'spec.block_tags');
  const wrapper_tags = stringList(spec, 'wrapper_tags', 'spec.wrapper_tags');
  const markup_openers = markupList(spec);
  const reserved_openers = stringList(spec, 'reserved_openers', 'spec.reserved_openers');
  const harmony = harmonyDict(spec);
  const known_tools = stringList(spec, 'known_tools', 'spec.known_tools');
  const strip = own(spec, 'strip_thinking');
  if (strip !== undefined && strip !== null && typeof strip !== 'boolean') {
    throw new TypeError(`spec.strip_thinking must be a bool; got ${typeName(strip)}`);
  }
  const result: ValidatedScanSpec = Object.freeze({
    call_tags,
    block_tags,
    wrapper_tags,
    markup_openers,
    reserved_openers,
    harmony,
    known_tools,
    strip_thinking: typeof strip === 'boolean' ? strip : true,
  });
  validated.add(result);
  return result;
}
