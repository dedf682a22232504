/**
 * The `token-section` reader: special-token sections of calls, each a name and JSON arguments
 * (Kimi K2, DeepSeek V3 / V3.1, and every record of that family in `src/dialects/field`).
 *
 *     <|tool_calls_section_begin|> <|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{…}<|tool_call_end|> … <|tool_calls_section_end|>
 *     ^ at (section or call opener) ^ call          ^ head                                  ^ args ^ call close        ^ region end
 *
 * Recovery rungs, in order, none of which throws:
 *   1. a call whose arguments are complete but whose close (or the section's) is missing is a
 *      call, with `recovered_dialect`;
 *   2. arguments cut off by the end of the text: `TOOL CALL TRUNCATED:` and a drop;
 *   3. arguments that are not JSON, or a head no form reads: a parse error and a drop up to the
 *      next call opener or section close;
 *   4. text inside a section that is not a call: dropped the same way.
 * Outside a section the region ends after the last call, and what follows is prose again.
 */
import { FIELD_NAME_MAX } from '../../../dialects/field/names.js';
import type { CallHeadForm, TokenSectionGrammar } from '../../../dialects/field/index.js';
import { readJsonValueAt } from '../../../lex/json-stream.js';
import { atEnd, indexWithin, matchAt, skipSpace } from '../cursor.js';
import { fieldMessages } from '../messages.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';

const FENCE = '```';
const KIMI_INDEX_SEPARATOR = ':';

/** Region end, or -1 when the text at `at` is not this grammar. */
export function readTokenSection(scan: FieldScan, at: number, grammar: TokenSectionGrammar, sink: RegionSink): number {
  const text = scan.text;
  let pos = at;
  const sectionOpen = matchAt(text, pos, grammar.sectionOpen);
  const inSection = sectionOpen !== null;
  if (sectionOpen !== null) pos += sectionOpen.length;
  else if (matchAt(text, pos, grammar.callOpen) === null) return -1;
  // Where to resume after text that is not a call: the next call opener or section close.
  const resume = [...grammar.callOpen, ...grammar.sectionClose];
  for (;;) {
    pos = skipSpace(text, pos);
    if (pos >= text.length) {
      if (inSection && sink.calls.length > 0) sink.violation('recovered_dialect', fieldMessages.endMarkersMissing(grammar.id));
      return text.length;
    }
    if (inSection) {
      const close = matchAt(text, pos, grammar.sectionClose);
      if (close !== null) return pos + close.length;
    }
    const open = matchAt(text, pos, grammar.callOpen);
    if (open === null) {
      if (!inSection) return pos;
      // rung 4: not a call, inside the section.
      const next = scan.earliest(resume, pos);
      const stop = next < 0 ? text.length : next;
      sink.fail(fieldMessages.unreadable(grammar.id, 'text inside the call section that is not a call'), pos, stop);
      pos = stop;
      continue;
    }
    pos = readCall(scan, pos, pos + open.length, grammar, sink, resume);
  }
}

/** Reads one call whose opener ends at `head`; returns where the text after it starts. */
function readCall(scan: FieldScan, callStart: number, head: number, grammar: TokenSectionGrammar, sink: RegionSink, resume: readonly string[]): number {
  const text = scan.text;
  for (const form of grammar.heads) {
    const named = readHead(text, head, form);
    if (named === null) continue;
    const args = readArguments(text, named.argsAt, form);
    if (!args.ok) {
      if (args.eof) {
        sink.fail(fieldMessages.truncated(grammar.id, named.name), callStart, text.length);
        return text.length;
      }
      const next = scan.earliest(resume, named.argsAt);
      const stop = next < 0 ? text.length : next;
      sink.fail(fieldMessages.badArguments(grammar.id, named.name, args.error), callStart, stop);
      // The call's own close belongs to the failed call.
      const close = matchAt(text, stop, grammar.callClose);
      return close === null ? stop : stop + close.length;
    }
    let end = skipSpace(text, args.end);
    const close = matchAt(text, end, grammar.callClose);
    if (close !== null) end += close.length;
    // rung 1: complete arguments, close missing (end of text, or the next call / section close).
    const unclosed = close === null && grammar.callClose.length > 0;
    sink.call({ name: named.name, arguments: args.value, start: callStart, end: close === null ? args.end : end, unclosed });
    return close === null ? args.end : end;
  }
  // No head form read the text: cut off inside the head, or not this grammar's head at all.
  const next = scan.earliest(resume, head);
  const stop = next < 0 ? text.length : next;
  // The text ended within a name's length of the opener: the head was cut off.
  const cut = next < 0 && stop - head <= FIELD_NAME_MAX;
  sink.fail(cut ? fieldMessages.truncated(grammar.id, '') : fieldMessages.unreadable(grammar.id, 'a call head with no tool name'), callStart, stop);
  const close = matchAt(text, stop, grammar.callClose);
  return close === null ? stop : stop + close.length;
}

interface Head {
  readonly name: string;
  readonly argsAt: number;
}

function readHead(text: string, at: number, form: CallHeadForm): Head | null {
  let pos = skipSpace(text, at);
  if (form.prefix !== '') {
    if (!text.startsWith(form.prefix, pos)) return null;
    pos += form.prefix.length;
  }
  let nameEnd: number;
  let argsAt: number;
  if (form.nameEnd === '') {
    nameEnd = indexWithin(text, '{', pos, FIELD_NAME_MAX);
    argsAt = nameEnd;
  } else {
    nameEnd = indexWithin(text, form.nameEnd, pos, FIELD_NAME_MAX);
    argsAt = nameEnd + form.nameEnd.length;
  }
  if (nameEnd < 0) return null;
  let name = text.slice(pos, nameEnd).trim();
  if (form.nameForm === 'kimi-id') name = withoutCallIndex(name);
  return { name, argsAt };
}

/** `functions.get_weather:0` -> `functions.get_weather` (the registry rule strips the namespace). */
function withoutCallIndex(id: string): string {
  const colon = id.lastIndexOf(KIMI_INDEX_SEPARATOR);
  if (colon < 0) return id;
  const index = id.slice(colon + 1);
  return index !== '' && /^\d+$/.test(index) ? id.slice(0, colon) : id;
}

type Arguments = { ok: true; value: unknown; end: number } | { ok: false; eof: boolean; error: string };

function readArguments(text: string, at: number, form: CallHeadForm): Arguments {
  if (form.args === 'json') return jsonAt(text, at);
  // ```json\n{…}\n```
  let pos = skipSpace(text, at);
  if (!text.startsWith(FENCE, pos)) {
    if (text.length - pos < FENCE.length && FENCE.startsWith(text.slice(pos))) return { ok: false, eof: true, error: 'cut off' };
    return jsonAt(text, pos);
  }
  pos += FENCE.length;
  const lineEnd = indexWithin(text, '\n', pos, 32);
  if (lineEnd < 0) return { ok: false, eof: atEnd(text, pos) || text.length - pos < 32, error: 'a fence with no body' };
  const value = jsonAt(text, lineEnd + 1);
  if (!value.ok) return value;
  const close = skipSpace(text, value.end);
  return { ok: true, value: value.value, end: text.startsWith(FENCE, close) ? close + FENCE.length : value.end };
}

function jsonAt(text: string, at: number): Arguments {
  const read = readJsonValueAt(text, at);
  if (read.ok) return { ok: true, value: read.value, end: read.end };
  return { ok: false, eof: read.eof, error: read.error };
}
