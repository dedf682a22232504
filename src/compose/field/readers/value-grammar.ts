/**
 * The `value-grammar` reader: calls whose arguments are Python literals or Gemma values,
 * between a grammar's opener and close (Llama 4, LFM2, Olmo 3, Llama 3 built-ins, Gemma 4,
 * FunctionGemma; see `src/dialects/field/value-grammars.ts`).
 *
 *     <|python_start|>[get_weather(city='Paris'), search(q="x")]<|python_end|>
 *     ^ at            ^ body: calls, read by src/lex/py-call.ts   ^ close (optional at the end)
 *
 * A shared opener whose body is not this grammar's shape (`<|tool_call_start|>[{…}]`,
 * `<function_calls><invoke …>`) is left to the next record: -1, nothing reported.
 *
 * Recovery rungs, none of which throws:
 *   1. complete calls whose close is missing: calls, with `recovered_dialect` where the
 *      grammar requires its close;
 *   2. a body cut off by the end of the text: `TOOL CALL TRUNCATED:` and a drop to the end;
 *   3. a body that does not read: a parse error and a drop up to the close (or, with no close
 *      ahead, the end of the line where reading stopped). Calls read before the failure stand,
 *      except in a bracketed list, which is one value and fails whole.
 */
import { FIELD_NAME_MAX } from '../../../dialects/field/names.js';
import type { ValueGrammar } from '../../../dialects/field/index.js';
import { Code } from '../../../lex/codes.js';
import { readGemmaObjectAt } from '../../../lex/gemma-value.js';
import { dottedNameEnd, pyCallStartsAt, readPyCallAt, readPyCallListAt, type PyCall, type PyCallRead } from '../../../lex/py-call.js';
import { indexWithin, matchAt, skipSpace } from '../cursor.js';
import { fieldMessages } from '../messages.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';

const LINE_END: readonly string[] = ['\n'];

type Body = { readonly ok: true; readonly calls: readonly PyCall[]; readonly end: number } | BodyFailure;

interface BodyFailure {
  readonly ok: false;
  readonly calls: readonly PyCall[];
  readonly eof: boolean;
  readonly error: string;
  /** Where the failed part starts (the region's opener when nothing before it stands) and where reading stopped. */
  readonly from: number;
  readonly at: number;
  readonly name: string;
}

export function readValueGrammar(scan: FieldScan, at: number, grammar: ValueGrammar, sink: RegionSink): number {
  const text = scan.text;
  const opener = matchAt(text, at, grammar.openers);
  if (opener === null) return -1;
  const bodyAt = skipSpace(text, at + opener.length);
  const body = grammar.body;
  let read: Body | null;
  if (body.form === 'py-calls') read = readPyCalls(text, at, bodyAt, grammar);
  else if (body.form === 'py-method-call') read = readMethodCall(text, at, bodyAt, body.method);
  else read = readGemmaCalls(scan, at, bodyAt, grammar, body.callPrefix, body.stringDelimiter);
  if (read === null) return -1;
  if (!read.ok) return fail(scan, at, grammar, sink, read);
  // A chain separator after the call is the call's (`brave_search.call(…); {…}`).
  const bodyEnd = body.form === 'py-method-call' && text.startsWith(body.separator, skipSpace(text, read.end)) ? skipSpace(text, read.end) + body.separator.length : read.end;
  const end = skipSpace(text, bodyEnd);
  const close = matchAt(text, end, grammar.close);
  const unclosed = close === null && grammar.closeRequired;
  read.calls.forEach((call, i) => {
    sink.call({ name: call.name, arguments: call.arguments, start: call.start, end: call.end, unclosed: unclosed && i === read.calls.length - 1 });
  });
  return close === null ? bodyEnd : end + close.length;
}

function fail(scan: FieldScan, at: number, grammar: ValueGrammar, sink: RegionSink, read: BodyFailure): number {
  const text = scan.text;
  for (const call of read.calls) sink.call({ name: call.name, arguments: call.arguments, start: call.start, end: call.end });
  const from = read.calls.length === 0 ? at : read.from;
  if (read.eof) {
    sink.fail(fieldMessages.truncated(grammar.id, read.name), from, text.length);
    return text.length;
  }
  const close = scan.earliest(grammar.close, read.at);
  let stop: number;
  if (close >= 0) stop = close + (matchAt(text, close, grammar.close)?.length ?? 0);
  else {
    const line = scan.earliest(LINE_END, read.at);
    stop = line < 0 ? text.length : line;
  }
  sink.fail(fieldMessages.badArguments(grammar.id, read.name, read.error), from, stop);
  return Math.max(stop, at + 1);
}

/** `[f(…), g(…)]`, or calls one per line with no brackets; null when a shared opener holds another shape. */
function readPyCalls(text: string, at: number, bodyAt: number, grammar: ValueGrammar): Body | null {
  const bracket = text.charCodeAt(bodyAt) === Code.LeftBracket;
  const first = bracket ? skipSpace(text, bodyAt + 1) : bodyAt;
  const shaped = pyCallStartsAt(text, first) || (bracket && text.charCodeAt(first) === Code.RightBracket);
  if (!shaped && grammar.sharedOpener) return null;
  if (bracket) {
    const list = readPyCallListAt(text, bodyAt);
    if (list.ok) return { ok: true, calls: list.calls, end: list.end };
    return { ok: false, calls: [], eof: list.eof, error: list.error, from: at, at: list.at, name: list.name };
  }
  const calls: PyCall[] = [];
  let pos = bodyAt;
  for (;;) {
    pos = skipSpace(text, pos);
    if (pos >= text.length || matchAt(text, pos, grammar.close) !== null) return { ok: true, calls, end: calls.at(-1)?.end ?? bodyAt };
    const read = readPyCallAt(text, pos);
    if (!read.ok) {
      const error = read.name === '' ? 'text that is not a call' : read.error;
      return { ok: false, calls, eof: read.eof, error, from: pos, at: read.at, name: read.name };
    }
    calls.push(read.call);
    pos = skipSpace(text, read.call.end);
    if (text.charCodeAt(pos) === Code.Comma) pos++;
  }
}

/** `NAME.METHOD(k=v)` at `at`: the call to NAME (or why it does not read); null when the text is not written so. */
export function readMethodCallAt(text: string, at: number, method: string): PyCallRead | null {
  const nameEnd = dottedNameEnd(text, at);
  const suffix = `.${method}`;
  const dotted = text.slice(at, nameEnd);
  if (nameEnd >= text.length || text.charCodeAt(nameEnd) !== Code.LeftParen || !dotted.endsWith(suffix) || dotted.length === suffix.length) return null;
  const name = dotted.slice(0, -suffix.length);
  const read = readPyCallAt(text, at);
  return read.ok ? { ok: true, call: { ...read.call, name } } : { ...read, name };
}

/** `NAME.METHOD(k=v)`: one call to NAME; null when the body is not written so. */
function readMethodCall(text: string, at: number, bodyAt: number, method: string): Body | null {
  const read = readMethodCallAt(text, bodyAt, method);
  if (read === null) return null;
  if (!read.ok) return { ok: false, calls: [], eof: read.eof, error: read.error, from: at, at: read.at, name: read.name };
  return { ok: true, calls: [read.call], end: read.call.end };
}

/** `PREFIX NAME{…}` calls, one or more; the opener is unique, so any other body is an error. */
function readGemmaCalls(scan: FieldScan, at: number, bodyAt: number, grammar: ValueGrammar, prefix: string, delimiter: string): Body {
  const text = scan.text;
  const calls: PyCall[] = [];
  let pos = bodyAt;
  for (;;) {
    pos = skipSpace(text, pos);
    if (pos >= text.length || matchAt(text, pos, grammar.close) !== null) {
      if (calls.length === 0) return { ok: false, calls, eof: pos >= text.length, error: 'a call with no body', from: at, at: pos, name: '' };
      return { ok: true, calls, end: calls.at(-1)!.end };
    }
    const failure = (eof: boolean, error: string, stopped: number, name: string): Body => ({ ok: false, calls, eof, error, from: pos, at: stopped, name });
    if (!text.startsWith(prefix, pos)) {
      const cut = text.length - pos < prefix.length && prefix.startsWith(text.slice(pos));
      return failure(cut, `expected '${prefix}' before the tool name`, pos, '');
    }
    const nameAt = pos + prefix.length;
    const brace = indexWithin(text, '{', nameAt, FIELD_NAME_MAX);
    if (brace < 0) return failure(text.length - nameAt <= FIELD_NAME_MAX, 'a call head with no arguments', nameAt, '');
    const name = text.slice(nameAt, brace).trim();
    const read = readGemmaObjectAt(text, brace, delimiter);
    if (!read.ok) return failure(read.eof, read.error, read.at, name);
    calls.push({ name, arguments: read.value, start: pos, end: read.end });
    pos = read.end;
  }
}
