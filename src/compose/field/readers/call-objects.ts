/**
 * The `call-objects` reader: an opener (tag or special token), a body of JSON call objects
 * (see `call-body.ts`), and the grammar's close when it has one.
 *
 *     text.<tool_call>{"name": "f", "arguments": {…}}</tool_call><tool_call>{…}</tool_call>
 *          ^ at       ^ body                          ^ close     ^ the next region
 *
 * The body may stand in a ```` ```json ```` fence (the grammar's `fence`), whose lines are
 * dropped as markers of no call.
 *
 * A body that is not JSON (`<tool_call><function=…>`, `<|tool_call_start|>[f(a=1)]`) is not
 * this grammar: the reader returns -1 and reports nothing, so the grammars sharing the opener
 * get their turn. Recovery rungs, none of which throws:
 *   1. complete objects with the close missing: calls, with `recovered_dialect` (unless the
 *      grammar closes nothing);
 *   2. an object cut off by the end of the text, or the text ending right after the opener:
 *      `TOOL CALL TRUNCATED:` and a drop;
 *   3. an object that is not JSON, even leniently: a parse error and a drop up to the close or
 *      the next opener;
 *   4. text between the objects and the close: dropped with an error.
 */
import type { CallObjectsGrammar } from '../../../dialects/field/index.js';
import { TURN_FOREIGN } from '../../../dialects/field/turn-end.js';
import { Code, isAsciiLetter } from '../../../lex/codes.js';
import { atEnd, matchAt, skipSpace } from '../cursor.js';
import { fenceBodyAt, fenceCloseAfter, fenceCloseCut } from '../fence.js';
import { fieldMessages } from '../messages.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';
import { callBodyStart, firstItemIsCall, readCallBody } from './call-body.js';

const NONE: readonly string[] = [];

const RESUME = new WeakMap<CallObjectsGrammar, readonly string[]>();

/** The close and the openers, one array per grammar (so `FieldScan` memoises its search). */
function resumeOf(grammar: CallObjectsGrammar): readonly string[] {
  let resume = RESUME.get(grammar);
  if (resume === undefined) {
    resume = [...grammar.close, ...grammar.openers];
    RESUME.set(grammar, resume);
  }
  return resume;
}

const FOREIGN_AFTER_CLOSE = new Map<string, readonly string[]>();

/** The foreign turns that begin with one of the grammar's closes (perf: the few a close is compared with). */
function foreignAfterClose(grammar: CallObjectsGrammar): readonly string[] {
  let found = FOREIGN_AFTER_CLOSE.get(grammar.id);
  if (found === undefined) FOREIGN_AFTER_CLOSE.set(grammar.id, (found = TURN_FOREIGN.tokens.filter((t) => grammar.close.some((c) => t.startsWith(c)))));
  return found;
}

export function readCallObjects(scan: FieldScan, at: number, grammar: CallObjectsGrammar, sink: RegionSink): number {
  const text = scan.text;
  const opener = matchAt(text, at, grammar.openers);
  if (opener === null) return -1;
  const bodyAt = at + opener.length;
  const fenceAt = grammar.fence === undefined ? -1 : skipSpace(text, bodyAt);
  const fenced = grammar.fence !== undefined ? fenceBodyAt(text, fenceAt, grammar.fence) : -1;
  const start = callBodyStart(text, fenced >= 0 ? fenced : bodyAt, grammar.glued === true);
  if (grammar.bodyDecides === true && (start < 0 || !firstItemIsCall(text, start, grammar.shapes))) return -1;
  // The chat template's own format line quoted back (`{"name": <function-name>, "arguments":
  // <args-json-object>}`, Qwen's and Hermes' system prompt): a placeholder where the name's value
  // stands is no call. The block is prose as written, with no error.
  if (start >= 0 && placeholderName(text, start)) {
    const close = scan.earliest(grammar.close, start);
    if (close >= 0) {
      const end = close + matchAt(text, close, grammar.close)!.length;
      sink.proseSpan(at, end);
      return end;
    }
  }
  if (start < 0) {
    // rung 2: the text ends right after the opener, before any object.
    if (grammar.openerAlone === 'left' || !atEnd(text, bodyAt)) return -1;
    sink.fail(fieldMessages.truncated(grammar.id, ''), at, text.length);
    return text.length;
  }
  // The fence's lines are markers of no call: on the ledger beside the calls.
  if (fenced >= 0) sink.drop(fenceAt, fenced, 'fenced_narration');
  const resume = resumeOf(grammar);
  const body = readCallBody(scan, start, { shapes: grammar.shapes, headName: null, resume, ...(grammar.methodItems === undefined ? {} : { methodItems: grammar.methodItems }) }, sink);
  if (body.stopped === 'eof') return text.length;
  let pos = body.stopped === 'broken' ? body.end : skipSpace(text, body.end);
  const fenceClose = fenced >= 0 && body.stopped === 'clean' ? fenceCloseAfter(text, pos, grammar.fence!) : null;
  if (fenceClose !== null) {
    sink.drop(fenceClose.at, fenceClose.end, 'fenced_narration');
    pos = skipSpace(text, fenceClose.end);
  }
  // A close that ends the turn before another role's (`<|eom_id|><|start_header_id|>ipython…`)
  // is left to the lane: with what follows it, it begins a foreign turn.
  let close = matchAt(text, pos, grammar.close) ?? matchAt(text, pos, grammar.extraClose ?? NONE);
  if (close !== null && grammar.closeOptional === true && matchAt(text, pos, foreignAfterClose(grammar)) !== null) close = null;
  if (close !== null) {
    if (body.listOpen === true && sink.calls.length > 0) sink.recovered(fieldMessages.listCloseMissing(grammar.id));
    return pos + close.length;
  }
  if (body.stopped === 'broken') return body.end;
  // A close the grammar may leave out (Llama 3's `<|eom_id|>`): text after the body ends the
  // region, and a close after that text is the turn's marker, not this block's.
  if (grammar.close.length > 0 && grammar.closeOptional !== true && pos < text.length) {
    // rung 4: the close follows after text that is not an object.
    const next = scan.earliest(resume, pos);
    const closeThere = next < 0 ? null : matchAt(text, next, grammar.close);
    if (closeThere !== null) {
      sink.fail(fieldMessages.unreadable(grammar.id, 'text inside the block that is not a call object'), pos, next);
      return next + closeThere.length;
    }
  }
  // Cut inside the closing fence: a fence never closed, whose region takes the fragment.
  const fenceCut = fenced >= 0 && fenceClose === null && body.stopped === 'clean' && fenceCloseCut(text, pos, grammar.fence!);
  if ((fenceCut || (grammar.closeOptional !== true && grammar.close.length > 0)) && sink.calls.length > 0) {
    sink.recovered(fieldMessages.endMarkersMissing(grammar.id));
  }
  if (fenceCut) return text.length;
  return fenceClose === null ? body.end : fenceClose.end;
}

/** `{"name": <word>`: a template placeholder where a call object's name stands (a few characters looked at). */
function placeholderName(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== Code.LeftBrace) return false;
  let i = skipSpace(text, at + 1);
  if (!text.startsWith('"name"', i)) return false;
  i = skipSpace(text, i + 6);
  if (text.charCodeAt(i) !== Code.Colon) return false;
  i = skipSpace(text, i + 1);
  return text.charCodeAt(i) === Code.LessThan && isAsciiLetter(text.charCodeAt(i + 1));
}
