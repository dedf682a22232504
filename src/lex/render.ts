/**
 * Canonical replay: a call rendered as `name({ ...pretty JSON... })`, and whole turns as the
 * canonical tagged grammar (`<tool_call>`, `<assistant_prose>`, `<user_response>`, `<done>`).
 */
import { Code, isUnicodeWhitespace } from './codes.js';

export type CanonicalCall = { readonly name: string; readonly arguments?: unknown };

/** One part of a turn to render; read only, so the composer's own parts are passed as they are. */
export type CanonicalPart =
  | string
  | { readonly kind: 'call'; readonly name: string; readonly arguments?: unknown }
  | { readonly kind: 'bare'; readonly calls: readonly CanonicalCall[]; readonly prose?: string }
  | { readonly kind: 'prose' | 'answer' | 'done'; readonly text: string };

/** Order keys by code point (the UTF-8 byte order the reference sorts by), not UTF-16 unit. */
function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (astral code point) sorts above every BMP unit, including U+E000..U+FFFF.
    const xAstral = x >= 0xd800 && x <= 0xdfff;
    const yAstral = y >= 0xd800 && y <= 0xdfff;
    if (xAstral !== yAstral) return xAstral ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * A JSON string literal. A string starting with `<<` gets its first `<` as `\u003c`: written
 * raw, `"<<EOF\n..."` would read back as a quoted heredoc, so the call would not round-trip.
 */
function renderString(s: string): string {
  if (isShortPlainString(s)) return `"${s}"`;
  const json = JSON.stringify(s);
  return s.startsWith('<<') ? `"\\u003c${json.slice(2)}` : json;
}

/** perf: short keys and values are checked in place; longer ones go to the engine whole. */
const PLAIN_STRING_MAX = 64;

/** True when `JSON.stringify(s)` is `s` in quotes: no control, quote, backslash or surrogate unit. */
function isPlainJsonString(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < Code.Space || code === Code.Quote || code === Code.Backslash || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}

/** A scalar's JSON text, or null for a container (an object or array to descend into). */
function renderScalar(value: unknown): string | null {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return renderString(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      return null;
    default:
      return 'null';
  }
}

/**
 * Containers this deep or deeper render on one line (`[1, [2]]`, `{"a": 1}`). Pretty printing
 * indents each level by two more spaces, so without a bound the text grows with the square of
 * the nesting depth; past it every level costs a constant, and the rendering stays linear in the
 * size of the value. Real arguments are far shallower than this.
 */
export const PRETTY_DEPTH_LIMIT = 16;

const INDENTS: readonly string[] = Array.from({ length: PRETTY_DEPTH_LIMIT + 1 }, (_, i) => '  '.repeat(i));

interface OpenContainer {
  readonly value: object;
  /** Object members to render, in canonical order; null for an array. */
  readonly keys: string[] | null;
  readonly length: number;
  /** Nesting depth: 0 for the top-level value. */
  readonly depth: number;
  next: number;
}

/**
 * The value as canonical JSON. Iterative (an explicit stack of open containers), so a deep value
 * from any caller cannot exhaust the call stack.
 */
function renderJson(root: unknown): string {
  // perf: most arguments are one flat record of short scalars, written here in one pass (a
  // third of the time of checking it and handing it to the engine); a value whose canonical form
  // is exactly the engine's pretty JSON is handed to it (a third of the time of the walk below).
  return flatRecordJson(root) ?? (stringifiesCanonically(root, 0) ? JSON.stringify(root, null, 2) : walkCanonicalJson(root));
}

/**
 * The canonical JSON of a plain record whose keys are in canonical order and whose members are
 * short plain strings (as `renderString` writes them unescaped), finite numbers, booleans or
 * null; null for any other value, which the general paths render.
 */
function flatRecordJson(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return null;
  const record = value as Record<string, unknown>;
  // perf: for-in walks the object's enumeration cache, where `Object.keys` made an array per call.
  // perf: each member is written by one template, a string member's quotes in it.
  let out = '';
  let previous: string | null = null;
  for (const key in record) {
    // An inherited enumerable key (a polluted prototype) is left to the general paths.
    if (!Object.hasOwn(record, key)) return null;
    if (!isShortPlainString(key) || key === 'toJSON' || (previous !== null && compareKeys(previous, key) > 0)) return null;
    const member = record[key];
    if (typeof member === 'string') {
      if (!isShortPlainString(member)) return null;
      out = previous === null ? `{\n  "${key}": "${member}"` : `${out},\n  "${key}": "${member}"`;
    } else {
      let json: string;
      if (typeof member === 'number') {
        if (!Number.isFinite(member)) return null;
        json = JSON.stringify(member);
      } else if (typeof member === 'boolean') json = member ? 'true' : 'false';
      else if (member === null) json = 'null';
      else return null;
      out = previous === null ? `{\n  "${key}": ${json}` : `${out},\n  "${key}": ${json}`;
    }
    previous = key;
  }
  if (previous === null) return Object.hasOwn(record, 'toJSON') ? null : '{}';
  return `${out}\n}`;
}

/** A string `renderString` writes as it is, in quotes. */
function isShortPlainString(s: string): boolean {
  // perf: the `<<` is looked for by code, not by `startsWith` (a builtin call per key and per
  // value: a fifth of rendering a one-key record).
  return s.length <= PLAIN_STRING_MAX && !(s.charCodeAt(0) === Code.LessThan && s.charCodeAt(1) === Code.LessThan) && isPlainJsonString(s);
}

/** The canonical JSON of any value, by the renderer's own walk (exported for the property test that holds the engine's shortcut to it). */
export function walkCanonicalJson(root: unknown): string {
  const stack: OpenContainer[] = [];
  const open = new Set<object>();
  // perf: members are appended to one string (no per-container arrays and joins).
  let out = '';
  let pending: unknown = root;
  let hasPending = true;
  for (;;) {
    if (hasPending) {
      hasPending = false;
      const scalar = renderScalar(pending);
      if (scalar !== null) out += scalar;
      else {
        const container = pending as object;
        if (open.has(container)) throw new TypeError('renderCanonicalCall: args must not contain a cycle');
        open.add(container);
        const keys = Array.isArray(container) ? null : renderedKeys(container as Record<string, unknown>);
        const length = keys === null ? (container as unknown[]).length : keys.length;
        stack.push({ value: container, keys, length, depth: stack.length, next: 0 });
        out += keys === null ? '[' : '{';
      }
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return out;
    const pretty = top.depth < PRETTY_DEPTH_LIMIT;
    if (top.next < top.length) {
      if (pretty) out += `${top.next === 0 ? '\n' : ',\n'}${INDENTS[top.depth + 1]}`;
      else if (top.next > 0) out += ', ';
      if (top.keys === null) pending = (top.value as unknown[])[top.next];
      else {
        const key = top.keys[top.next]!;
        out += `${renderString(key)}: `;
        pending = (top.value as Record<string, unknown>)[key];
      }
      top.next++;
      hasPending = true;
      continue;
    }
    if (pretty && top.length > 0) out += `\n${INDENTS[top.depth]}`;
    out += top.keys === null ? ']' : '}';
    open.delete(top.value);
    stack.pop();
  }
}

/**
 * Whether `JSON.stringify(value, null, 2)` is `value`'s canonical JSON: plain objects whose keys
 * are already in canonical order, arrays, and scalars the engine writes alike (finite numbers,
 * booleans, null, strings not starting with `<<`), all shallower than `PRETTY_DEPTH_LIMIT`. Any
 * other value (a bigint, a non-finite number, a member with no JSON form, a prototype or
 * `toJSON` of its own, a cycle, which is too deep) takes the walk. Linear: each member once.
 */
function stringifiesCanonically(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      return !value.startsWith('<<');
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= PRETTY_DEPTH_LIMIT - 1) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!stringifiesCanonically(value[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, 'toJSON')) return false;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key.startsWith('<<') || (i > 0 && compareKeys(keys[i - 1]!, key) > 0)) return false;
    if (!stringifiesCanonically(record[key], depth + 1)) return false;
  }
  return true;
}

/** Members that have a JSON form, as in JSON.stringify (undefined, functions and symbols are left out). */
function renderedKeys(record: Record<string, unknown>): string[] {
  const keys = sortedKeys(record);
  for (let i = 0; i < keys.length; i++) {
    const member = record[keys[i]!];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') {
      return keys.filter((key) => {
        const m = record[key];
        return !(m === undefined || typeof m === 'function' || typeof m === 'symbol');
      });
    }
  }
  return keys;
}

/** The record's own keys in canonical order; perf: keys already in order are not re-sorted. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) {
    if (compareKeys(keys[i - 1]!, keys[i]!) > 0) return keys.sort(compareKeys);
  }
  return keys;
}

/**
 * `name(` + the arguments as pretty JSON + `)`: 2-space indentation, `"key": value`, object keys
 * sorted, `{}`/`[]` when empty, no trailing newline. Missing arguments render as `{}`. Containers
 * nested `PRETTY_DEPTH_LIMIT` deep or deeper render on one line, so the text stays linear in the
 * arguments' size.
 *
 *     look({
 *       "path": "a.rs"
 *     })
 */
export function renderCanonicalCall(name: string, args: unknown): string {
  if (typeof name !== 'string') throw new TypeError('renderCanonicalCall: name must be a string');
  return `${name}(${renderJson(args === undefined ? {} : args)})`;
}

/** `[start, end)` of `text` without leading and trailing Unicode White_Space (Rust `trim`). */
export function trimBounds(text: string, start = 0, end = text.length): [number, number] {
  while (start < end && isUnicodeWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isUnicodeWhitespace(text.charCodeAt(end - 1))) end--;
  return [start, end];
}

/** Rust's `str::trim` (Unicode White_Space), which differs from JS `trim` at U+FEFF/U+0085. */
export function trimUnicode(s: string): string {
  // perf: the bounds inline, not as `trimBounds`' pair (an array per prose block rendered).
  let start = 0;
  let end = s.length;
  while (start < end && isUnicodeWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isUnicodeWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** The text a part shows: strings as they are, nothing for a missing value. */
function display(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function renderCallBlock(call: { name?: unknown; arguments?: unknown }): string {
  return callBlock(typeof call.name === 'string' ? call.name : '', call.arguments);
}

/** A `call` part's block, as `renderParts` writes it, for a composer that renders as it goes. */
export function callBlock(name: string, args: unknown, lead = ''): string {
  // One template (perf: each joined piece of a string is an allocation, and this runs per call).
  return `${lead}<tool_call>\n${name}(${renderJson(args === undefined ? {} : args)})\n</tool_call>`;
}

/** A `prose` part's block, as `renderParts` writes it; `lead`, a separator written before it. */
export function proseBlock(text: string, lead = ''): string {
  return `${lead}<assistant_prose>\n${trimUnicode(text)}\n</assistant_prose>`;
}

function renderPart(part: unknown): string {
  if (typeof part === 'string') return part;
  if (typeof part !== 'object' || part === null || Array.isArray(part)) {
    throw new TypeError('renderParts: each part must be a string or an object');
  }
  const record = part as Record<string, unknown>;
  const kind = record.kind;
  if (typeof kind !== 'string') throw new TypeError('renderParts: part.kind must be a string');
  switch (kind) {
    case 'call':
      return renderCallBlock(record);
    case 'bare': {
      const calls = record.calls;
      if (!Array.isArray(calls)) throw new TypeError('renderParts: a bare part needs a calls array');
      const pieces = calls.map((call: unknown) => {
        if (typeof call !== 'object' || call === null || Array.isArray(call)) {
          throw new TypeError('renderParts: each call of a bare part must be an object');
        }
        return renderCallBlock(call as Record<string, unknown>);
      });
      if (typeof record.prose === 'string') {
        const prose = trimUnicode(record.prose);
        if (prose !== '') pieces.push(`<assistant_prose>\n${prose}\n</assistant_prose>`);
      }
      return pieces.join('\n\n');
    }
    case 'prose':
      return proseBlock(display(record.text));
    case 'answer':
      return `<user_response>\n${trimUnicode(display(record.text))}\n</user_response>`;
    case 'done':
      return `<done>${trimUnicode(display(record.text))}</done>`;
    default:
      throw new TypeError(`renderParts: part.kind ${JSON.stringify(kind)} is not one of call, bare, prose, answer, done`);
  }
}

/**
 * Render canonical parts in order, joined by a blank line. A string part is used verbatim (an
 * empty one still contributes its separator). Throws a TypeError on malformed parts: they come
 * from the composer, never from model text.
 */
export function renderParts(parts: readonly CanonicalPart[]): string {
  if (!Array.isArray(parts)) throw new TypeError('renderParts: parts must be an array');
  // perf: one growing string, no intermediate array of rendered parts. A hole in a sparse
  // array renders empty, as `map` then `join` did.
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const rendered = i in parts ? renderPart(parts[i]) : '';
    out += i === 0 ? rendered : `\n\n${rendered}`;
  }
  return out;
}

/** `s` when it has at most `max` code points, else its first `max` code points and `…`. */
export function previewStr(s: string, max: number): string {
  let count = 0;
  let i = 0;
  const length = s.length;
  while (i < length) {
    if (count === max) return `${s.slice(0, i)}\u2026`;
    const code = s.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    i += pair ? 2 : 1;
    count++;
  }
  return s;
}
