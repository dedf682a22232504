/**
 * Typing of raw-text argument values (Qwen3-Coder, GLM, MiniMax, Step-3, Anthropic XML, DSML,
 * ...): the grammar carries every value as text, and the tool's JSON Schema says what it is.
 *
 *     schema                         text        value
 *     {type: "integer"}              " 42 "      42
 *     {type: ["integer", "null"]}    "None"      null
 *     {anyOf: [{type: "object"}, {type: "string"}]}  "{not json"  "{not json"
 *     {type: "boolean"}              "TRUE"      true
 *     (no schema)                    "42"        "42"        (never guess numbers)
 *
 * Alternatives (`type` arrays, `anyOf`, `oneOf`) are tried in order, non-string ones first, then
 * string. When the schema admits no string and no alternative reads the text, the text is kept
 * and `expected` names what the schema wanted, so the reader can report it beside the call.
 *
 * Objects and arrays are read as JSON only: the Python-literal fallback of spec section 4 waits
 * for a Python-literal reader in `src/lex` (the value-grammar readers bring one).
 */
import { readJsonValueAt } from '../../lex/json-stream.js';

/** How deep `anyOf` / `oneOf` alternatives are followed; schemas are caller data, but bounded all the same. */
const ALTERNATIVES_DEPTH = 8;

/** The words that mean null when the schema admits null. */
export const NULL_WORDS: readonly string[] = ['null', 'None'];

export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

const SCHEMA_TYPES: ReadonlySet<string> = new Set<SchemaType>(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null']);

export interface TypedValue {
  readonly value: unknown;
  /** Null when the text was read as the schema says; else the types it admits (the text was kept). */
  readonly expected: readonly SchemaType[] | null;
}

type Schema = Readonly<Record<string, unknown>>;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const NO_TYPES: readonly SchemaType[] = Object.freeze([]);

// perf: a parameter's schema is the registry's own object, the same one for every value of
// every parse against that registry (registries are treated as immutable, see
// dialects/registry.ts), so its types are worked out once per schema object. On the bench's
// Qwen3-Coder row (80 KB, ~500 calls) schemaTypes was 8 % of the parse; it is now a look-up,
// and the row allocates 60 bytes per input byte instead of 64.6 (2 runs each way).
const typesBySchema = new WeakMap<Schema, readonly SchemaType[]>();

/** The types a schema admits, in the order written, each once; empty when it declares none. */
export function schemaTypes(schema: Schema | null | undefined): readonly SchemaType[] {
  if (!isSchema(schema)) return NO_TYPES;
  let types = typesBySchema.get(schema);
  if (types === undefined) {
    types = Object.freeze(typesOf(schema));
    typesBySchema.set(schema, types);
  }
  return types;
}

function typesOf(schema: Schema): SchemaType[] {
  const out: SchemaType[] = [];
  const add = (name: unknown): void => {
    if (typeof name === 'string' && SCHEMA_TYPES.has(name) && !out.includes(name as SchemaType)) out.push(name as SchemaType);
  };
  // A queue of (schema, depth), breadth first so alternatives keep their written order: no recursion over caller data.
  const queue: [Schema, number][] = [[schema, 0]];
  for (let next = 0; next < queue.length; next++) {
    const [s, depth] = queue[next]!;
    if (Array.isArray(s.type)) for (const t of s.type) add(t);
    else add(s.type);
    if (depth >= ALTERNATIVES_DEPTH) continue;
    for (const key of ['anyOf', 'oneOf'] as const) {
      const alternatives = s[key];
      if (!Array.isArray(alternatives)) continue;
      for (const alternative of alternatives) if (isSchema(alternative)) queue.push([alternative, depth + 1]);
    }
  }
  return out;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function readNumber(text: string, integer: boolean): number | undefined {
  if (!JSON_NUMBER.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  return integer && !Number.isInteger(value) ? undefined : value;
}

function readBoolean(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/** A whole JSON value of the wanted kind, or undefined. */
function readJsonOf(text: string, kind: 'object' | 'array' | 'any'): unknown {
  const read = readJsonValueAt(text, 0);
  if (!read.ok || read.end !== text.length) return undefined;
  const value = read.value;
  if (kind === 'any') return value;
  if (kind === 'array') return Array.isArray(value) ? value : undefined;
  return isSchema(value) ? value : undefined;
}

const UNREAD = Symbol('unread');

function readAs(type: SchemaType, text: string, nullWords: readonly string[]): unknown {
  switch (type) {
    case 'integer':
    case 'number':
      return readNumber(text, type === 'integer') ?? UNREAD;
    case 'boolean':
      return readBoolean(text) ?? UNREAD;
    case 'null':
      return nullWords.includes(text) ? null : UNREAD;
    case 'object':
    case 'array':
      return readJsonOf(text, type) ?? UNREAD;
    case 'string':
      return UNREAD;
  }
}

/**
 * `text` typed by `types` (from `schemaTypes`). `text` is the value after the grammar's
 * whitespace rule; non-string readings ignore surrounding whitespace, a string keeps `text`.
 */
export function typeByTypes(text: string, types: readonly SchemaType[], nullWords: readonly string[] = NULL_WORDS): TypedValue {
  if (types.length === 0) return { value: text, expected: null };
  const trimmed = text.trim();
  for (const type of types) {
    if (type === 'string') continue;
    const value = readAs(type, trimmed, nullWords);
    if (value !== UNREAD) return { value, expected: null };
  }
  return { value: text, expected: types.includes('string') ? null : types };
}

/** `text` typed by a parameter's JSON Schema; no schema keeps the text. */
export function typeRawValue(text: string, schema: Schema | null | undefined, nullWords: readonly string[] = NULL_WORDS): TypedValue {
  return typeByTypes(text, schemaTypes(schema), nullWords);
}

/** A value written as JSON when it reads as one, else the text (grammars that carry JSON or raw text). */
export function jsonElseText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return text;
  const value = readJsonOf(trimmed, 'any');
  return value === undefined ? text : value;
}

/** The type names of an in-band type attribute (`type="integer"`, `<ifm|arg_type>number`), or null when it names none. */
export function typesNamed(name: string): SchemaType[] | null {
  const trimmed = name.trim().toLowerCase();
  if (SCHEMA_TYPES.has(trimmed)) return [trimmed as SchemaType];
  // Aliases the chat templates print for Python and JSON types.
  const alias = TYPE_ALIASES.get(trimmed);
  return alias === undefined ? null : [alias];
}

const TYPE_ALIASES: ReadonlyMap<string, SchemaType> = new Map<string, SchemaType>([
  ['str', 'string'],
  ['int', 'integer'],
  ['float', 'number'],
  ['bool', 'boolean'],
  ['dict', 'object'],
  ['list', 'array'],
  ['none', 'null'],
]);
