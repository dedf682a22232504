/**
 * One raw-text argument value, from the text between its tags to a typed value:
 *
 *     "\ndef f():\n    return 1\n  \n"  --whitespace--> "def f():\n    return 1"
 *     --CDATA / entities (per grammar)--> --in-band type, else the schema (typing.ts)--> value
 */
import type { ValueRule } from '../../dialects/field/index.js';
import type { ToolDef } from '../../dialects/registry.js';
import { DIALECTS } from '../../dialects/vocabulary.js';
import { decodeCharacterReferences } from '../../lex/entities.js';
import { jsonElseText, schemaTypes, typeByTypes, typesNamed, type SchemaType, type TypedValue } from './typing.js';

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/**
 * Spec section 4: a multi-line value loses one framing newline on each side, and nothing else:
 * the newline right after its open tag (past spaces closing the tag's line) and the newline
 * right before its close (with the close's indentation after it). A value written on its own
 * line between them keeps its indentation (a line of code an editing tool inserts or replaces:
 * `"\n    return None\n"` is `"    return None"`, as vLLM reads it) unless the close is indented
 * (XML laid out with indentation, as llama.cpp's cases write it: that line's indentation is
 * layout); a value with no line break of its own is trimmed.
 *
 *     "\ndef f():\n    return 1\n\n  "  ->  "def f():\n    return 1\n"   (one blank line kept)
 *     "\n    return None\n"             ->  "    return None"
 *     "  Paris "                       ->  "Paris"
 */
export function stripValue(raw: string): string {
  if (!raw.includes('\n')) return raw.trim();
  let start = 0;
  while (start < raw.length && isBlank(raw.charCodeAt(start))) start++;
  if (raw.charCodeAt(start) === 0x0d) start++;
  if (raw.charCodeAt(start) === 0x0a) start++;
  else start = 0;
  let end = raw.length;
  while (end > start && isBlank(raw.charCodeAt(end - 1))) end--;
  // The close written indented (`⏎    </parameter>`): the call is laid out as indented XML, and
  // so is its value's line.
  const laidOut = end < raw.length;
  if (end > start && raw.charCodeAt(end - 1) === 0x0a) {
    end--;
    if (end > start && raw.charCodeAt(end - 1) === 0x0d) end--;
  } else end = raw.length;
  const body = raw.slice(start, end);
  if (body.includes('\n')) return body;
  // Framed by newlines with the close at its line's start, as the template writes it: the line
  // as written, its trailing spaces and tabs aside.
  return start > 0 && !laidOut ? body.slice(0, blankEnd(body)) : body.trim();
}

/** Where `text` ends once its trailing spaces and tabs are cut (a no-break space is content). */
function blankEnd(text: string): number {
  let end = text.length;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
  return end;
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** In-band type of one value, as written: a `string="…"` flag or a type name. */
export interface InbandType {
  readonly form: 'string-flag' | 'type-name';
  readonly value: string;
}

/** `raw` as the grammar's rule and the parameter's schema (or in-band type) say. */
export function typeArgument(raw: string, rule: ValueRule, key: string, tool: ToolDef | undefined, inband: InbandType | null): TypedValue {
  return typeBySchema(raw, rule, tool?.paramsByName.get(key)?.schema ?? null, inband, tool?.schema ?? null);
}

/**
 * `raw` typed by a schema given directly (a nested property's or an array's `items`); `root`
 * is the tool's parameters schema, where local `$ref`s point.
 */
export function typeBySchema(
  raw: string,
  rule: ValueRule,
  schema: Readonly<Record<string, unknown>> | null,
  inband: InbandType | null,
  root: Readonly<Record<string, unknown>> | null = null,
): TypedValue {
  let text = rule.whitespace === 'strip' ? stripValue(raw) : raw;
  let cdata = false;
  if (rule.cdata) {
    const trimmed = text.trim();
    if (trimmed.startsWith(CDATA_OPEN) && trimmed.endsWith(CDATA_CLOSE) && trimmed.length >= CDATA_OPEN.length + CDATA_CLOSE.length) {
      text = trimmed.slice(CDATA_OPEN.length, trimmed.length - CDATA_CLOSE.length);
      cdata = true;
    }
  }
  if (inband === null && rule.entities && !cdata && text.includes('&')) text = decodeCharacterReferences(text, DIALECTS.HTML_ENTITIES);
  const types: readonly SchemaType[] = schemaTypes(schema, root);
  if (inband !== null) {
    const typed = typeInband(text, inband, rule.nullWords, types);
    if (typed !== null) return typed;
  }
  if (types.length === 0 && rule.typing === 'json-else-text') return { value: jsonElseText(text), expected: null };
  return typeByTypes(text, types, rule.nullWords);
}

/**
 * The value by its in-band type, or null to fall back on the schema (a flag or type name not
 * understood, JSON that does not read). A `string="…"` flag yields to the parameter's schema
 * where the two disagree, as the field's parsers coerce by the schema after the flag:
 *
 *     schema {type: "integer"}, string="true">42     ->  42      (the schema admits no string)
 *     schema {type: "string"},  string="false">null  ->  "null"  (the schema admits no null)
 */
function typeInband(text: string, inband: InbandType, nullWords: readonly string[], types: readonly SchemaType[]): TypedValue | null {
  const flag = inband.value.trim().toLowerCase();
  if (inband.form === 'string-flag') {
    if (flag === 'true') return types.length > 0 && !types.includes('string') ? null : { value: text, expected: null };
    if (flag !== 'false') return null;
    const value = jsonElseText(text);
    if (value === text) return null;
    if (types.length > 0 && types.includes('string') && !admits(types, value)) return { value: text, expected: null };
    return { value, expected: null };
  }
  const named = typesNamed(flag);
  if (named === null) return null;
  if (named[0] === 'string') return { value: text, expected: null };
  const typed = typeByTypes(text, named, nullWords);
  return typed.expected === null ? typed : null;
}

/** Whether a JSON value is of one of `types`. */
function admits(types: readonly SchemaType[], value: unknown): boolean {
  if (value === null) return types.includes('null');
  switch (typeof value) {
    case 'string':
      return types.includes('string');
    case 'boolean':
      return types.includes('boolean');
    case 'number':
      return types.includes('number') || (Number.isInteger(value) && types.includes('integer'));
    default:
      return Array.isArray(value) ? types.includes('array') : types.includes('object');
  }
}
