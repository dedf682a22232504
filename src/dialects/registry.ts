/**
 * Tool registries, normalised once at the boundary.
 *
 * Accepted forms (a single entry or a list of entries, or a registry dict):
 * - `{name, description?, parameters?}` with JSON Schema parameters (`{type: "object", properties, required}`,
 *   or any schema: a top-level `$ref` to a local definition, `allOf` / `anyOf` / `oneOf` branches);
 * - OpenAI `{type: "function", function: {name, description?, parameters?}}`;
 * - Anthropic `{name, description?, input_schema}`;
 * - the reference's registry dict `{_type: "tool_registry", tools: [{name, parameters: {<param>: {type, required?}}}]}`
 *   (its per-parameter shape is also accepted as `parameters` of any entry);
 * - a plain list of names.
 *
 * A malformed entry raises a `TypeError` naming the entry and the field: a registry is caller
 * data, not model text. Everything downstream trusts the normalised form.
 */
import { canonicalSchema } from './schema-dialects.js';
import { DIALECTS } from './vocabulary.js';

export interface ToolParam {
  readonly name: string;
  /** The declared JSON type (`string`, `integer`, `object`, ...) or null when undeclared. */
  readonly type: string | null;
  readonly required: boolean;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly examples?: readonly unknown[];
  /**
   * The parameter's whole JSON Schema as the caller wrote it (`anyOf`, type arrays, nested
   * `properties` included), or null when none was given. `type` above keeps one name for the
   * readers that need only that; raw-text typing reads this.
   */
  readonly schema: Readonly<Record<string, unknown>> | null;
}

export interface ToolDef {
  readonly name: string;
  readonly description: string;
  /** Parameters in declaration order. */
  readonly params: readonly ToolParam[];
  /** The same parameters by name (a Map, so model-chosen keys never touch a prototype). */
  readonly paramsByName: ReadonlyMap<string, ToolParam>;
  /**
   * The whole JSON Schema of the arguments, as the caller gave it (`parameters`, `input_schema`),
   * for argument validation; for the reference's `{<param>: {type, required?}}` form, the
   * equivalent object schema. Absent when the tool declared no parameters.
   */
  readonly schema?: Readonly<Record<string, unknown>>;
}

export interface ToolRegistry {
  readonly tools: readonly ToolDef[];
  readonly byName: ReadonlyMap<string, ToolDef>;
  /** `registry_names`: trimmed, de-duplicated registry names plus the implicit names, sorted by code unit. */
  readonly names: readonly string[];
}

/** What callers may pass as `tools`. */
export type ToolsInput = unknown;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isDict(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function optionalString(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new TypeError(`${where} must be a string; got ${typeName(value)}`);
  return value;
}

function paramFromSchema(name: string, schema: unknown, required: boolean, where: string): ToolParam {
  // A boolean schema (`true`: anything) declares no type.
  if (typeof schema === 'boolean') return { name, type: null, required, schema: null };
  if (schema !== undefined && schema !== null && !isDict(schema)) {
    throw new TypeError(`${where} must be an object; got ${typeName(schema)}`);
  }
  const s = schema ?? {};
  let type: string | null = null;
  if (typeof s.type === 'string') type = s.type;
  else if (Array.isArray(s.type)) type = (s.type.find((t) => typeof t === 'string' && t !== 'null') as string | undefined) ?? null;
  const param: { -readonly [K in keyof ToolParam]: ToolParam[K] } = { name, type, required, schema: isDict(schema) ? schema : null };
  const description = optionalString(s.description, `${where}.description`);
  if (description !== undefined) param.description = description;
  if (Array.isArray(s.enum)) param.enum = s.enum;
  if (Array.isArray(s.examples)) param.examples = s.examples;
  return param;
}

/**
 * Keywords that only a JSON Schema writes at its top: a `parameters` object holding one (with a
 * value other than an object, see `isJsonSchema`) is a schema (`{"$ref": "#/definitions/args", …}` as zod-to-json-schema writes it,
 * `{"anyOf": […]}`, `{"additionalProperties": false}`), never the reference's per-parameter form,
 * whose every value is a parameter's own object.
 */
const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  '$ref', '$schema', '$id', '$defs', '$comment', 'definitions', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else',
  'additionalProperties', 'patternProperties', 'propertyNames', 'unevaluatedProperties', 'minProperties', 'maxProperties',
  'dependentRequired', 'dependentSchemas', 'required', 'enum', 'const', 'title', 'description', 'default', 'examples',
]);

/**
 * Whether `parameters` is a JSON Schema rather than the reference's `{<param>: {type, required?}}`.
 * A keyword counts only with a value no parameter's own object has (a string, an array, a
 * boolean): the reference form may name parameters `title`, `description` or `required`.
 */
function isJsonSchema(parameters: Record<string, unknown>): boolean {
  if (typeof parameters.type === 'string' || Array.isArray(parameters.type) || isDict(parameters.properties)) return true;
  for (const key of Object.keys(parameters)) if (SCHEMA_KEYWORDS.has(key) && !isDict(parameters[key])) return true;
  return false;
}

/**
 * The object schemas whose `properties` name the arguments: the schema itself, the local
 * definition a top-level `$ref` points to, and the branches of a top-level `allOf`, `anyOf` or
 * `oneOf` (each followed on the same way). `binding`: the schema always applies (reached through
 * `$ref` and `allOf` only), so its `required` list holds; a branch of `anyOf` may not apply.
 * Depth-bounded: a registry is caller data.
 */
function propertySchemas(schema: Record<string, unknown>, root: Record<string, unknown>, binding = true, depth = 0): { schema: Record<string, unknown>; binding: boolean }[] {
  const out = [{ schema, binding }];
  if (depth >= 4) return out;
  if (typeof schema.$ref === 'string') {
    const target = localTarget(root, schema.$ref);
    if (target !== null) out.push(...propertySchemas(target, root, binding, depth + 1));
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) if (isDict(branch)) out.push(...propertySchemas(branch, root, binding && key === 'allOf', depth + 1));
  }
  return out;
}

/** The schema a local JSON pointer (`#/definitions/args`, `#/$defs/args`) names in `root`, or null. */
function localTarget(root: Record<string, unknown>, ref: string): Record<string, unknown> | null {
  if (!ref.startsWith('#/')) return null;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isDict(at) || !Object.hasOwn(at, key)) return null;
    at = at[key];
  }
  return isDict(at) ? at : null;
}

/** JSON Schema `{type: "object", properties, required}` (or one that points to such) or the reference's `{<param>: {type, required?}}`. */
function paramsFrom(parameters: unknown, where: string): ToolParam[] {
  if (parameters === undefined || parameters === null) return [];
  if (!isDict(parameters)) throw new TypeError(`${where} must be an object; got ${typeName(parameters)}`);
  if (isJsonSchema(parameters)) {
    const params: ToolParam[] = [];
    const seen = new Set<string>();
    for (const { schema, binding } of propertySchemas(parameters, parameters)) {
      const own = schema === parameters;
      const props = schema.properties ?? {};
      if (!isDict(props)) {
        if (own) throw new TypeError(`${where}.properties must be an object; got ${typeName(props)}`);
        continue;
      }
      const req = schema.required ?? [];
      if (!Array.isArray(req) || req.some((r) => typeof r !== 'string')) {
        if (own) throw new TypeError(`${where}.required must be an array of strings`);
        continue;
      }
      const requiredSet = new Set(binding ? (req as string[]) : []);
      for (const key of Object.keys(props)) {
        if (seen.has(key)) continue;
        seen.add(key);
        params.push(paramFromSchema(key, props[key], requiredSet.has(key), `${where}.properties.${key}`));
      }
    }
    return params;
  }
  return Object.keys(parameters).map((key) => {
    const spec = parameters[key];
    const at = `${where}.${key}`;
    if (!isDict(spec)) throw new TypeError(`${at} must be an object; got ${typeName(spec)}`);
    if (spec.required !== undefined && typeof spec.required !== 'boolean') {
      throw new TypeError(`${at}.required must be a boolean; got ${typeName(spec.required)}`);
    }
    return paramFromSchema(key, spec, spec.required === true, at);
  });
}

/** The arguments' JSON Schema: the caller's own when it is one, else the reference form's equivalent. */
function schemaOf(parameters: unknown, params: readonly ToolParam[]): Record<string, unknown> | undefined {
  if (!isDict(parameters)) return undefined;
  if (isJsonSchema(parameters)) return parameters;
  const properties: Record<string, unknown> = {};
  for (const p of params) properties[p.name] = p.type === null ? {} : { type: p.type };
  return { type: 'object', properties, required: params.filter((p) => p.required).map((p) => p.name) };
}

function toolFrom(entry: unknown, where: string): ToolDef {
  if (typeof entry === 'string') return makeTool(entry, '', [], where, undefined);
  if (!isDict(entry)) throw new TypeError(`${where} must be a tool object or a name; got ${typeName(entry)}`);
  if (entry.type === 'function' && entry.function !== undefined) {
    const fn = entry.function;
    if (!isDict(fn)) throw new TypeError(`${where}.function must be an object; got ${typeName(fn)}`);
    const parameters = asJsonSchema(fn.parameters);
    const params = paramsFrom(parameters, `${where}.function.parameters`);
    return makeTool(fn.name, optionalString(fn.description, `${where}.function.description`) ?? '', params, `${where}.function`, schemaOf(parameters, params));
  }
  const description = optionalString(entry.description, `${where}.description`) ?? '';
  // Anthropic's `input_schema`, MCP's `inputSchema` (a `tools/list` result passed through),
  // Gemini's `parametersJsonSchema`, else `parameters`.
  const key = SCHEMA_KEYS.find((k) => entry[k] !== undefined) ?? 'parameters';
  const raw = asJsonSchema(entry[key]);
  const params = paramsFrom(raw, `${where}.${key}`);
  return makeTool(entry.name, description, params, where, schemaOf(raw, params));
}

/** Where a tool that is no OpenAI `function` wrapper keeps its argument schema, first found first. */
const SCHEMA_KEYS = ['input_schema', 'inputSchema', 'parametersJsonSchema', 'parameters'] as const;

/** A JSON Schema as the registry reads it (schema-dialects.ts); the reference form as given. */
function asJsonSchema(parameters: unknown): unknown {
  return isDict(parameters) && isJsonSchema(parameters) ? canonicalSchema(parameters) : parameters;
}

function makeTool(name: unknown, description: string, params: ToolParam[], where: string, schema: Record<string, unknown> | undefined): ToolDef {
  if (typeof name !== 'string') throw new TypeError(`${where}.name must be a string; got ${typeName(name)}`);
  const trimmed = name.trim();
  if (trimmed === '') throw new TypeError(`${where}.name must be a non-empty string`);
  const tool: { -readonly [K in keyof ToolDef]: ToolDef[K] } = {
    name: trimmed,
    description,
    params: Object.freeze(params.map((p) => Object.freeze(p))),
    paramsByName: new Map(params.map((p) => [p.name, p])),
  };
  if (schema !== undefined) tool.schema = schema;
  return Object.freeze(tool);
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Builds a registry from already-normalised tools (the first definition of a name wins). */
export function registryOf(tools: readonly ToolDef[]): ToolRegistry {
  const byName = new Map<string, ToolDef>();
  for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  const names = new Set(byName.keys());
  for (const implicit of DIALECTS.IMPLICIT_TOOL_NAMES) names.add(implicit);
  return Object.freeze({ tools: Object.freeze([...byName.values()]), byName, names: Object.freeze([...names].sort(byCodeUnit)) });
}

/**
 * Normalises any accepted registry form. `undefined`/`null` mean "no registry" and return null
 * (the composer then knows only the implicit tool names).
 */
export function normalizeTools(input: ToolsInput): ToolRegistry | null {
  if (input === undefined || input === null) return null;
  if (isRegistry(input)) return input;
  if (typeof input !== 'object') return normalizeFresh(input);
  // perf: a caller (a gateway) passes the same tools array with every parse; it is normalised
  // once per object. A registry passed once is treated as immutable: change it, pass a new one.
  let registry = byInput.get(input);
  if (registry === undefined) {
    registry = normalizeFresh(input);
    byInput.set(input, registry);
  }
  return registry;
}

const byInput = new WeakMap<object, ToolRegistry>();

function normalizeFresh(input: ToolsInput): ToolRegistry {
  let entries: unknown[];
  let where = 'tools';
  if (Array.isArray(input)) entries = input;
  else if (isDict(input) && Array.isArray(input.tools)) {
    entries = input.tools;
    where = 'tools.tools';
  } else if (isDict(input) && (input.name !== undefined || input.function !== undefined)) entries = [input];
  else throw new TypeError(`tools must be an array of tools, a tool registry {tools: [...]}, or a list of names; got ${typeName(input)}`);
  const tools: ToolDef[] = [];
  entries.forEach((entry, i) => {
    // A Gemini `Tool` holds its functions in `functionDeclarations` (REST) or `function_declarations`.
    const declarations = isDict(entry) && entry.name === undefined ? (entry.functionDeclarations ?? entry.function_declarations) : undefined;
    if (Array.isArray(declarations)) declarations.forEach((d, j) => tools.push(toolFrom(d, `${where}[${i}].functionDeclarations[${j}]`)));
    else tools.push(toolFrom(entry, `${where}[${i}]`));
  });
  return registryOf(tools);
}

/** True for a value `normalizeTools` already produced (normalising twice is free). */
export function isRegistry(value: unknown): value is ToolRegistry {
  return isDict(value) && value.byName instanceof Map && Array.isArray(value.names) && Array.isArray(value.tools);
}

/** `registry_names` of a possibly absent registry. */
export function registryNames(registry: ToolRegistry | null): readonly string[] {
  return registry ? registry.names : IMPLICIT_ONLY;
}

const IMPLICIT_ONLY: readonly string[] = Object.freeze([...DIALECTS.IMPLICIT_TOOL_NAMES].sort(byCodeUnit));

/**
 * `derive` memoised per normalised registry, with one slot for "no registry". Keyed by identity:
 * a normalised registry is frozen, and the service passes the same one on every request, so
 * what is derived from it (name sets, a scan spec) is built once and found again by reference.
 */
export function perRegistry<T extends object>(derive: (registry: ToolRegistry | null) => T): (registry: ToolRegistry | null) => T {
  const byRegistry = new WeakMap<ToolRegistry, T>();
  let withoutRegistry: T | undefined;
  return (registry) => {
    if (registry === null) return (withoutRegistry ??= derive(null));
    let value = byRegistry.get(registry);
    if (value === undefined) {
      value = derive(registry);
      byRegistry.set(registry, value);
    }
    return value;
  };
}
