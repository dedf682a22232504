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
 * Objects and arrays are read as JSON, then as a Python literal (`{'a': True, 'b': None}`,
 * spec section 4), else kept as text. Numbers read as Python's `int()` / `float()` read them
 * (`007` is 7, `+7` and `.5` are numbers), the field's parsers' conversion.
 *
 * Schemas are followed through `anyOf` / `oneOf` / `allOf`, local `$ref`s (`#/$defs/...`,
 * `#/definitions/...` of the tool's parameters schema) and the Python type names templates and
 * clients write for `type` (`int`, `float`, `bool`, `dict`, `list`, `str`); a schema with no
 * `type` but an `enum` or `const` admits the types of the values it lists.
 */
import { readJsonValueAt } from '../../lex/json-stream.js';
import { readPyValueAt } from '../../lex/py-literal.js';

/** How deep alternatives and `$ref`s are followed; schemas are caller data, but bounded all the same. */
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
const typesBySchema = new WeakMap<Schema, { readonly root: Schema | null; readonly types: readonly SchemaType[] }>();

/**
 * The types a schema admits, in the order written, each once; empty when it declares none.
 * `root` is the schema local `$ref`s point into (the tool's parameters schema).
 */
export function schemaTypes(schema: Schema | null | undefined, root: Schema | null = null): readonly SchemaType[] {
  if (!isSchema(schema)) return NO_TYPES;
  const known = typesBySchema.get(schema);
  if (known !== undefined && known.root === root) return known.types;
  // Not frozen (typed read-only): an indexed read of a frozen array is not inlined by the
  // optimising compiler, and `typeByTypes` reads these lists for every value typed.
  const types: readonly SchemaType[] = typesOf(schema, root);
  typesBySchema.set(schema, { root, types });
  return types;
}

/** A schema's type name, JSON Schema's or a Python alias (`int`, `float`, `bool`, `dict`, `list`, `str`), or null. */
function schemaTypeNamed(name: unknown): SchemaType | null {
  if (typeof name !== 'string') return null;
  if (SCHEMA_TYPES.has(name)) return name as SchemaType;
  return TYPE_ALIASES.get(name.toLowerCase()) ?? null;
}

/** The JSON type of a value an `enum` or `const` lists. */
function jsonTypeOf(value: unknown): SchemaType | null {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    default:
      return null;
  }
}

function typesOf(schema: Schema, root: Schema | null): SchemaType[] {
  const out: SchemaType[] = [];
  const add = (name: unknown): void => {
    const type = schemaTypeNamed(name);
    if (type !== null && !out.includes(type)) out.push(type);
  };
  // A queue of (schema, depth), breadth first so alternatives keep their written order: no
  // recursion over caller data, and each schema object visited once (a `$ref` cycle ends).
  const queue: [Schema, number][] = [[schema, 0]];
  const seen = new Set<Schema>([schema]);
  const follow = (next: unknown, depth: number): void => {
    if (isSchema(next) && !seen.has(next)) {
      seen.add(next);
      queue.push([next, depth]);
    }
  };
  for (let next = 0; next < queue.length; next++) {
    const [s, depth] = queue[next]!;
    if (Array.isArray(s.type)) for (const t of s.type) add(t);
    else if (s.type !== undefined) add(s.type);
    // No `type`: an `enum` or `const` says it by its values (`{"enum": [1, 2, 3]}` is integers).
    else if (Array.isArray(s.enum)) for (const value of s.enum) add(jsonTypeOf(value));
    else if (Object.hasOwn(s, 'const')) add(jsonTypeOf(s.const));
    if (depth >= ALTERNATIVES_DEPTH) continue;
    follow(localRef(s.$ref, root), depth + 1);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const alternatives = s[key];
      if (!Array.isArray(alternatives)) continue;
      for (const alternative of alternatives) follow(alternative, depth + 1);
    }
  }
  return out;
}

/**
 * `schema` with its local `$ref`s and single-branch `allOf`s followed (bounded, cycle-safe):
 * the schema whose `properties` and `items` describe the value.
 */
export function resolveSchema(schema: Schema, root: Schema | null): Schema {
  let at = schema;
  for (let depth = 0; depth < ALTERNATIVES_DEPTH; depth++) {
    const next = localRef(at.$ref, root) ?? (Array.isArray(at.allOf) && at.allOf.length === 1 && isSchema(at.allOf[0]) ? at.allOf[0] : undefined);
    if (next === undefined || next === at) break;
    at = next;
  }
  return at;
}

/** The schema a local `$ref` (`#/$defs/Item`, `#/definitions/Item`, any `#/` pointer) names in `root`, or undefined. */
export function localRef(ref: unknown, root: Schema | null): Schema | undefined {
  if (typeof ref !== 'string' || root === null || !ref.startsWith('#')) return undefined;
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  const segments = ref.slice(2).split('/');
  if (segments.length > ALTERNATIVES_DEPTH) return undefined;
  for (const raw of segments) {
    if (!isSchema(at)) return undefined;
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (!Object.prototype.hasOwnProperty.call(at, segment)) return undefined;
    at = at[segment];
  }
  return isSchema(at) ? at : undefined;
}

// Python's float() (the field's parsers convert raw values with int() and float()): a sign,
// leading zeros, `_` between digits, `.5` and `5.`; never `0x10`, `inf` or `nan`. An integer
// is any such number with an integral value (`007`, `+7`, and JSON's `1.0` and `1e3` too).
const DIGITS = '\\d+(?:_\\d+)*';
const PY_NUMBER = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);

function readNumber(text: string, integer: boolean): number | string | undefined {
  if (!PY_NUMBER.test(text)) return undefined;
  const plain = text.includes('_') ? text.replace(/_/g, '') : text;
  const value = Number(plain);
  if (!Number.isFinite(value)) return undefined;
  if (integer && !Number.isInteger(value)) return undefined;
  // An integer beyond 2^53 would come back rounded: its digits are kept, as JSON's are (json-stream.ts).
  return Number.isSafeInteger(value) || !INTEGER_DIGITS.test(plain) ? value : exactInteger(plain);
}

const INTEGER_DIGITS = /^[+-]?\d+$/;

/** `+007` -> `7`, `-0012` -> `-12`: the digits of an integer literal as JSON writes them. */
function exactInteger(plain: string): string {
  const sign = plain.charCodeAt(0) === 0x2d ? '-' : '';
  const digits = plain.replace(/^[+-]?0*/, '');
  return sign + (digits === '' ? '0' : digits);
}

function readBoolean(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/** A whole JSON value of the wanted kind, or undefined. */
function readJsonOf(text: string, kind: 'object' | 'array' | 'any'): unknown {
  const read = readJsonValueAt(text, 0);
  if (!read.ok || read.end !== text.length) return undefined;
  return ofKind(read.value, kind);
}

function ofKind(value: unknown, kind: 'object' | 'array' | 'any'): unknown {
  if (kind === 'any') return value;
  if (kind === 'array') return Array.isArray(value) ? value : undefined;
  return isSchema(value) ? value : undefined;
}

/**
 * An object or array written as JSON, else as a Python literal (`{'a': True}`, `(1, 2)`), else
 * as JSON escaped into a string's body (`[{\"id\": \"1\"}]`, a value the model serialized once
 * more), or undefined.
 */
function readStructuredOf(text: string, kind: 'object' | 'array', again = true): unknown {
  const json = readJsonOf(text, kind);
  if (json !== undefined) return json;
  const read = readPyValueAt(text, 0);
  if (read.ok && read.end === text.length) {
    const value = ofKind(read.value, kind);
    if (value !== undefined) return value;
    // A value encoded once more as a string (`"{'key': 'value'}"`, a template's
    // `json.dumps(str(dict))`): what the string holds, read once.
    if (again && typeof read.value === 'string') return readStructuredOf(read.value.trim(), kind, false);
  }
  return text.includes('\\"') ? readEscapedJsonOf(text, kind) : undefined;
}

/** `text` read as the body of a JSON string, and what that string holds read as JSON of `kind`, or undefined. */
function readEscapedJsonOf(text: string, kind: 'object' | 'array'): unknown {
  const quoted = readJsonValueAt(`"${text}"`, 0);
  if (!quoted.ok || quoted.end !== text.length + 2 || typeof quoted.value !== 'string') return undefined;
  return readJsonOf(quoted.value.trim(), kind);
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
      return readStructuredOf(text, type) ?? UNREAD;
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
  let trimmed: string | null = null;
  let string = false;
  // perf: a string-only parameter's value is not trimmed for nothing.
  for (let i = 0; i < types.length; i++) {
    const type = types[i]!;
    if (type === 'string') {
      string = true;
      continue;
    }
    const value = readAs(type, (trimmed ??= text.trim()), nullWords);
    if (value !== UNREAD) return { value, expected: null };
  }
  return { value: text, expected: string ? null : types };
}

/** `text` typed by a parameter's JSON Schema (`root` for its `$ref`s); no schema keeps the text. */
export function typeRawValue(text: string, schema: Schema | null | undefined, nullWords: readonly string[] = NULL_WORDS, root: Schema | null = null): TypedValue {
  return typeByTypes(text, schemaTypes(schema, root), nullWords);
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
