/**
 * Pythonic tool calls: `name(key=literal, …)`, alone or several in one list.
 *
 *     [get_weather(city='Paris'), search(query="rain", limit=3)]
 *     ^ list      ^ name ^ keyword arguments (Python literals, see py-literal.ts)
 *
 * A name is a dotted identifier (`brave_search.call`, `functions.lookup`). Every read is
 * forward from its offset, never throws, and tells a cut-off text (`eof`) from text that is not
 * a call. The work is the length of what is read.
 *
 * With a `PyLeniency` (calls between a grammar's own markers) a list reads as the field's
 * parsers read it: one call whose arguments do not read is a failure of its own, and its
 * siblings stand (the list goes on at the next `), NAME(`); and a list whose calls are complete
 * but whose `]` is missing (the text, or the limit, comes first) is read, `unclosed`.
 */
import { Code, skipJsonSpace } from './codes.js';
import { identLength, isIdentPart } from './ident.js';
import { readPyKwargsAt, type PyLeniency } from './py-literal.js';

export interface PyCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** The call's span, from its name through its `)`. */
  readonly start: number;
  readonly end: number;
}

export type PyCallRead =
  | { readonly ok: true; readonly call: PyCall }
  | { readonly ok: false; readonly eof: boolean; readonly error: string; readonly at: number; readonly name: string };

/** A call of a lenient list whose arguments did not read: from its name to where the list goes on. */
export interface PyCallFailure {
  readonly start: number;
  readonly end: number;
  readonly error: string;
  readonly name: string;
}

export type PyCallListRead =
  | {
      readonly ok: true;
      readonly calls: readonly PyCall[];
      readonly failures: readonly PyCallFailure[];
      readonly end: number;
      /** The list's `]` was missing (lenient reads only). */
      readonly unclosed: boolean;
    }
  | {
      readonly ok: false;
      readonly eof: boolean;
      readonly error: string;
      readonly at: number;
      readonly name: string;
      /** What a lenient read took before the failure, and where the failed part starts. */
      readonly calls: readonly PyCall[];
      readonly failures: readonly PyCallFailure[];
      readonly from: number;
    };

/**
 * The end of the dotted identifier at `at` (`a.b.c`), or `at` when none starts there. A hyphen
 * between word characters continues a part: MCP tool names join words so (`resolve-library-id`),
 * and models call them by that name. A hyphen at the end of the text may yet continue the name.
 */
export function dottedNameEnd(text: string, at: number): number {
  let end = at;
  for (;;) {
    const length = identLength(text, end);
    if (length === 0) return end === at ? at : end - 1;
    end += length;
    while (text.charCodeAt(end) === Code.Dash) {
      if (end + 1 >= text.length) return text.length;
      let more = end + 1;
      while (isIdentPart(text.charCodeAt(more))) more++;
      if (more === end + 1) return end;
      end = more;
    }
    if (text.charCodeAt(end) !== Code.Dot) return end;
    end++;
  }
}

/** True when a pythonic call (a dotted name and its `(`) starts at `at`, or the text ends inside its name. */
export function pyCallStartsAt(text: string, at: number): boolean {
  const end = dottedNameEnd(text, at);
  if (end === at) return false;
  return end >= text.length || text.charCodeAt(end) === Code.LeftParen;
}

/** One call `name(k=v, …)` at `at`. */
export function readPyCallAt(text: string, at: number, lenient: PyLeniency | null = null): PyCallRead {
  const nameEnd = dottedNameEnd(text, at);
  if (nameEnd === at) return { ok: false, eof: at >= text.length, error: 'expected a call', at, name: '' };
  const name = text.slice(at, nameEnd);
  if (nameEnd >= text.length) return { ok: false, eof: true, error: 'the text ended inside a call', at: nameEnd, name };
  if (text.charCodeAt(nameEnd) !== Code.LeftParen) return { ok: false, eof: false, error: `expected '(' after '${name}'`, at: nameEnd, name };
  const args = readPyKwargsAt(text, nameEnd + 1, lenient);
  if (!args.ok) return { ...args, name };
  return { ok: true, call: { name, arguments: args.value as Record<string, unknown>, start: at, end: args.end } };
}

/** `[call, call, …]` at `at` (which holds the `[`); a trailing comma is allowed, `[]` is no call. */
export function readPyCallListAt(text: string, at: number, lenient: PyLeniency | null = null): PyCallListRead {
  const calls: PyCall[] = [];
  const failures: PyCallFailure[] = [];
  let pos = skipJsonSpace(text, at + 1);
  for (;;) {
    // With the grammar's close (or the end) here, complete calls stand though the `]` is missing.
    const atLimit = pos >= text.length || (lenient !== null && lenient.limit(pos) === pos);
    if (atLimit && lenient !== null && calls.length + failures.length > 0) return { ok: true, calls, failures, end: pos, unclosed: true };
    if (pos >= text.length) return { ok: false, eof: true, error: 'the text ended inside a call list', at: pos, name: calls.at(-1)?.name ?? '', calls, failures, from: pos };
    if (text.charCodeAt(pos) === Code.RightBracket) return { ok: true, calls, failures, end: pos + 1, unclosed: false };
    const read = readPyCallAt(text, pos, lenient);
    if (!read.ok) {
      const sibling = lenient === null || read.eof ? null : nextSibling(text, read.at, Math.min(lenient.limit(read.at), text.length));
      if (sibling === null) return { ...read, calls, failures, from: pos };
      failures.push({ start: pos, end: sibling.end, error: read.error, name: read.name });
      pos = sibling.next;
      continue;
    }
    calls.push(read.call);
    pos = skipJsonSpace(text, read.call.end);
    if (pos < text.length && text.charCodeAt(pos) === Code.Comma) pos = skipJsonSpace(text, pos + 1);
    else if (pos < text.length && text.charCodeAt(pos) !== Code.RightBracket && (lenient === null || lenient.limit(pos) !== pos)) {
      return { ok: false, eof: false, error: "expected ',' or ']' after a call", at: pos, name: read.call.name, calls, failures, from: pos };
    }
  }
}

/**
 * Where a list goes on after a call that did not read, looking from `from` (where its reading
 * stopped): the failed call ends at a `)` followed by a comma and the next call, or by a `]`
 * that ends the list (the limit, a blank or the end after it); null when none comes before
 * `stop`. A `)` after a `[` opened past `from` and not yet closed is inside a list the failed
 * text began (`[f({…}) Sure: [g(a=1), h(b=2)]`: the prose before a nested list is no call's
 * arguments), so it ends no item.
 */
function nextSibling(text: string, from: number, stop: number): { readonly end: number; readonly next: number } | null {
  // Brackets opened past `from`; a `]` below zero closes one the failed call opened before it.
  let depth = 0;
  for (let i = from; i < stop; i++) {
    const code = text.charCodeAt(i);
    if (code === Code.LeftBracket) depth++;
    else if (code === Code.RightBracket) depth = depth > 0 ? depth - 1 : 0;
    if (code !== Code.RightParen || depth > 0) continue;
    const after = skipJsonSpace(text, i + 1);
    const next = text.charCodeAt(after);
    if (next === Code.Comma) {
      const call = skipJsonSpace(text, after + 1);
      if (call < stop && pyCallStartsAt(text, call)) return { end: i + 1, next: call };
    } else if (next === Code.RightBracket) {
      const rest = skipJsonSpace(text, after + 1);
      if (rest >= stop || rest > after + 1) return { end: i + 1, next: after };
    }
  }
  return null;
}
