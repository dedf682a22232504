/**
 * Arguments checked against the tool's JSON Schema, with Ajv (draft 2020-12 by default, draft-07
 * when the schema's `$schema` says so). A tool's validator is compiled on the first call that
 * needs it and kept beside the normalised tool (a WeakMap keyed by the frozen `ToolDef`), so a
 * registry passed again, or cached by the service, never compiles twice.
 *
 * A schema Ajv cannot compile does not throw: it is discovered while parsing a call, and a parse
 * must not fail because the model called that tool. It becomes an `invalid_arguments` violation
 * saying the arguments were not checked.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ToolDef } from '../dialects/registry.js';

/** One schema failure: where (a JSON Pointer into the arguments) and what. */
export interface ArgumentFailure {
  readonly pointer: string;
  readonly message: string;
}

export type ArgumentCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly failures: readonly ArgumentFailure[] }
  | { readonly ok: 'unchecked'; readonly reason: string };

/**
 * perf: `allErrors` validators are several times slower than first-failure ones even on valid
 * input, and most calls are valid. Each tool gets a first-failure validator; the all-errors one
 * (which the report needs) is compiled only when a call has failed the first.
 */
interface Validators {
  readonly first: ValidateFunction;
  all: ValidateFunction | null;
}
type Compiled = Validators | { readonly reason: string };

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const FIRST_FAILURE = { strict: false, allErrors: false, logger: false } as const;
const ALL_ERRORS = { strict: false, allErrors: true, logger: false } as const;

const engines: { draft2020: [Ajv2020 | null, Ajv2020 | null]; draft07: [Ajv | null, Ajv | null] } = { draft2020: [null, null], draft07: [null, null] };

function engineFor(schema: Readonly<Record<string, unknown>>, allErrors: boolean): Ajv | Ajv2020 {
  const declared = schema.$schema;
  const k = allErrors ? 1 : 0;
  const options = allErrors ? ALL_ERRORS : FIRST_FAILURE;
  if (typeof declared === 'string' && DRAFT_07.test(declared)) return (engines.draft07[k] ??= new Ajv(options));
  return (engines.draft2020[k] ??= new Ajv2020(options));
}

const compiledByTool = new WeakMap<ToolDef, Compiled>();

function compileWith(schema: Readonly<Record<string, unknown>>, allErrors: boolean): ValidateFunction {
  const engine = engineFor(schema, allErrors);
  try {
    return engine.compile(schema);
  } finally {
    // Ajv keeps every compiled schema in its own cache; the validator lives beside the tool
    // instead, so a registry the service's LRU evicts is collected with its validators.
    engine.removeSchema(schema);
  }
}

function compile(schema: Readonly<Record<string, unknown>>): Compiled {
  try {
    return { first: compileWith(schema, false), all: null };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function failureOf(error: ErrorObject): ArgumentFailure {
  const params = error.params as Record<string, unknown>;
  let pointer = error.instancePath;
  // `required` and `additionalProperties` report the parent object; the pointer names the key.
  if (typeof params.missingProperty === 'string') pointer += `/${escapePointer(params.missingProperty)}`;
  else if (typeof params.additionalProperty === 'string') pointer += `/${escapePointer(params.additionalProperty)}`;
  const message = error.keyword === 'additionalProperties' ? 'is not an allowed property' : error.keyword === 'required' ? 'is required' : (error.message ?? error.keyword);
  return { pointer, message };
}

/** The tool's schema verdict on `args`; tools without a schema always pass. */
export function checkArguments(tool: ToolDef, args: Record<string, unknown>): ArgumentCheck {
  const schema = tool.schema;
  if (schema === undefined) return { ok: true };
  let compiled = compiledByTool.get(tool);
  if (compiled === undefined) {
    compiled = compile(schema);
    compiledByTool.set(tool, compiled);
  }
  if ('reason' in compiled) return { ok: 'unchecked', reason: compiled.reason };
  if (compiled.first(args)) return { ok: true };
  const all = (compiled.all ??= compileWith(schema, true));
  all(args);
  const failures = (all.errors ?? []).filter((error) => !isExactIntegerKept(error, args)).map(failureOf);
  return failures.length === 0 ? { ok: true } : { ok: false, failures };
}

/** An integer beyond 2^53 kept as its digits (lex/json-stream.ts): `-?[1-9][0-9]{15,}`. */
const KEPT_INTEGER = /^-?[1-9]\d{15,}$/;

/**
 * A type failure for an integer the model wrote beyond 2^53, which the readers keep as a string
 * of its digits so no digit is lost: where the schema wants an integer or a number, it is one.
 */
function isExactIntegerKept(error: ErrorObject, args: Record<string, unknown>): boolean {
  if (error.keyword !== 'type') return false;
  const wanted = (error.params as { type?: unknown }).type;
  const types = Array.isArray(wanted) ? wanted : [wanted];
  if (!types.includes('integer') && !types.includes('number')) return false;
  const value = valueAt(args, error.instancePath);
  return typeof value === 'string' && KEPT_INTEGER.test(value) && !Number.isSafeInteger(Number(value));
}

/** The value at a JSON Pointer into `root`, or undefined. */
function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let at: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    if (at === null || typeof at !== 'object') return undefined;
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
