/**
 * The `look-alike` reader: a JSON or pythonic value at a line start that is written like a tool
 * call, with no marker of its own, bare or in a ```` ```json ```` fence.
 *
 *     {"name": "look", "arguments": {"path": "a"}}; {"name": "run", "parameters": {…}}
 *     ^ at (line start) ^ probe: the first key decides whether to read on   ^ chained by `;` (or `,`)
 *
 *     ```json             <- the fence's lines are markers: dropped when the value is calls,
 *     [{"name": …}]          kept with it when it stays prose
 *     ```
 *
 * The probe is bounded: a `{` must open a known key (`name`, `tool_call`, …) or a registered
 * name, a `[` must open such an object or a pythonic call `ident(`. Only then is the value read,
 * strictly, then (only when that fails) by the lenient rung of `<tool_call>` bodies
 * (`readLenientJsonAt`: trailing commas, Python quotes and literals, each with one reading).
 * A value is calls when every call's name passes the registry (with no registry: when the value
 * is the whole response), it parses completely, and it is not a tool's JSON Schema. A call-shaped
 * value that is not a call stays prose, with nothing recorded as an error. Any other value is
 * not this grammar (-1) and reads as before.
 *
 * Linear: a value read from one line start and not claimed covers the line starts inside it;
 * they are not read again (a value nested in another is not a standalone call).
 */
import { FIELD_GRAMMARS, type CodeFence, type LookalikeGrammar, type TurnEndGrammar } from '../../../dialects/field/index.js';
import { FIELD_NAME_MAX } from '../../../dialects/field/names.js';
import { Code, skipLineBlanks } from '../../../lex/codes.js';
import { readLenientJsonAt } from '../../../lex/json-lenient.js';
import { isPlainRecord } from '../../../lex/json-object.js';
import { readJsonValueAt, type JsonValueAt } from '../../../lex/json-stream.js';
import { recordsCallOutcome } from '../../call-record.js';
import { pyCallStartsAt, readPyCallListAt } from '../../../lex/py-call.js';
import { PyQuotesAhead } from '../../../lex/py-literal.js';
import { admitName } from '../admit.js';
import { atEnd, matchAt, skipSpace } from '../cursor.js';
import { fenceBodyAt, fenceCloseAfter, fenceCloseCut } from '../fence.js';
import { fieldMessages } from '../messages.js';
import { isNoArguments } from './call-body.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';
import { endsResponse } from './turn-end.js';

/** Per parse: how far values already read (and not claimed) reach, and where the text's first visible character is. */
const examined = new WeakMap<FieldScan, number>();
const firstVisible = new WeakMap<FieldScan, number>();

const TURN_END = FIELD_GRAMMARS.find((g): g is TurnEndGrammar => g.family === 'turn-end' && g.role === 'end')!;

/** The value ends the response: only blanks and end-of-turn tokens (`<|eom_id|>`) after it. */
function endsWhole(scan: FieldScan, end: number): boolean {
  return atEnd(scan.text, end) || endsResponse(scan, end, TURN_END);
}

function isWholeStart(scan: FieldScan, at: number): boolean {
  let first = firstVisible.get(scan);
  if (first === undefined) {
    first = skipSpace(scan.text, 0);
    firstVisible.set(scan, first);
  }
  return at === first || at === skipSpace(scan.text, scan.answerFrom);
}

interface Shaped {
  readonly name: string;
  readonly arguments: unknown;
  /** Where the call's own text stands, when it is one item of a list (else the value's span). */
  readonly span?: readonly [number, number];
}

/** What a value is: calls, a schema or answer that stays prose, or nothing of this grammar. */
type Reading = { readonly kind: 'calls'; readonly calls: readonly Shaped[] } | { readonly kind: 'prose'; readonly answer: string | null } | { readonly kind: 'none' };

/**
 * Where a value starts: at a line start, or on the line after a fence's opening line. `start` is
 * where the region starts (the fence's first character, when there is one).
 */
interface Frame {
  readonly start: number;
  readonly valueAt: number;
  readonly fence: CodeFence | null;
  /** A label stood before the fence (`Action: ```json`): registered names only. */
  readonly labelled?: true;
}

export function readLookalike(scan: FieldScan, at: number, grammar: LookalikeGrammar, sink: RegionSink): number {
  if (at < (examined.get(scan) ?? 0)) return -1;
  const probe = probeAt(scan, at, grammar);
  if (probe.kind === 'none') return -1;
  return probe.kind === 'pythonic' ? readPythonic(scan, probe.frame, grammar, sink) : readJson(scan, probe.frame, grammar, sink);
}

/**
 * Whether the reader refuses the opener at `at` whatever text comes after `scan.text`: its
 * bounded probe already failed inside the text (`[The docs](…)`, `[^1]: …`, `{"status": …}`),
 * so a stream may read on past it (src/compose/stream). False when more text could still make
 * it a call, or when the reader would take it.
 */
export function lookalikeRefusedForGood(scan: FieldScan, at: number, grammar: LookalikeGrammar): boolean {
  if (at < (examined.get(scan) ?? 0)) return false;
  const probe = probeAt(scan, at, grammar);
  return probe.kind === 'none' && probe.final;
}

/** What the probe at an opener found: a value to read as JSON or as a pythonic list, or none (`final`: no later text changes that). */
type Probe = { readonly kind: 'json' | 'pythonic'; readonly frame: Frame } | { readonly kind: 'none'; readonly final: boolean };

const UNDECIDED: Probe = { kind: 'none', final: false };
const REFUSED: Probe = { kind: 'none', final: true };

/** The bounded look at an opener that decides whether its value is read (see the file's comment). */
function probeAt(scan: FieldScan, at: number, grammar: LookalikeGrammar): Probe {
  const text = scan.text;
  let frame: Frame = { start: at, valueAt: at, fence: null };
  const label = matchAt(text, at, grammar.fenceLabels);
  if (label !== null) {
    // The fence on the label's line, or alone on the next one (`Action:⏎```json`).
    let fenceAt = skipLineBlanks(text, at + label.length);
    if (text.charCodeAt(fenceAt) === Code.LineFeed) fenceAt = skipLineBlanks(text, fenceAt + 1);
    const valueAt = matchAt(text, fenceAt, grammar.fence.open) === null ? -1 : fenceBodyAt(text, fenceAt, grammar.fence);
    if (valueAt < 0) return UNDECIDED;
    frame = { start: at, valueAt, fence: grammar.fence, labelled: true };
  } else if (matchAt(text, at, grammar.fence.open) !== null) {
    const valueAt = fenceBodyAt(text, at, grammar.fence);
    if (valueAt < 0) return UNDECIDED;
    frame = { start: at, valueAt, fence: grammar.fence };
  } else if (matchAt(text, at, grammar.listFence.open) !== null) {
    const valueAt = fenceBodyAt(text, at, grammar.listFence);
    if (valueAt < 0) return UNDECIDED;
    frame = { start: at, valueAt, fence: grammar.listFence };
  }
  const valueAt = frame.valueAt;
  const code = text.charCodeAt(valueAt);
  if (code !== Code.LeftBrace && code !== Code.LeftBracket) return valueAt < text.length ? REFUSED : UNDECIDED;
  const inner = skipSpace(text, valueAt + 1);
  if (code === Code.LeftBracket && text.charCodeAt(inner) !== Code.LeftBrace) {
    // `pyCallStartsAt` answers true while the text ends inside the name.
    if (pyCallStartsAt(text, inner)) return { kind: 'pythonic', frame };
    return inner < text.length ? REFUSED : UNDECIDED;
  }
  // A Python block holds a pythonic list or is code.
  if (frame.fence === grammar.listFence) return REFUSED;
  const objectAt = code === Code.LeftBrace ? valueAt : inner;
  const keyAt = skipSpace(text, objectAt + 1);
  const key = probeKey(text, keyAt);
  if (key === null) return keyCutOff(text, keyAt) ? UNDECIDED : REFUSED;
  return isCallKey(key, grammar, scan) ? { kind: 'json', frame } : REFUSED;
}

/**
 * Where the region of a value ending at `end` ends: past the fence's closing line when the value
 * stands in one, at the end of the text when the fence never closed (or the text ends inside its
 * closing marker); null when something else
 * follows the value in the fence (the value does not fill it).
 */
function frameEnd(text: string, frame: Frame, end: number): { readonly end: number; readonly closeAt: number } | null {
  if (frame.fence === null) return { end, closeAt: end };
  if (atEnd(text, end)) return { end: text.length, closeAt: text.length };
  const close = fenceCloseAfter(text, end, frame.fence);
  if (close !== null) return { end: close.end, closeAt: close.at };
  // Cut inside the closing fence: read as a fence never closed, whose region takes the fragment.
  return fenceCloseCut(text, end, frame.fence) ? { end: text.length, closeAt: text.length } : null;
}

/** The first key of an object (a plain string, in either quote, of at most a name's length), or null. */
function probeKey(text: string, at: number): string | null {
  const quote = text.charCodeAt(at);
  if (quote !== Code.Quote && quote !== Code.Apostrophe) return null;
  for (let i = at + 1; i < text.length && i <= at + 1 + FIELD_NAME_MAX; i++) {
    const code = text.charCodeAt(i);
    if (code === quote) return text.slice(at + 1, i);
    if (code === Code.Backslash || code === Code.LineFeed) return null;
  }
  return null;
}

/** Whether the text ends before `probeKey` at `at` could decide (inside the quote, or before it). */
function keyCutOff(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const quote = text.charCodeAt(at);
  if (quote !== Code.Quote && quote !== Code.Apostrophe) return false;
  return text.length <= at + 1 + FIELD_NAME_MAX;
}

function isCallKey(key: string, grammar: LookalikeGrammar, scan: FieldScan): boolean {
  return (
    grammar.nameKeys.includes(key) ||
    // Arguments first (`{'arguments': {…}, 'name': 'f'}`): Llama 3.2 writes its keys in either order.
    grammar.argumentKeys.includes(key) ||
    grammar.dataArgumentKeys.includes(key) ||
    key === grammar.carrierKey ||
    key === 'type' ||
    key === 'id' ||
    key === grammar.wrapperKey ||
    key === grammar.listKey ||
    key === grammar.responseKey ||
    scan.registry?.byName.has(key) === true
  );
}

interface Value {
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

/**
 * The spans of a list's `count` items, read again one by one from its `[` at `at` (the value
 * reader keeps no positions). Only a list of several calls asks, so each call (and each drop of
 * an unknown name) covers its own item; null when the items do not read alike.
 */
function itemSpans(text: string, at: number, count: number): (readonly [number, number])[] | null {
  const spans: (readonly [number, number])[] = [];
  let pos = skipSpace(text, at + 1);
  for (let i = 0; i < count; i++) {
    const read = readValueAt(text, pos);
    if (!read.ok) return null;
    spans.push([pos, read.end]);
    pos = skipSpace(text, read.end);
    if (text.charCodeAt(pos) === Code.Comma) pos = skipSpace(text, pos + 1);
  }
  return spans;
}

/** One JSON value at `at`, strictly, else by the lenient rung (whose repairs each have one reading). */
function readValueAt(text: string, at: number): JsonValueAt {
  const strict = readJsonValueAt(text, at);
  if (strict.ok || strict.eof) return strict;
  const lenient = readLenientJsonAt(text, at);
  return lenient.ok || lenient.eof ? lenient : strict;
}

function readJson(scan: FieldScan, frame: Frame, grammar: LookalikeGrammar, sink: RegionSink): number {
  const text = scan.text;
  const at = frame.valueAt;
  const values: Value[] = [];
  let pos = at;
  let end = at;
  for (;;) {
    const read = readValueAt(text, pos);
    if (!read.ok) {
      const cut = read.eof && values.length === 0 ? truncatedCall(scan, frame) : null;
      if (cut !== null) {
        sink.fail(fieldMessages.truncated(grammar.id, cut), frame.start, text.length);
        return text.length;
      }
      examined.set(scan, read.eof ? text.length : read.at);
      if (values.length === 0) return -1;
      break;
    }
    values.push({ value: read.value, start: pos, end: read.end });
    end = read.end;
    let after = read.end;
    while (text.charCodeAt(after) === Code.Space || text.charCodeAt(after) === Code.Tab) after++;
    // `;` chains calls (Llama 3); a `,` stands between objects written as a list's items with
    // no brackets, so it counts only when another object follows.
    const separator = matchAt(text, after, grammar.chainSeparators);
    if (separator === null) {
      // In a fence, objects on lines of their own are one list written without its brackets; so
      // are they, with no registry, from the response's start (Llama 3's calls one per line,
      // which are calls only as the whole response).
      const next = skipSpace(text, after);
      const lines = frame.fence !== null || (scan.registry === null && isWholeStart(scan, frame.start));
      if (!lines || text.charCodeAt(next) !== Code.LeftBrace || text.lastIndexOf('\n', next) < after) break;
      pos = next;
      continue;
    }
    const next = skipSpace(text, after + separator.length);
    if (text.charCodeAt(next) !== Code.LeftBrace) {
      if (separator === grammar.chainSeparators[0]) end = after + separator.length;
      break;
    }
    end = after + separator.length;
    pos = next;
  }
  const framed = frameEnd(text, frame, end);
  const whole = framed !== null && frame.labelled !== true && isWholeStart(scan, frame.start) && endsWhole(scan, framed.end);
  const reading = classify(values, grammar, scan, whole, values.length > 1);
  if (reading.kind === 'none') {
    examined.set(scan, end);
    return -1;
  }
  // The value does not fill its fence: it is read from its own line start, unfenced.
  if (framed === null) return -1;
  return claim(scan, frame, at, end, framed, reading, whole, sink);
}

function readPythonic(scan: FieldScan, frame: Frame, grammar: LookalikeGrammar, sink: RegionSink): number {
  const text = scan.text;
  const at = frame.valueAt;
  let read = readPyCallListAt(text, at);
  // A list on one line one of whose calls does not read (a bytes literal, a number out of range,
  // quotes with no one reading): read again going on at the next call, as the marked lists are,
  // and the calls that do read stand beside the one that does not, when at least one reads.
  // Read within the list's line alone, so each line is read again at most once.
  if (!read.ok && !read.eof) {
    const newline = text.indexOf('\n', at);
    const line = text.slice(at, newline < 0 ? text.length : newline);
    const lenient = readPyCallListAt(line, 0, { ahead: new PyQuotesAhead(line), limit: () => line.length });
    if (lenient.ok && !lenient.unclosed && lenient.calls.length > 0 && lenient.failures.length > 0) {
      const shift = <T extends { readonly start: number; readonly end: number }>(item: T): T => ({ ...item, start: item.start + at, end: item.end + at });
      read = { ok: true, calls: lenient.calls.map(shift), failures: lenient.failures.map(shift), end: lenient.end + at, unclosed: false };
    }
  }
  const framed = read.ok ? frameEnd(text, frame, read.end) : null;
  const whole = framed !== null && isWholeStart(scan, frame.start) && endsWhole(scan, framed.end);
  if (!read.ok) {
    if (read.eof && read.name !== '' && admitted(read.name, scan, isWholeStart(scan, frame.start))) {
      sink.fail(fieldMessages.truncated(grammar.id, read.name), frame.start, text.length);
      return text.length;
    }
    examined.set(scan, read.eof ? text.length : read.at);
    return -1;
  }
  // A list that is a Markdown link's text or a reference definition's label (`[f(a=1)](https://…)`,
  // `[f(a=1)]: https://…`), or that a sentence goes on after on its line (`[f(a=1)] is the call`,
  // as the mid-line sniffer reads one, sniff/pythonic.ts), is named, not called.
  if (frame.fence === null && !endsLineOrResponse(scan, read.end)) {
    examined.set(scan, read.end);
    return -1;
  }
  const attempted = whole && scan.registry !== null && read.calls.length > 0;
  if (!attempted && (read.calls.length === 0 || !read.calls.every((call) => admitted(call.name, scan, whole)))) {
    examined.set(scan, read.end);
    return -1;
  }
  if (framed === null) return -1;
  // Each call's own text, so an unregistered name's drop covers its item alone.
  const calls = read.calls.map((call): Shaped => ({ name: call.name, arguments: call.arguments, span: [call.start, call.end] }));
  for (const failed of read.failures) sink.fail(fieldMessages.badArguments(grammar.id, failed.name, failed.error), failed.start, failed.end);
  return claim(scan, frame, at, read.end, framed, { kind: 'calls', calls }, whole, sink);
}

/**
 * Reports a value read from `at` to `end` and its frame's closing fence (ending at
 * `framed.end`); returns where the region ends. A fence's lines are markers: dropped beside
 * calls, kept verbatim with a value that stays prose.
 */
function claim(scan: FieldScan, frame: Frame, at: number, end: number, framed: { readonly end: number; readonly closeAt: number }, reading: Reading, whole: boolean, sink: RegionSink): number {
  if (reading.kind === 'calls') {
    if (frame.fence !== null) sink.drop(frame.start, at, 'fenced_narration');
    // With no registry only a whole response gets here; its calls are as good as marked.
    const origin = scan.registry === null ? 'marked' : 'lookalike';
    // A fence the end of the text cut off: the value was complete, so its calls are read.
    const unclosed = frame.fence !== null && framed.closeAt >= scan.text.length;
    for (const call of reading.calls) sink.call({ name: call.name, arguments: call.arguments, start: call.span?.[0] ?? at, end: call.span?.[1] ?? end, origin, unclosed });
    if (frame.fence !== null) sink.drop(framed.closeAt, framed.end, 'fenced_narration');
  } else if (reading.kind === 'prose') {
    if (reading.answer !== null && whole) sink.proseText(reading.answer);
    else sink.proseSpan(frame.start, framed.end);
  }
  return framed.end;
}

/** Whether only blanks follow `at` to its line's end, or the response ends there (blanks and end-of-turn tokens). */
function endsLineOrResponse(scan: FieldScan, at: number): boolean {
  const next = skipLineBlanks(scan.text, at);
  return next >= scan.text.length || scan.text.charCodeAt(next) === Code.LineFeed || endsWhole(scan, next);
}

/** With a registry, a registered name; with none, any name of a whole response. */
function admitted(name: string, scan: FieldScan, whole: boolean): boolean {
  if (scan.registry === null) return whole && admitName(name, null, 'marked').ok;
  return admitName(name, scan.registry, 'lookalike').ok;
}

function classify(values: readonly Value[], grammar: LookalikeGrammar, scan: FieldScan, whole: boolean, chained = false): Reading {
  const calls: Shaped[] = [];
  let schema = false;
  for (const { value, start, end } of values) {
    const items = envelopeItems(value, grammar);
    if (items === null) {
      if (values.length === 1 && whole && isPlainRecord(value) && onlyKey(value) === grammar.responseKey && typeof value[grammar.responseKey] === 'string') {
        return { kind: 'prose', answer: value[grammar.responseKey] as string };
      }
      return { kind: 'none' };
    }
    const spans = Array.isArray(value) && items.length > 1 ? itemSpans(scan.text, start, items.length) : null;
    for (const [i, item] of items.entries()) {
      const shaped = callShape(item, grammar, scan);
      if (shaped === 'schema') schema = true;
      else if (shaped === null) return { kind: 'none' };
      else calls.push(spans !== null ? { ...shaped, span: spans[i]! } : chained ? { ...shaped, span: [start, end] } : shaped);
    }
  }
  if (schema || calls.length === 0) return { kind: 'prose', answer: null };
  // A whole response that is nothing but call objects is an attempted call, not a quotation: an
  // unregistered name in it is reported (error and drop), never left as prose.
  if (whole && scan.registry !== null) return { kind: 'calls', calls };
  return calls.every((call) => admitted(call.name, scan, whole)) ? { kind: 'calls', calls } : { kind: 'prose', answer: null };
}

function onlyKey(record: Record<string, unknown>): string | null {
  const keys = Object.keys(record);
  return keys.length === 1 ? keys[0]! : null;
}

/**
 * The call items a value holds: a list, an envelope (`{"tool_call": …}`, `{"tool_calls": […]}`),
 * or the value itself. An envelope's calls pass the same admission as a bare object's (a
 * registered name in prose; with no registry, any name of the whole response): read only as
 * the whole response, one in prose went to the native sniffer, which took its inner object
 * and left `{"tool_call": }` in the prose.
 */
function envelopeItems(value: unknown, grammar: LookalikeGrammar): readonly unknown[] | null {
  if (Array.isArray(value)) return value.length === 0 ? null : value;
  if (!isPlainRecord(value)) return null;
  const only = onlyKey(value);
  if (only === grammar.wrapperKey) return isPlainRecord(value[only]) ? [value[only]] : null;
  if (only === grammar.listKey) return Array.isArray(value[only]) && value[only].length > 0 ? value[only] : null;
  if (only === grammar.responseKey) return null;
  return [value];
}

/** A call's name and arguments, 'schema' for a tool description, or null for another shape. */
function callShape(item: unknown, grammar: LookalikeGrammar, scan: FieldScan): Shaped | 'schema' | null {
  if (!isPlainRecord(item)) return null;
  const carrier = Object.hasOwn(item, grammar.carrierKey) && isPlainRecord(item[grammar.carrierKey]) ? (item[grammar.carrierKey] as Record<string, unknown>) : item;
  const nameKey = grammar.nameKeys.find((key) => Object.hasOwn(carrier, key) && typeof carrier[key] === 'string');
  if (nameKey === undefined) {
    // A name-keyed object `{"NAME": {…}}` for a registered NAME.
    const only = onlyKey(item);
    if (only !== null && scan.registry?.byName.has(only) === true && isPlainRecord(item[only])) {
      // `{"NAME": {"type": "object", "properties": …}}` declares the tool; it does not call it.
      return isSchema(item[only] as Record<string, unknown>) ? 'schema' : { name: only, arguments: item[only] };
    }
    return null;
  }
  const argsKey = grammar.argumentKeys.find((key) => Object.hasOwn(carrier, key)) ?? dataArgumentsKey(carrier, carrier[nameKey] as string, grammar, scan);
  if (argsKey === undefined) return null;
  // `{"name": "run_shell", "arguments": {…}, "status": "failed"}`: the record of a call that ran.
  if (recordsCallOutcome(item)) return null;
  const args = carrier[argsKey];
  if (isNoArguments(args)) return { name: carrier[nameKey] as string, arguments: {} };
  if (isPlainRecord(args) && isSchema(args)) return 'schema';
  if (typeof args === 'string') {
    const decoded = readJsonValueAt(args, 0);
    if (!decoded.ok || !atEnd(args, decoded.end) || !isPlainRecord(decoded.value)) return null;
    return { name: carrier[nameKey] as string, arguments: decoded.value };
  }
  return isPlainRecord(args) ? { name: carrier[nameKey] as string, arguments: args } : null;
}

/** A data-like arguments key (`input`) the object holds, when its name or its type says it calls a tool. */
function dataArgumentsKey(carrier: Record<string, unknown>, name: string, grammar: LookalikeGrammar, scan: FieldScan): string | undefined {
  const key = grammar.dataArgumentKeys.find((candidate) => Object.hasOwn(carrier, candidate));
  if (key === undefined) return undefined;
  if (carrier.type === grammar.toolUseType) return key;
  return scan.registry !== null && admitName(name, scan.registry, 'lookalike').ok ? key : undefined;
}

/** `{"type": "object", "properties": {…}}`: a tool's parameters described, not passed. */
function isSchema(args: Record<string, unknown>): boolean {
  return args.type === 'object' && Object.hasOwn(args, 'properties') && isPlainRecord(args.properties);
}

/** The head of a call object, `{"name": "f"` (either quote), whose name a cut-off value can still be judged by. */
const NAME_HEAD = /\{\s*(["'])name\1\s*:\s*(["'])([^"'\\\n]{1,256})\2/y;

/** The name of a cut-off `{"name": "f", …` that would be admitted (a call the end of the text cut), or null. */
function truncatedCall(scan: FieldScan, frame: Frame): string | null {
  const text = scan.text;
  const at = frame.valueAt;
  NAME_HEAD.lastIndex = text.charCodeAt(at) === Code.LeftBracket ? skipSpace(text, at + 1) : at;
  const match = NAME_HEAD.exec(text);
  return match !== null && admitted(match[3]!, scan, isWholeStart(scan, frame.start)) ? match[3]! : null;
}
