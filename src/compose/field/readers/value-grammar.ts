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
 * Pythonic calls are read leniently (src/lex/py-literal.ts: raw line breaks and unescaped
 * quotes inside strings, where one reading is certain), since the markers say they are calls.
 *
 * Recovery rungs, none of which throws:
 *   1. one call that does not read, among others: a parse error and a drop of that call; its
 *      siblings stand (a list goes on at the next call, Olmo 3's lines at the next call line);
 *   2. complete calls whose close (or a list's `]`) is missing: calls, with `recovered_dialect`
 *      where the grammar requires its close;
 *   3. a body cut off by the end of the text: `TOOL CALL TRUNCATED:` and a drop to the end
 *      (calls complete before the cut stand);
 *   4. a body that does not read: a parse error and a drop up to the close (or, with no close
 *      ahead, the end of the line where reading stopped). Calls read before the failure stand.
 */
import { FIELD_NAME_MAX } from '../../../dialects/field/names.js';
import type { ValueGrammar } from '../../../dialects/field/index.js';
import { TURN_FOREIGN } from '../../../dialects/field/turn-end.js';
import { Code, endsLineAt, skipBlanks } from '../../../lex/codes.js';
import { setOwn } from '../../../lex/json-object.js';
import { readGemmaObjectAt } from '../../../lex/gemma-value.js';
import { dottedNameEnd, pyCallStartsAt, readPyCallAt, readPyCallListAt, type PyCall, type PyCallRead } from '../../../lex/py-call.js';
import { PyQuotesAhead, type PyLeniency } from '../../../lex/py-literal.js';
import { indexWithin, matchAt, skipSpace } from '../cursor.js';
import { fenceBodyAt, fenceCloseAfter } from '../fence.js';
import { fieldMessages } from '../messages.js';
import { schemaTypes, typeByTypes } from '../typing.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';

const LINE_END: readonly string[] = ['\n'];

/** One call that did not read, among calls that did: its text up to where the body goes on. */
interface Failed {
  readonly start: number;
  readonly end: number;
  readonly error: string;
  readonly name: string;
}

/** Where a body stopped reading: the rest, up to the close, is one failure. */
interface Stop {
  readonly eof: boolean;
  readonly error: string;
  /** Where the failed part starts (the region's opener when nothing before it stands) and where reading stopped. */
  readonly from: number;
  readonly at: number;
  readonly name: string;
}

interface Body {
  readonly calls: readonly PyCall[];
  readonly failures: readonly Failed[];
  /** Where the body's reading ended; the grammar's close may follow. */
  readonly end: number;
  /** The body's own end (a list's `]`) was missing before the close or the end of the text. */
  readonly unclosed: boolean;
  readonly stop: Stop | null;
}

function stopped(calls: readonly PyCall[], failures: readonly Failed[], stop: Stop): Body {
  return { calls, failures, end: stop.at, unclosed: false, stop };
}

export function readValueGrammar(scan: FieldScan, at: number, grammar: ValueGrammar, sink: RegionSink): number {
  const text = scan.text;
  const opener = matchAt(text, at, grammar.openers);
  if (opener === null) return -1;
  const openerEnd = skipSpace(text, at + opener.length);
  // Calls in a code fence inside the markers: the fence's lines are markers of no call.
  const fenced = grammar.fence === undefined ? -1 : fenceBodyAt(text, openerEnd, grammar.fence);
  const fence = fenced >= 0 ? grammar.fence! : null;
  const bodyAt = fence !== null ? skipSpace(text, fenced) : openerEnd;
  const body = grammar.body;
  let read: Body | null;
  if (body.form === 'py-calls') read = readPyCalls(scan, at, bodyAt, grammar, fence?.close ?? null);
  else if (body.form === 'py-method-call') read = readMethodCall(scan, at, bodyAt, grammar, body.method);
  else read = body.bare === true ? readBareGemmaCalls(scan, at, opener, grammar, body.callPrefixes, body.stringDelimiter, body.delimiterRequired === true) : readGemmaCalls(scan, at, opener, grammar, body.callPrefixes, body.stringDelimiter);
  if (read === null) return -1;
  const calls = read.calls;
  // With no call read, the region is one failure: each error, and one drop of all of it.
  const whole = calls.length === 0;
  for (const failed of read.failures) {
    const error = fieldMessages.badArguments(grammar.id, failed.name, failed.error);
    if (whole) sink.note(error);
    else sink.fail(error, failed.start, failed.end);
  }
  if (read.stop !== null) {
    for (const call of calls) sink.call({ name: call.name, arguments: call.arguments, start: call.start, end: call.end });
    return fail(scan, at, grammar, sink, read.stop, !whole);
  }
  if (fence !== null) sink.drop(openerEnd, fenced, 'fenced_narration');
  // A chain separator after the call is the call's (`brave_search.call(…); {…}`).
  let afterSeparator = body.form === 'py-method-call' && text.startsWith(body.separator, skipSpace(text, read.end)) ? skipSpace(text, read.end) + body.separator.length : read.end;
  const fenceClose = fence !== null ? fenceCloseAfter(text, afterSeparator, fence) : null;
  if (fenceClose !== null) {
    sink.drop(fenceClose.at, fenceClose.end, 'fenced_narration');
    afterSeparator = fenceClose.end;
  }
  const end = skipSpace(text, afterSeparator);
  const close = matchAt(text, end, grammar.close);
  const regionEnd = afterTrailers(text, close === null ? afterSeparator : end + close.length, grammar);
  if (whole && read.failures.length > 0) sink.drop(at, regionEnd, 'unparsed_call_block');
  const unclosed = read.unclosed || (close === null && grammar.closeRequired);
  calls.forEach((call, i) => {
    sink.call({ name: call.name, arguments: call.arguments, start: call.start, end: call.end, unclosed: unclosed && i === calls.length - 1 });
  });
  return regionEnd;
}

function fail(scan: FieldScan, at: number, grammar: ValueGrammar, sink: RegionSink, read: Stop, after: boolean): number {
  const text = scan.text;
  const from = after ? read.from : at;
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

/**
 * Past the markers the model writes right after its calls (`<start_function_response>`), if
 * any. A trailer that opens the tool's result as the template writes it (Gemma 4's
 * `<|tool_response>response:`) is left to the lane: the model wrote that result itself (a
 * foreign turn).
 */
function afterTrailers(text: string, at: number, grammar: ValueGrammar): number {
  let end = at;
  for (;;) {
    const next = skipSpace(text, end);
    const trailer = matchAt(text, next, grammar.trailers);
    if (trailer === null) return end;
    if (matchAt(text, next, TURN_FOREIGN.tokens) !== null) return end;
    end = next + trailer.length;
  }
}

/** The quotes ahead of the pythonic readers, one per parse (each character looked at once). */
const quotesAhead = new WeakMap<FieldScan, PyQuotesAhead>();

/** The leniency of a grammar's pythonic reads: a string's end is looked for up to the grammar's next close. */
function leniency(scan: FieldScan, grammar: ValueGrammar): PyLeniency {
  let ahead = quotesAhead.get(scan);
  if (ahead === undefined) {
    ahead = new PyQuotesAhead(scan.text);
    quotesAhead.set(scan, ahead);
  }
  const length = scan.text.length;
  return {
    ahead,
    limit: (from) => {
      const close = scan.earliest(grammar.close, from);
      return close < 0 ? length : close;
    },
  };
}

/**
 * `[f(…), g(…)]`, or calls one per line with no brackets (up to the close, or `fenceClose` when
 * the calls stand in a fence); null when a shared opener holds another shape.
 */
function readPyCalls(scan: FieldScan, at: number, bodyAt: number, grammar: ValueGrammar, fenceClose: string | null): Body | null {
  const text = scan.text;
  const bracket = text.charCodeAt(bodyAt) === Code.LeftBracket;
  if (!bracket && grammar.body.form === 'py-calls' && grammar.body.listOnly === true) return null;
  const first = bracket ? skipSpace(text, bodyAt + 1) : bodyAt;
  const shaped = pyCallStartsAt(text, first) || (bracket && text.charCodeAt(first) === Code.RightBracket);
  if (!shaped && grammar.sharedOpener) return null;
  const lenient = leniency(scan, grammar);
  if (bracket) {
    const list = readPyCallListAt(text, bodyAt, lenient);
    if (list.ok) return { calls: list.calls, failures: list.failures, end: list.end, unclosed: list.unclosed, stop: null };
    return stopped(list.calls, list.failures, { eof: list.eof, error: list.error, from: list.from, at: list.at, name: list.name });
  }
  const calls: PyCall[] = [];
  const failures: Failed[] = [];
  let end = bodyAt;
  let pos = bodyAt;
  for (;;) {
    pos = skipSpace(text, pos);
    if (pos >= text.length || matchAt(text, pos, grammar.close) !== null || (fenceClose !== null && text.startsWith(fenceClose, pos))) return { calls, failures, end, unclosed: false, stop: null };
    const read = readPyCallAt(text, pos, lenient);
    if (!read.ok) {
      const error = read.name === '' ? 'text that is not a call' : read.error;
      const next = read.eof ? -1 : nextCallLine(scan, read.at, lenient.limit(read.at));
      if (next < 0) return stopped(calls, failures, { eof: read.eof, error, from: pos, at: read.at, name: read.name });
      failures.push({ start: pos, end: next, error, name: read.name });
      pos = end = next;
      continue;
    }
    calls.push(read.call);
    end = read.call.end;
    pos = skipSpace(text, read.call.end);
    if (text.charCodeAt(pos) === Code.Comma) pos++;
  }
}

/** The start of the next line, after `from` and before `limit`, that starts a call; -1 when none does. */
function nextCallLine(scan: FieldScan, from: number, limit: number): number {
  const text = scan.text;
  for (let at = from; ; ) {
    const newline = scan.earliest(LINE_END, at);
    if (newline < 0 || newline >= limit) return -1;
    const line = skipSpace(text, newline + 1);
    if (line >= limit) return -1;
    if (pyCallStartsAt(text, line)) return line;
    at = line;
  }
}

/** `NAME.METHOD(k=v)` at `at`: the call to NAME (or why it does not read); null when the text is not written so. */
export function readMethodCallAt(text: string, at: number, method: string, lenient: PyLeniency | null = null): PyCallRead | null {
  const nameEnd = dottedNameEnd(text, at);
  const suffix = `.${method}`;
  const dotted = text.slice(at, nameEnd);
  if (nameEnd >= text.length || text.charCodeAt(nameEnd) !== Code.LeftParen || !dotted.endsWith(suffix) || dotted.length === suffix.length) return null;
  const name = dotted.slice(0, -suffix.length);
  const read = readPyCallAt(text, at, lenient);
  return read.ok ? { ok: true, call: { ...read.call, name } } : { ...read, name };
}

/**
 * `NAME.METHOD(k=v)`: one call to NAME; or, with a registry, `NAME(k=v)` naming a registered
 * tool (Llama 3.2 / 3.3 write a user tool's call so after `<|python_tag|>`); null when the body
 * is written neither way (it is then code, or JSON, for the grammars sharing the opener).
 */
function readMethodCall(scan: FieldScan, at: number, bodyAt: number, grammar: ValueGrammar, method: string): Body | null {
  const lenient = leniency(scan, grammar);
  const read = readMethodCallAt(scan.text, bodyAt, method, lenient) ?? registeredPlainCall(scan, bodyAt, lenient);
  if (read === null) return null;
  if (!read.ok) return stopped([], [], { eof: read.eof, error: read.error, from: at, at: read.at, name: read.name });
  return { calls: [read.call], failures: [], end: read.call.end, unclosed: false, stop: null };
}

/** A plain `NAME(k=v)` at `at` whose name is registered, read; null otherwise. */
function registeredPlainCall(scan: FieldScan, at: number, lenient: PyLeniency | null): PyCallRead | null {
  if (scan.registry === null) return null;
  const read = readPyCallAt(scan.text, at, lenient);
  return read.ok && scan.registry.byName.has(read.call.name) ? read : null;
}

function isBlankCode(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** `PREFIX NAME{…}` calls, one or more; the opener is unique, so any other body is an error (but a mention, null). */
function readGemmaCalls(scan: FieldScan, at: number, opener: string, grammar: ValueGrammar, prefixes: readonly string[], delimiter: string): Body | null {
  const text = scan.text;
  const calls: PyCall[] = [];
  // An opener that ends with the call prefix (`<channel|>call:`) leaves the prefix to the call.
  const own = prefixes.find((prefix) => opener.endsWith(prefix));
  let pos = at + opener.length - (own?.length ?? 0);
  for (;;) {
    pos = skipSpace(text, pos);
    if (pos >= text.length || matchAt(text, pos, grammar.close) !== null || (calls.length > 0 && matchAt(text, pos, grammar.trailers) !== null)) {
      if (calls.length === 0) return stopped(calls, [], { eof: pos >= text.length, error: 'a call with no body', from: at, at: pos, name: '' });
      return { calls, failures: [], end: calls.at(-1)!.end, unclosed: false, stop: null };
    }
    const failure = (eof: boolean, error: string, stop: number, name: string): Body => stopped(calls, [], { eof, error, from: pos, at: stop, name });
    const prefix = matchAt(text, pos, prefixes);
    // The opener then a blank and no call (`emits <|tool_call> before each call`): the token
    // named in a sentence, not this grammar's (a call's prefix is glued to its opener).
    if (prefix === null && calls.length === 0 && pos > at + opener.length && isBlankCode(text.charCodeAt(at + opener.length))) return null;
    if (prefix === null) {
      const rest = text.slice(pos);
      const cut = rest.length < prefixes[0]!.length && prefixes.some((p) => p.startsWith(rest));
      // A grammar whose close is optional (Gemma 4's bare calls) ends at the first text that is no call.
      if (calls.length > 0 && !cut && !grammar.closeRequired) return { calls, failures: [], end: calls.at(-1)!.end, unclosed: false, stop: null };
      return failure(cut, `expected '${prefixes.at(-1)!}' before the tool name`, pos, '');
    }
    const nameAt = pos + prefix.length;
    const brace = indexWithin(text, '{', nameAt, FIELD_NAME_MAX);
    if (brace < 0) return failure(text.length - nameAt <= FIELD_NAME_MAX, 'a call head with no arguments', nameAt, '');
    const name = text.slice(nameAt, brace).trim();
    const read = readGemmaObjectAt(text, brace, delimiter);
    if (!read.ok) return failure(read.eof, read.error, read.at, name);
    calls.push({ name, arguments: typedStrings(scan, name, read.value), start: pos, end: read.end });
    pos = read.end;
  }
}

/**
 * Bare Gemma calls (`call:NAME{…}` with no opener token): read only at a line start, whole and
 * ending their line (a close or trailer of the grammar may follow), and only where their text
 * holds the string delimiter or every name is registered; otherwise null, prose.
 */
function readBareGemmaCalls(scan: FieldScan, at: number, opener: string, grammar: ValueGrammar, prefixes: readonly string[], delimiter: string, delimiterRequired: boolean): Body | null {
  const text = scan.text;
  if (!startsLine(text, at)) return null;
  const nameAt = at + opener.length;
  // The name is glued to its prefix (`call: me{` is words).
  if (nameAt >= text.length || isBlankCode(text.charCodeAt(nameAt)) || text.charCodeAt(nameAt) === 0x0a) return null;
  const read = readGemmaCalls(scan, at, opener, grammar, prefixes, delimiter);
  if (read === null || read.stop !== null || read.failures.length > 0 || read.calls.length === 0) return null;
  let end = skipBlanks(text, read.end);
  const close = matchAt(text, end, grammar.close);
  if (close !== null) end = skipBlanks(text, end + close.length);
  if (!endsLineAt(text, end) && matchAt(text, end, grammar.trailers) === null) return null;
  const registry = scan.registry;
  const owned = text.slice(at, read.end).includes(delimiter) || (!delimiterRequired && registry !== null && read.calls.every((call) => registry.byName.has(call.name)));
  return owned ? read : null;
}

/** How far back a line's start is looked for past indentation. */
const INDENT_MAX = 64;

/** `at` starts a line: nothing but indentation (at most `INDENT_MAX` blanks) between it and the line's start (or the text's). */
function startsLine(text: string, at: number): boolean {
  for (let pos = at - 1; pos >= 0 && pos >= at - INDENT_MAX; pos--) {
    const code = text.charCodeAt(pos);
    if (code === 0x0a || code === 0x0d) return true;
    if (!isBlankCode(code)) return false;
  }
  return at <= INDENT_MAX;
}

/**
 * The call's string values typed by their parameters' schemas where a schema admits no string
 * (`limit:<escape>10<escape>` for an integer is 10): Gemma's templates delimit strings, but
 * models delimit numbers and booleans too. As spec section 4 types raw text; a value no
 * alternative reads stays a string (argument validation reports it). No schema, no typing.
 */
function typedStrings(scan: FieldScan, name: string, args: Record<string, unknown>): Record<string, unknown> {
  const tool = scan.registry?.byName.get(name);
  if (tool === undefined) return args;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') continue;
    // The tool's schema is the root a `$ref` resolves against (Pydantic's `$defs`, zod's `definitions`).
    const types = schemaTypes(tool.paramsByName.get(key)?.schema ?? null, tool.schema ?? null);
    if (types.length === 0 || types.includes('string')) continue;
    const typed = typeByTypes(value, types);
    if (typed.expected === null) setOwn(args, key, typed.value);
  }
  return args;
}
