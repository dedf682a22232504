/**
 * Arguments whose tag is the parameter name (MiniMax M3), read with an explicit stack:
 *
 *     <city>Paris</city>                         -> city: "Paris" (typed by the schema)
 *     <filters><hot>true</hot></filters>         -> filters: {hot: true}   (an element of elements)
 *     <days><item>1</item><item>2</item></days>  -> days: [1, 2]           (repeated list items)
 *     <label>x</label><label>y</label>           -> label: ["x", "y"]      (a key repeated at one level)
 *
 * A grammar token (`]<]minimax[>[`) may stand before any tag; `skip` steps over it. Nesting is
 * capped; every search moves forward, and a close that never comes ends the read (truncation).
 */
import type { NamedTagArguments, ValueRule } from '../../../dialects/field/index.js';
import { FIELD_NAME_MAX } from '../../../dialects/field/names.js';
import type { ToolDef } from '../../../dialects/registry.js';
import { setOwn } from '../../../lex/json-object.js';
import { typeBySchema } from '../raw-value.js';
import { resolveSchema } from '../typing.js';

const NESTING_MAX = 64;

type Schema = Readonly<Record<string, unknown>> | null;

interface Frame {
  readonly name: string;
  readonly schema: Schema;
  container: Record<string, unknown> | unknown[] | null;
  /** Keys of `container` that a repetition turned into a list. */
  readonly lists: Set<string>;
}

export type NamedTagsRead =
  | { readonly kind: 'ok'; readonly args: Record<string, unknown>; readonly end: number }
  | { readonly kind: 'eof' }
  | { readonly kind: 'bad'; readonly at: number; readonly first: boolean; readonly detail?: string };

export interface NamedTagsContext {
  readonly text: string;
  readonly rule: ValueRule;
  readonly token: string | null;
  readonly tool: ToolDef | undefined;
  skip(at: number): number;
  /** True where the call's arguments end: its close, the next call, the section close, the end. */
  endsArguments(at: number): boolean;
  /** Collects "kept as text" problems for the call. */
  problem(key: string, expected: readonly string[]): void;
}

function isSchema(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The schema of child `key` in `schema` itself (an array's items, an object's property), or null. */
function directChild(schema: Readonly<Record<string, unknown>>, key: string, listItem: string): Schema {
  if (key === listItem && isSchema(schema.items)) return schema.items;
  const properties = schema.properties;
  if (isSchema(properties) && isSchema(properties[key])) return properties[key] as Readonly<Record<string, unknown>>;
  return null;
}

/**
 * The schema of child `key` of the open element: its own `items` or property, else the first
 * `anyOf` / `oneOf` alternative that has one (a union of a scalar and an object, written as
 * nested tags, takes the object's property schemas: `<limit><max>10</max></limit>` with
 * `limit: oneOf [integer, {max: integer}]` gives `{max: 10}`). One level of alternatives, each
 * resolved as the schema itself is.
 */
function childSchema(frame: Frame | null, key: string, tool: ToolDef | undefined, listItem: string): Schema {
  if (frame === null) return tool?.paramsByName.get(key)?.schema ?? null;
  if (frame.schema === null) return null;
  const root = tool?.schema ?? null;
  const schema = resolveSchema(frame.schema, root);
  const direct = directChild(schema, key, listItem);
  if (direct !== null) return direct;
  for (const union of ['anyOf', 'oneOf'] as const) {
    const alternatives = schema[union];
    if (!Array.isArray(alternatives)) continue;
    for (const alternative of alternatives) {
      if (!isSchema(alternative)) continue;
      const found = directChild(resolveSchema(alternative, root), key, listItem);
      if (found !== null) return found;
    }
  }
  return null;
}

/** The name of the open tag at `at` (`<city>` -> `city`) and where its content starts, or null. */
function openTagAt(text: string, at: number): { name: string; content: number } | null {
  if (text.charCodeAt(at) !== 0x3c || text.charCodeAt(at + 1) === 0x2f) return null;
  let pos = at + 1;
  const stop = Math.min(text.length, pos + FIELD_NAME_MAX);
  while (pos < stop) {
    const code = text.charCodeAt(pos);
    if (code === 0x3e) break;
    if (code <= 0x20 || code === 0x3c || code === 0x22 || code === 0x27 || code === 0x2f || code === 0x3d) return null;
    pos++;
  }
  if (pos >= stop || pos === at + 1) return null;
  return { name: text.slice(at + 1, pos), content: pos + 1 };
}

function put(frame: Frame | null, root: Record<string, unknown>, rootLists: Set<string>, key: string, value: unknown, listItem: string): void {
  if (frame !== null && (frame.container === null || Array.isArray(frame.container)) && key === listItem) {
    if (frame.container === null) frame.container = [];
    (frame.container as unknown[]).push(value);
    return;
  }
  let target: Record<string, unknown>;
  let lists: Set<string>;
  if (frame === null) {
    target = root;
    lists = rootLists;
  } else {
    if (frame.container === null || Array.isArray(frame.container)) frame.container = frame.container === null ? {} : frame.container;
    if (Array.isArray(frame.container)) {
      frame.container.push({ [key]: value });
      return;
    }
    target = frame.container;
    lists = frame.lists;
  }
  if (!Object.prototype.hasOwnProperty.call(target, key)) {
    setOwn(target, key, value);
    return;
  }
  if (lists.has(key)) (target[key] as unknown[]).push(value);
  else {
    setOwn(target, key, [target[key], value]);
    lists.add(key);
  }
}

export function readNamedTags(at: number, spec: NamedTagArguments, ctx: NamedTagsContext): NamedTagsRead {
  const { text, token } = ctx;
  const root: Record<string, unknown> = {};
  const rootLists = new Set<string>();
  const frames: Frame[] = [];
  let pos = at;
  let first = true;
  for (;;) {
    const here = ctx.skip(pos);
    const top = frames.length === 0 ? null : frames[frames.length - 1]!;
    if (top === null) {
      if (here >= text.length || ctx.endsArguments(here)) return { kind: 'ok', args: root, end: here };
    } else {
      if (here >= text.length) return { kind: 'eof' };
      const close = `</${top.name}>`;
      if (text.startsWith(close, here)) {
        frames.pop();
        put(frames.length === 0 ? null : frames[frames.length - 1]!, root, rootLists, top.name, top.container ?? {}, spec.listItem);
        pos = here + close.length;
        continue;
      }
    }
    const open = openTagAt(text, here);
    if (open === null) return here >= text.length ? { kind: 'eof' } : { kind: 'bad', at: here, first };
    first = false;
    const schema = childSchema(top, open.name, ctx.tool, spec.listItem);
    const inside = ctx.skip(open.content);
    if (openTagAt(text, inside) !== null) {
      if (frames.length >= NESTING_MAX) return { kind: 'bad', at: here, first: false };
      frames.push({ name: open.name, schema, container: null, lists: new Set() });
      pos = inside;
      continue;
    }
    const close = `</${open.name}>`;
    const closeAt = text.indexOf(close, open.content);
    if (closeAt < 0) return { kind: 'eof' };
    let raw = text.slice(open.content, closeAt);
    if (token !== null) {
      const trimmed = raw.trimEnd();
      if (trimmed.endsWith(token)) raw = trimmed.slice(0, trimmed.length - token.length);
    }
    const typed = typeBySchema(raw, ctx.rule, schema, null, ctx.tool?.schema ?? null);
    if (typed.expected !== null && frames.length === 0) ctx.problem(open.name, typed.expected);
    put(top, root, rootLists, open.name, typed.value, spec.listItem);
    pos = closeAt + close.length;
  }
}
