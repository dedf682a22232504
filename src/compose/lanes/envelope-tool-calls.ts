/**
 * `<tool_calls>` envelopes (docs/design.md, "Envelopes"), in two dialects:
 *
 *   marker form                      XML form
 *   <tool_calls>                     <tool_calls>
 *   <tool>                           <look>
 *   {"name":"look","file":"a.rs"}    <file>a.rs</file>
 *   </tool>          (optional)      </look>
 *   </tool_calls>                    </tool_calls>
 *
 * A body starting with `<tool>`, `</tool>` or `{` is the marker form; anything else the XML
 * form. Either reader fails the whole envelope on the first fault (nothing half-dispatched).
 * Both walk their entries through one loop (`readEntries`); every entry advances `pos` by at
 * least one unit or fails.
 */
import { TAG_LITERALS } from '../../dialects/vocabulary.js';
import { Code, isAsciiSpace } from '../../lex/codes.js';
import { balancedJsonObjectLen } from '../../lex/json-balance.js';
import { setOwn } from '../ladders/json.js';
import { strictJson } from './strict-json.js';
import type { CallMarks } from '../call-provenance.js';
import type { ToolCall } from '../types.js';
import { envelopeCall } from './envelope-call.js';
import { headOf } from './excerpt.js';
import { laneMessages } from './messages.js';

const ENVELOPE_CLOSE = TAG_LITERALS.tool_calls_close;
const MARKER_OPEN = TAG_LITERALS.tool_marker_open;
const MARKER_CLOSE = TAG_LITERALS.tool_marker_close;

type Failure = { ok: false; detail: string };

export type ToolCallsRead = { ok: true; calls: ToolCall[]; rest: string } | Failure;

function skipSpace(text: string, pos: number): number {
  let p = pos;
  while (p < text.length && isAsciiSpace(text.charCodeAt(p))) p++;
  return p;
}

export function readToolCallsEnvelope(rawBody: string, marks: CallMarks): ToolCallsRead {
  const body = rawBody.trim();
  const usesMarkers = body.startsWith(MARKER_OPEN) || body.startsWith(MARKER_CLOSE) || body.charCodeAt(0) === Code.LeftBrace;
  return usesMarkers ? readMarkerForm(body, marks) : readXmlForm(body, marks);
}

/** Where the marker reader stands: no marker yet, a marker awaiting its object, a marker with objects, a closed marker. */
type MarkerState = 'none' | 'open' | 'filled' | 'closed';

/**
 * One entry of an envelope form, read from `pos` (past blanks, not at the envelope close): the
 * offset after it (always past `pos`), or the failure that fails the whole envelope.
 */
type EntryReader = (pos: number) => number | Failure;

/** The loop both forms share: entries up to `</tool_calls>` or the end of the body; `rest` follows the close. */
function readEntries(body: string, readEntry: EntryReader): { ok: true; rest: string } | Failure {
  let pos = 0;
  for (;;) {
    pos = skipSpace(body, pos);
    if (pos >= body.length) return { ok: true, rest: '' };
    if (body.startsWith(ENVELOPE_CLOSE, pos)) return { ok: true, rest: body.slice(pos + ENVELOPE_CLOSE.length).trim() };
    const next = readEntry(pos);
    if (typeof next !== 'number') return next;
    pos = next;
  }
}

function readMarkerForm(body: string, marks: CallMarks): ToolCallsRead {
  const calls: ToolCall[] = [];
  const marker: { state: MarkerState } = { state: 'none' };
  const read = readEntries(body, (pos) => {
    if (body.startsWith(MARKER_OPEN, pos)) {
      if (marker.state === 'open') return { ok: false, detail: laneMessages.envelopeMarkerTwice };
      marker.state = 'open';
      return pos + MARKER_OPEN.length;
    }
    if (body.startsWith(MARKER_CLOSE, pos)) {
      if (marker.state !== 'filled') return { ok: false, detail: laneMessages.envelopeUnmatchedClose };
      marker.state = 'closed';
      return pos + MARKER_CLOSE.length;
    }
    //   <tool>{"name": ...}
    //         ^ pos: content must belong to an open marker, or be another object of a filled one
    const opensObject = body.charCodeAt(pos) === Code.LeftBrace;
    if (marker.state === 'none') return { ok: false, detail: laneMessages.envelopeNoMarker };
    if (marker.state === 'closed' || (marker.state === 'filled' && !opensObject)) return { ok: false, detail: laneMessages.envelopeObjectWithoutMarker };
    if (!opensObject) return { ok: false, detail: laneMessages.envelopeExpectedObject(headOf(body.slice(pos), 80)) };
    const length = balancedJsonObjectLen(body, pos);
    if (length === 0) return { ok: false, detail: laneMessages.envelopeObjectUnclosed };
    const parsed = strictJson(body.slice(pos, pos + length));
    if (!parsed.ok) return { ok: false, detail: laneMessages.envelopeObjectInvalid(parsed.error) };
    const outcome = envelopeCall(parsed.value, '');
    if (!outcome.ok) return { ok: false, detail: outcome.detail };
    calls.push(marks.writtenAs(outcome.call, body.slice(pos, pos + length)));
    marker.state = 'filled';
    return pos + length;
  });
  if (!read.ok) return read;
  if (marker.state === 'open') return { ok: false, detail: laneMessages.envelopeMarkerUnfinished };
  if (marker.state === 'none') return { ok: false, detail: laneMessages.envelopeNoMarker };
  return { ok: true, calls, rest: read.rest };
}

/** Reads `<NAME>` at `pos`; the name and the offset after `>`, or null. */
function openTagAt(text: string, pos: number): { name: string; end: number } | null {
  if (text.charCodeAt(pos) !== Code.LessThan) return null;
  const first = text.charCodeAt(pos + 1);
  const isStart = (c: number): boolean => (c >= Code.UpperA && c <= Code.UpperZ) || (c >= Code.LowerA && c <= Code.LowerZ) || c === Code.Underscore;
  if (!isStart(first)) return null;
  let p = pos + 2;
  for (;;) {
    const c = text.charCodeAt(p);
    if (isStart(c) || (c >= Code.Digit0 && c <= Code.Digit9) || c === Code.Dot || c === Code.Dash) p++;
    else break;
  }
  if (text.charCodeAt(p) !== Code.GreaterThan) return null;
  return { name: text.slice(pos + 1, p), end: p + 1 };
}

function readXmlForm(body: string, marks: CallMarks): ToolCallsRead {
  const calls: ToolCall[] = [];
  const read = readEntries(body, (pos) => {
    const tag = openTagAt(body, pos);
    if (tag === null) return { ok: false, detail: laneMessages.envelopeExpectedCallTag(headOf(body.slice(pos), 60)) };
    //   <look><file>a.rs</file></look>
    //         ^ tag.end: the call's inner text runs to </look>, or to the end when unclosed
    const callClose = `</${tag.name}>`;
    const closeAt = body.indexOf(callClose, tag.end);
    const inner = closeAt < 0 ? body.slice(tag.end) : body.slice(tag.end, closeAt);
    const args = readXmlArguments(tag.name, inner);
    if (!args.ok) return args;
    if (closeAt < 0) return { ok: false, detail: laneMessages.envelopeCallUnclosed(tag.name) };
    calls.push(marks.writtenAs({ id: 'tc_envelope_xml', name: tag.name, arguments: args.arguments }, body.slice(pos, closeAt + callClose.length)));
    return closeAt + callClose.length;
  });
  if (!read.ok) return read;
  if (calls.length === 0) return { ok: false, detail: laneMessages.envelopeNoCallTags };
  return { ok: true, calls, rest: read.rest };
}

function readXmlArguments(call: string, inner: string): { ok: true; arguments: Record<string, unknown> } | Failure {
  const args: Record<string, unknown> = {};
  let pos = 0;
  for (;;) {
    pos = skipSpace(inner, pos);
    if (pos >= inner.length) return { ok: true, arguments: args };
    const tag = openTagAt(inner, pos);
    if (tag === null) return { ok: false, detail: laneMessages.envelopeExpectedArgTag(call, headOf(inner.slice(pos), 60)) };
    const close = `</${tag.name}>`;
    const closeAt = inner.indexOf(close, tag.end);
    if (closeAt < 0) return { ok: false, detail: laneMessages.envelopeArgUnclosed(tag.name) };
    if (Object.hasOwn(args, tag.name)) return { ok: false, detail: laneMessages.envelopeDuplicateArg(call, tag.name) };
    setOwn(args, tag.name, inner.slice(tag.end, closeAt).trim());
    pos = closeAt + close.length;
  }
}
