/**
 * Pythonic tool calls: `name(key=literal, …)`, alone or several in one list.
 *
 *     [get_weather(city='Paris'), search(query="rain", limit=3)]
 *     ^ list      ^ name ^ keyword arguments (Python literals, see py-literal.ts)
 *
 * A name is a dotted identifier (`brave_search.call`, `functions.lookup`). Every read is
 * forward from its offset, never throws, and tells a cut-off text (`eof`) from text that is not
 * a call. The work is the length of what is read.
 */
import { Code, skipJsonSpace } from './codes.js';
import { identLength } from './ident.js';
import { readPyKwargsAt } from './py-literal.js';

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

export type PyCallListRead =
  | { readonly ok: true; readonly calls: readonly PyCall[]; readonly end: number }
  | { readonly ok: false; readonly eof: boolean; readonly error: string; readonly at: number; readonly name: string };

/** The end of the dotted identifier at `at` (`a.b.c`), or `at` when none starts there. */
export function dottedNameEnd(text: string, at: number): number {
  let end = at;
  for (;;) {
    const length = identLength(text, end);
    if (length === 0) return end === at ? at : end - 1;
    end += length;
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
export function readPyCallAt(text: string, at: number): PyCallRead {
  const nameEnd = dottedNameEnd(text, at);
  if (nameEnd === at) return { ok: false, eof: at >= text.length, error: 'expected a call', at, name: '' };
  const name = text.slice(at, nameEnd);
  if (nameEnd >= text.length) return { ok: false, eof: true, error: 'the text ended inside a call', at: nameEnd, name };
  if (text.charCodeAt(nameEnd) !== Code.LeftParen) return { ok: false, eof: false, error: `expected '(' after '${name}'`, at: nameEnd, name };
  const args = readPyKwargsAt(text, nameEnd + 1);
  if (!args.ok) return { ...args, name };
  return { ok: true, call: { name, arguments: args.value as Record<string, unknown>, start: at, end: args.end } };
}

/** `[call, call, …]` at `at` (which holds the `[`); a trailing comma is allowed, `[]` is no call. */
export function readPyCallListAt(text: string, at: number): PyCallListRead {
  const calls: PyCall[] = [];
  let pos = skipJsonSpace(text, at + 1);
  for (;;) {
    if (pos >= text.length) return { ok: false, eof: true, error: 'the text ended inside a call list', at: pos, name: calls.at(-1)?.name ?? '' };
    if (text.charCodeAt(pos) === Code.RightBracket) return { ok: true, calls, end: pos + 1 };
    const read = readPyCallAt(text, pos);
    if (!read.ok) return read;
    calls.push(read.call);
    pos = skipJsonSpace(text, read.call.end);
    if (pos < text.length && text.charCodeAt(pos) === Code.Comma) pos = skipJsonSpace(text, pos + 1);
    else if (pos < text.length && text.charCodeAt(pos) !== Code.RightBracket) return { ok: false, eof: false, error: "expected ',' or ']' after a call", at: pos, name: read.call.name };
  }
}
