/**
 * The sniffer's last resort: a provider-native tool call the model printed as text. The prose
 * of such a response is whatever surrounds the payload.
 *
 *     I'll create the file.\n\n[{"id":"call_1","type":"function","function":{"name":"edit",...}}]
 *                               ^ first `[`/`{` where a JSON value parses and carries a call
 *
 * Two payload shapes qualify: an item with an object `function` field (OpenAI), or an item with
 * a string `name` (or gpt-oss's `tool`) and an `arguments`/`parameters` object or string (flat
 * JSON-RPC / MCP).
 * Requiring the arguments slot keeps prose JSON that merely has a `name` key from matching.
 *
 * With `known.lookAlikes` (the gateway profile) a payload with prose beside it is a look-alike:
 * an unregistered name in it is a mention, not a call and not an error; and, wherever the
 * payload stands, an item whose `parameters` is a JSON Schema (`"type": "object"` with a
 * `properties` object of schemas) is a tool's declaration quoted back, not a call.
 */
import type { ToolCall } from '../types.js';
import { Code } from '../../lex/codes.js';
import { isPlainRecord } from '../../lex/json-object.js';
import { previewStr } from '../../lex/render.js';
import { LOOKALIKE } from '../../dialects/field/look-alikes.js';
import { recordsCallOutcome } from '../call-record.js';
import { isCodeLead, quotesLine } from './code-lead.js';
import { foldAlias } from '../../policy/names.js';
import { JsonReader } from './json-values.js';
import type { CallMarks } from '../call-provenance.js';
import type { WorkMeter } from './meter.js';
import { unknownToolFeedback, type KnownNames } from './names.js';

export interface NativeCalls {
  calls: ToolCall[];
  errors: string[];
  /** `[start, end)` of the payload that was read (both 0 when none was found). */
  payload: [number, number];
}

/** Work allowed to the candidate search, per character of text (see `JsonReader`). */
const STEPS_PER_CHAR = 24;
const ARGUMENT_PREVIEW_CHARS = 200;

function marked(call: ToolCall, written: string, marks: CallMarks | null): ToolCall {
  return marks === null ? call : marks.writtenAs(call, written);
}

/** The calls of the native payload in `text`; `marks`, in a parse, receive the text each was read from. */
export function nativeJsonCalls(text: string, known: KnownNames, meter: WorkMeter, marks: CallMarks | null = null): NativeCalls {
  const result: NativeCalls = { calls: [], errors: [], payload: [0, 0] };
  if (!hasKeyedObject(text, meter)) return result;
  const payload = findPayload(text, meter, known.lookAlikes === true);
  if (payload === null) return result;
  // The gateway takes a payload nested in another JSON value (`{"calls": [ … ]}`) with that value:
  // cutting the payload alone left `{"calls": }` in the prose. The reference cuts the payload.
  const [start, end] = known.lookAlikes === true ? payload.outer : [payload.start, payload.end];
  result.payload = [start, end];
  const written = payload.items.length === 1 ? text.slice(payload.start, payload.end) : '';
  const inProse = known.lookAlikes === true && (text.slice(0, start).trim() !== '' || text.slice(end).trim() !== '');
  for (const item of payload.items) {
    if (!isPlainRecord(item)) continue;
    const carrier = isPlainRecord(ownField(item, 'function')) ? (ownField(item, 'function') as Record<string, unknown>) : item;
    const name = nameOf(carrier);
    if (name === '') continue;
    if (known.lookAlikes === true && (declaresSchema(carrier) || recordsCallOutcome(item))) continue;
    if (inProse && !known.has(name)) continue;
    const id = typeof ownField(item, 'id') === 'string' ? (ownField(item, 'id') as string) : 'native_fallback';
    const args = argumentsOf(carrier, name);
    if (known.has(name)) {
      if (typeof args === 'string') result.errors.push(args);
      else result.calls.push(marked({ id, name, arguments: args }, written, marks));
      continue;
    }
    // An unregistered name is reported as unknown unless it folds onto a registered tool.
    const folded = typeof args === 'string' ? null : foldAlias(name, args, known);
    if (folded !== null) result.calls.push(marked({ id, name: folded.name, arguments: folded.arguments }, written, marks));
    else result.errors.push(unknownToolFeedback(name, known));
  }
  return result;
}

/** `"parameters": {"type": "object", "properties": {"city": {...}, ...}}`: a tool declaration's schema. */
function declaresSchema(carrier: Record<string, unknown>): boolean {
  if (Object.hasOwn(carrier, 'arguments')) return false;
  const slot = ownField(carrier, 'parameters');
  if (!isPlainRecord(slot) || ownField(slot, 'type') !== 'object') return false;
  const properties = ownField(slot, 'properties');
  return isPlainRecord(properties) && Object.values(properties).every(isPlainRecord);
}

function ownField(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `name`, or the `tool` key gpt-oss writes instead; "" when neither is a string. */
function nameOf(carrier: Record<string, unknown>): string {
  const name = ownField(carrier, 'name');
  if (typeof name === 'string') return name;
  const tool = ownField(carrier, 'tool');
  return typeof tool === 'string' ? tool : '';
}

/** The item's arguments as an object, or the model-facing error when they do not decode. */
function argumentsOf(carrier: Record<string, unknown>, name: string): Record<string, unknown> | string {
  const slot = Object.hasOwn(carrier, 'arguments') ? carrier.arguments : ownField(carrier, 'parameters');
  if (isPlainRecord(slot)) return slot;
  // `null`, or a string of only whitespace (`"arguments": ""`): a tool called with no arguments.
  if (typeof slot !== 'string' || slot.trim() === '') return {};
  const decoded = new JsonReader(slot, { steps: 0 }).document();
  const cause = !decoded.ok
    ? `${decoded.message} at offset ${decoded.at}`
    : isPlainRecord(decoded.value)
      ? null
      : `expected a JSON object, got ${Array.isArray(decoded.value) ? 'an array' : decoded.value === null ? 'null' : `a ${typeof decoded.value}`}`;
  if (cause === null) return decoded.ok ? (decoded.value as Record<string, unknown>) : {};
  return `Could not parse arguments for tool '${name}': ${cause}. Raw: ${previewStr(slot, ARGUMENT_PREVIEW_CHARS)}`;
}

function hasArgumentsSlot(item: Record<string, unknown>, key: string): boolean {
  const slot = ownField(item, key);
  return isPlainRecord(slot) || typeof slot === 'string';
}

function carriesCall(item: unknown): boolean {
  if (!isPlainRecord(item)) return false;
  if (isPlainRecord(ownField(item, 'function'))) return true;
  return nameOf(item) !== '' && (hasArgumentsSlot(item, 'arguments') || hasArgumentsSlot(item, 'parameters'));
}

/**
 * Whether some `{` is followed (after JSON whitespace) by a `"`: every item that carries a call
 * is an object with a key, so text without one cannot hold a payload and the candidate search
 * is skipped. Each `indexOf` resumes past the previous hit, so this is one pass.
 */
function hasKeyedObject(text: string, meter: WorkMeter): boolean {
  let at = text.indexOf('{');
  while (at >= 0) {
    let i = at + 1;
    let code = text.charCodeAt(i);
    while (code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.CarriageReturn) code = text.charCodeAt(++i);
    meter.steps += i - at;
    if (code === Code.Quote) return true;
    at = text.indexOf('{', i);
  }
  return false;
}

/**
 * Items of the first value that carries a call, trying every `[` and `{` in order. Containers
 * are memoised by offset, and the search gives up (finds nothing) once it has spent
 * `STEPS_PER_CHAR` steps per character, which only adversarial text reaches.
 *
 * With `standing` (the gateway's look-alikes) a value must stand in prose as a call would: not
 * after a code lead on its line (`payload = {`, `post({`, `'{`), not in inline code, and, when
 * the call is nested in it, an envelope of calls rather than a record that holds one. A value
 * that fails is stepped over whole.
 */
interface Payload {
  readonly items: unknown[];
  readonly start: number;
  readonly end: number;
  /** The outermost JSON value the payload is nested in (`{"calls": [ payload ]}`), else the payload's own span. */
  readonly outer: readonly [number, number];
}

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(LOOKALIKE.envelopeKeys);

function findPayload(text: string, meter: WorkMeter, standing: boolean): Payload | null {
  const budget = meter.steps + STEPS_PER_CHAR * text.length + 1024;
  const reader = new JsonReader(text, meter, budget);
  // A value that parsed but carries no call, while the search is still inside it.
  let enclosingStart = -1;
  let enclosingEnd = -1;
  // A value that does not stand in prose: no candidate inside it is tried.
  let skipUntil = 0;
  // The line so far, as written (JSON strings included): its last character that is not blank
  // (-1 at a line start), and whether its backticks leave an inline code span open.
  let lead = -1;
  let inCode = false;
  // The line's first character that is not blank (-1 at a line start), and whether it stands alone so far.
  let first = -1;
  let firstOnly = false;
  for (let at = 0; at < text.length; at++) {
    meter.steps++;
    const code = text.charCodeAt(at);
    if ((code === Code.LeftBracket || code === Code.LeftBrace) && at >= skipUntil) {
      if (reader.exhausted) return null;
      const read = reader.container(at);
      const inside = at < enclosingEnd;
      if (!read.ok) {
        // not a value here
      } else if (standing && !inside && (inCode || isCodeLead(lead) || (first >= 0 && quotesLine(first, firstOnly)))) {
        skipUntil = read.end;
      } else {
        const items = Array.isArray(read.value) ? read.value : [read.value];
        if (items.some(carriesCall)) {
          const end = standing && !inside ? chainEnd(reader, text, read.end, items) : read.end;
          return { items, start: at, end, outer: inside ? [enclosingStart, enclosingEnd] : [at, end] };
        }
        if (inside) {
          // a value nested in the enclosing one: the enclosing one still frames what follows
        } else if (standing && !holdsCallsOnly(read.value)) {
          skipUntil = read.end;
        } else {
          enclosingStart = at;
          enclosingEnd = read.end;
        }
      }
    }
    if (code === Code.LineFeed || code === Code.CarriageReturn) {
      lead = -1;
      inCode = false;
      first = -1;
    } else if (code !== Code.Space && code !== Code.Tab) {
      firstOnly = first < 0;
      if (first < 0) first = code;
      lead = code;
      if (code === Code.Backtick) inCode = !inCode;
    }
  }
  return null;
}

const CHAIN_SEPARATORS: ReadonlySet<number> = new Set(LOOKALIKE.chainSeparators.map((separator) => separator.charCodeAt(0)));

/**
 * Where a chain of call values that begins with the one ending at `end` ends (Llama 3 writes
 * `{…}; {…}`, and `{…} {…}`): each further value, after a separator (`;` or `,`) and blanks, or
 * after blanks alone on the same line, that carries a call joins `items`, as the look-alike
 * reader chains them at a line start.
 */
function chainEnd(reader: JsonReader, text: string, end: number, items: unknown[]): number {
  for (;;) {
    let at = end;
    while (text.charCodeAt(at) === Code.Space || text.charCodeAt(at) === Code.Tab) at++;
    if (CHAIN_SEPARATORS.has(text.charCodeAt(at))) {
      at++;
      while (text.charCodeAt(at) === Code.Space || text.charCodeAt(at) === Code.Tab || text.charCodeAt(at) === Code.LineFeed) at++;
    } else if (at === end) return end;
    if (text.charCodeAt(at) !== Code.LeftBrace || reader.exhausted) return end;
    const next = reader.container(at);
    if (!next.ok || !carriesCall(next.value)) return end;
    items.push(next.value);
    end = next.end;
  }
}

/**
 * Whether a value is calls, or an envelope of them: a list of such values, or an object whose
 * one non-envelope key holds such a value (`{"tool_calls": […]}`, an OpenAI message).
 */
function holdsCallsOnly(value: unknown): boolean {
  if (carriesCall(value)) return true;
  if (Array.isArray(value)) return value.length > 0 && value.every(holdsCallsOnly);
  if (!isPlainRecord(value)) return false;
  let holders = 0;
  for (const [key, field] of Object.entries(value)) {
    if (ENVELOPE_KEYS.has(key) && (field === null || typeof field !== 'object')) continue;
    if (holders++ > 0 || !holdsCallsOnly(field)) return false;
  }
  return holders === 1;
}
