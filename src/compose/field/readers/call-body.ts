/**
 * A body of JSON call objects, shared by the `call-objects` reader and the token-section heads
 * whose arguments are call objects (Mistral's list, InternLM2, Inkling, GigaChat, RWKV):
 *
 *     [{"name": "f", "arguments": {…}}, {"name": "g", "parameters": {…}}]
 *     {"name": "f", "arguments": "{\"a\": 1}"}; {"name": "g", "arguments": {}}
 *     ^ items: objects, or one list level of them, separated by whitespace, `,` or `;`
 *
 * Each item is read strictly, then, only when that fails, by the lenient rung
 * (`readLenientJsonAt`: trailing commas, Python quotes and literals). A list whose `[` or `]`
 * is missing (Nemotron) still reads item by item. The body stops at the first text that is not
 * an item or a separator; the caller decides what that text is (its close marker, or prose).
 *
 * An item is a call when it is `{"name", "arguments"|"parameters"|"args"}` (arguments possibly
 * a JSON string), the OpenAI wrapper `{"function": {…}}`, Command R7B's `{"tool_name",
 * "parameters"}`, or, for grammars that write it, a name-keyed `{"NAME": {args}}`. An object
 * whose `parameters` is a JSON Schema describes a tool instead of calling one: an error.
 */
import type { CallObjectShape } from '../../../dialects/field/index.js';
import { Code } from '../../../lex/codes.js';
import { isPlainRecord } from '../../../lex/json-object.js';
import { skipSpace } from '../cursor.js';
import { balancedJsonObjectLen } from '../../../lex/json-balance.js';
import { argumentsInString, readJsonItem } from '../json-text.js';
import { readMethodCallAt } from './value-grammar.js';
import { fieldMessages } from '../messages.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';

export interface CallBodyOptions {
  readonly shapes: readonly CallObjectShape[];
  /** The name a head already gave (Inkling): every object of the body must name the same tool. */
  readonly headName: string | null;
  /** Where to resume after an item that is not JSON: the grammar's close and openers. */
  readonly resume: readonly string[];
  /** After a separator, an item may also be a built-in call `NAME.METHOD(k=v)` (`CallObjectsGrammar.methodItems`). */
  readonly methodItems?: string;
}

/**
 * How a body ended: `clean` after its last item (at `end`), `eof` when the text ended inside
 * an item (reported as truncation), `broken` after an item that is not JSON (reported and
 * dropped up to `end`, the next resume point).
 */
export interface CallBodyEnd {
  readonly end: number;
  readonly stopped: 'clean' | 'eof' | 'broken';
  /** A list of calls opened with `[` and stopped before its `]` (`[{…}<|tool_call_end|>`). */
  readonly listOpen?: boolean;
}

const ARGUMENT_KEYS = ['arguments', 'parameters', 'args'] as const;
/** Keys a call object may carry beside its name and arguments without passing anything (an id, its type, an index). */
const CALL_OBJECT_META_KEYS: ReadonlySet<string> = new Set(['id', 'type', 'index', 'call_id', 'tool_call_id']);
// `function` holding the name as a string (lmdeploy's and LocalAI's JSON readers take it; as an
// object it is OpenAI's wrapper, unwrapped above).
const NAME_KEYS = ['name', 'tool_name', 'function'] as const;

/** Where a call-objects body starts at `at` (`{`, or `[` then `{`), or -1. */
export function callBodyStart(text: string, at: number, glued: boolean): number {
  const pos = glued ? at : skipSpace(text, at);
  const code = text.charCodeAt(pos);
  if (code === Code.LeftBrace) return pos;
  if (code === Code.LeftBracket && text.charCodeAt(skipSpace(text, pos + 1)) === Code.LeftBrace) return pos;
  return -1;
}

/**
 * Whether the body at `start` (see `callBodyStart`) opens with a call object, or with an item the
 * end of the text cut off: how a tag that also wraps other JSON (`CallObjectsGrammar.bodyDecides`)
 * tells a call from a quoted tool definition. Reads the first item once more; only such tags ask.
 */
export function firstItemIsCall(text: string, start: number, shapes: readonly CallObjectShape[]): boolean {
  const at = text.charCodeAt(start) === Code.LeftBracket ? skipSpace(text, start + 1) : start;
  const read = readJsonItem(text, at);
  return read.ok ? itemCall(read.value, shapes).ok : read.eof;
}

/** Reads the items of a body starting at `start` (see `callBodyStart`), reporting each to the sink. */
export function readCallBody(scan: FieldScan, start: number, options: CallBodyOptions, sink: RegionSink): CallBodyEnd {
  const text = scan.text;
  let pos = start;
  let end = start;
  let inList = false;
  let items = 0;
  let separated = false;
  for (;;) {
    pos = skipSpace(text, pos);
    if (pos >= text.length) return { end, stopped: 'clean' };
    const code = text.charCodeAt(pos);
    if (code === Code.LeftBracket && !inList && text.charCodeAt(skipSpace(text, pos + 1)) === Code.LeftBrace) {
      inList = true;
      pos++;
      continue;
    }
    // A `]` closes the list; after items with no `[` it is the stray close of a list whose
    // opener went missing.
    if (code === Code.RightBracket && (inList || items > 0)) {
      inList = false;
      end = ++pos;
      continue;
    }
    // A separator after an item belongs to the body, a trailing one too (`{…};` ends a Llama 3 chain).
    if ((code === Code.Comma || code === Code.Semicolon) && items > 0) {
      end = ++pos;
      separated = true;
      continue;
    }
    if (code !== Code.LeftBrace) {
      const method = separated && options.methodItems !== undefined ? readMethodCallAt(text, pos, options.methodItems) : null;
      if (method === null) return { end, stopped: 'clean', listOpen: inList && items > 0 };
      if (!method.ok) return failedItem(scan, pos, method, options, sink);
      sink.call({ name: method.call.name, arguments: method.call.arguments, start: pos, end: method.call.end });
      items++;
      separated = false;
      end = pos = method.call.end;
      continue;
    }
    separated = false;
    const read = readJsonItem(text, pos);
    if (!read.ok) {
      // One malformed item of a list (`"time": 15:30`) costs that item alone when its braces
      // balance and the list goes on after it: its siblings are read.
      const skipped = read.eof ? -1 : inList ? balancedItemEnd(text, pos) : lineItemEnd(text, pos, read.at);
      if (skipped < 0) return failedItem(scan, pos, { eof: read.eof, error: read.error, name: options.headName ?? '' }, options, sink);
      sink.fail(fieldMessages.badArguments(sink.grammar.id, options.headName ?? '', read.error), pos, skipped);
      items++;
      end = pos = skipped;
      continue;
    }
    reportItem(read.value, pos, read.end, options, sink);
    items++;
    end = pos = read.end;
  }
}


/**
 * Where an item of a body of one object per line (MiniMax M1's `<tool_calls>`) that did not read
 * ends: its line, when the next line that is not blank opens another object; -1 otherwise (the
 * body's later objects are then lost with it, as a multi-line object's would be misread).
 */
function lineItemEnd(text: string, pos: number, failedAt: number): number {
  // perf: the line break is looked for no further than the failure and a bounded line after
  // it, so a body of many failed items on one line costs each a bounded look.
  const limit = Math.min(text.length, Math.max(failedAt, pos) + ITEM_LINE_MAX);
  let lineEnd = -1;
  for (let i = pos; i < limit; i++) {
    if (text.charCodeAt(i) === Code.LineFeed) {
      lineEnd = i;
      break;
    }
  }
  if (lineEnd < 0) return -1;
  const next = skipSpace(text, lineEnd);
  // The failure on the item's own line, or at the next line's opening brace (the item cut short).
  return text.charCodeAt(next) === Code.LeftBrace && failedAt <= next ? lineEnd : -1;
}

/** How far past an item's failure its line's break is looked for, in a body of one object per line. */
const ITEM_LINE_MAX = 256;

/** Where an item of a list that did not read ends: its balanced braces, then a `,` or the list's `]`; -1 otherwise. */
function balancedItemEnd(text: string, pos: number): number {
  const length = balancedJsonObjectLen(text, pos);
  if (length === 0) return -1;
  const after = skipSpace(text, pos + length);
  const code = text.charCodeAt(after);
  return code === Code.Comma || code === Code.RightBracket ? pos + length : -1;
}

/** An item that did not read: cut off by the end of the text, or not a value, dropped up to the next resume point. */
function failedItem(scan: FieldScan, pos: number, read: { readonly eof: boolean; readonly error: string; readonly name: string }, options: CallBodyOptions, sink: RegionSink): CallBodyEnd {
  const text = scan.text;
  if (read.eof) {
    sink.fail(fieldMessages.truncated(sink.grammar.id, read.name), pos, text.length);
    return { end: text.length, stopped: 'eof' };
  }
  const next = scan.earliest(options.resume, pos + 1);
  const stop = next < 0 ? text.length : next;
  sink.fail(fieldMessages.badArguments(sink.grammar.id, read.name, read.error), pos, stop);
  return { end: stop, stopped: 'broken' };
}

type ItemCall = { readonly ok: true; readonly name: string; readonly args: unknown } | { readonly ok: false; readonly name: string; readonly error: string };

function reportItem(value: unknown, start: number, end: number, options: CallBodyOptions, sink: RegionSink): void {
  const id = sink.grammar.id;
  const call = itemCall(value, options.shapes);
  if (!call.ok) {
    sink.fail(call.name === '' ? fieldMessages.unreadable(id, call.error) : fieldMessages.badArguments(id, call.name, call.error), start, end);
    return;
  }
  if (options.headName !== null && call.name !== options.headName) {
    sink.fail(fieldMessages.badArguments(id, options.headName, `its body names the tool '${call.name}'`), start, end);
    return;
  }
  sink.call({ name: call.name, arguments: call.args, start, end });
}

/** A JSON Schema of parameters (`{"type": "object", "properties": …}`). */
function isParameterSchema(value: unknown): boolean {
  return isPlainRecord(value) && value.type === 'object' && isPlainRecord(value.properties);
}

function itemCall(value: unknown, shapes: readonly CallObjectShape[]): ItemCall {
  if (!isPlainRecord(value)) return { ok: false, name: '', error: 'an item that is not a call object' };
  // The OpenAI wrapper: {"type": "function", "function": {"name", "arguments"}}.
  const object = value.name === undefined && isPlainRecord(value.function) ? value.function : value;
  const nameKey = NAME_KEYS.find((key) => typeof object[key] === 'string');
  if (nameKey === undefined) {
    const keys = Object.keys(object);
    const only = keys.length === 1 ? keys[0]! : null;
    if (only !== null && shapes.includes('name-keyed') && isPlainRecord(object[only])) return { ok: true, name: only, args: object[only] };
    return { ok: false, name: '', error: 'a call object with no tool name' };
  }
  const name = object[nameKey] as string;
  // `null` and `""` are how a tool with no parameters is called (`"arguments": ""`): no arguments.
  const argKeys = ARGUMENT_KEYS.filter((key) => object[key] !== undefined && !isNoArguments(object[key]));
  if (argKeys.length > 1) return { ok: false, name, error: `both '${argKeys[0]}' and '${argKeys[1]}' are given` };
  const argKey = argKeys[0];
  if (argKey === undefined) {
    // No arguments slot: a call with none, unless the object holds something else that may be
    // them (`"params": {…}`): then running it with `{}` would lose what the model passed.
    const stray = Object.keys(object).find((key) => key !== nameKey && !CALL_OBJECT_META_KEYS.has(key) && !isNoArguments(object[key]));
    if (stray !== undefined) return { ok: false, name, error: `its arguments are under no key a call object uses ('arguments', 'parameters', 'args'), and it holds '${stray}'` };
    return { ok: true, name, args: {} };
  }
  const args = object[argKey];
  if (argKey === 'parameters' && isParameterSchema(args)) return { ok: false, name, error: 'they are a JSON Schema describing the tool, not arguments' };
  if (typeof args !== 'string') return { ok: true, name, args };
  return stringArguments(name, args);
}

/** An arguments slot that passes nothing: `null`, or a string of only whitespace. */
export function isNoArguments(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** `"arguments": "{\"a\": 1}"`: the string must hold exactly one JSON object. */
function stringArguments(name: string, args: string): ItemCall {
  const read = argumentsInString(args);
  return read.ok ? { ok: true, name, args: read.value } : { ok: false, name, error: read.error };
}
