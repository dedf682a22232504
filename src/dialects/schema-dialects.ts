/**
 * The argument schemas clients send, as the JSON Schema the registry reads and Ajv compiles.
 * Gateways pass registries through from other APIs:
 *
 *   - Gemini function declarations and OpenAPI 3.0 write types in capitals (`"type": "INTEGER"`)
 *     and mark a value that may be null with `nullable: true`: the type is lowered, and
 *     `nullable` becomes a `"null"` member of the type (and of an `enum`, which lists values);
 *   - a `$schema` naming a draft Ajv does not load here (draft-04, draft-06, 2019-09) is read as
 *     its nearest loaded one (draft-07, 2020-12), not refused.
 *
 * Only schema positions are walked (`properties`, `items`, `anyOf`, `$defs`, ...), never data
 * (`enum`, `const`, `default`, `examples`). A schema that needs no change is returned as given,
 * so a registry of plain JSON Schema keeps its objects.
 */

/** OpenAPI's type names, as Gemini and OpenAPI 3.0 documents write them. */
const OPENAPI_TYPES: ReadonlyMap<string, string> = new Map(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'].map((name) => [name, name.toLowerCase()]));

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
/** Drafts this build does not load, by the loaded draft that reads them. */
const NEAREST_DRAFT: readonly (readonly [RegExp, string | null])[] = [
  [/^https?:\/\/json-schema\.org\/draft-0[46]\/schema#?$/, DRAFT_07],
  // null: the default engine (2020-12).
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, null],
];

/** Keywords whose value is one schema. */
const ONE = ['items', 'additionalProperties', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'] as const;
/** Keywords whose value is a list of schemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to schemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

type Dict = Record<string, unknown>;

function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `schema` as plain JSON Schema (see the file's comment); `schema` itself when nothing changes. */
export function canonicalSchema<T>(schema: T): T {
  return isDict(schema) ? (canonicalNode(schema, true) as T) : schema;
}

function canonicalNode(node: Dict, root: boolean): Dict {
  let out: Dict | null = null;
  const set = (key: string, value: unknown): void => {
    if (value === node[key]) return;
    out ??= { ...node };
    if (value === undefined) delete out[key];
    else out[key] = value;
  };
  const type = loweredType(node.type);
  if (node.nullable === true) {
    set('type', withNull(type));
    if (Array.isArray(node.enum) && !node.enum.includes(null)) set('enum', [...node.enum, null]);
    set('nullable', undefined);
  } else set('type', type);
  if (root && typeof node.$schema === 'string') {
    const nearest = NEAREST_DRAFT.find(([draft]) => draft.test(node.$schema as string));
    if (nearest !== undefined) set('$schema', nearest[1] ?? undefined);
  }
  for (const key of ONE) if (isDict(node[key])) set(key, canonicalNode(node[key], false));
  for (const key of LIST) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const mapped = list.map((item) => (isDict(item) ? canonicalNode(item, false) : item));
    if (mapped.some((item, i) => item !== list[i])) set(key, mapped);
  }
  for (const key of MAP) {
    const map = node[key];
    if (!isDict(map)) continue;
    let changed: Dict | null = null;
    for (const name of Object.keys(map)) {
      const value = map[name];
      const mapped = isDict(value) ? canonicalNode(value, false) : value;
      if (mapped !== value) (changed ??= { ...map })[name] = mapped;
    }
    if (changed !== null) set(key, changed);
  }
  return out ?? node;
}

/** A `type` with OpenAPI's capitals lowered (a list's members too); any other value as given. */
function loweredType(type: unknown): unknown {
  if (typeof type === 'string') return OPENAPI_TYPES.get(type) ?? type;
  if (!Array.isArray(type)) return type;
  const lowered = type.map((t) => (typeof t === 'string' ? (OPENAPI_TYPES.get(t) ?? t) : t));
  return lowered.some((t, i) => t !== type[i]) ? lowered : type;
}

/** A type that also admits null. */
function withNull(type: unknown): unknown {
  if (typeof type === 'string') return type === 'null' ? type : [type, 'null'];
  if (Array.isArray(type)) return type.includes('null') ? type : [...type, 'null'];
  return type;
}
