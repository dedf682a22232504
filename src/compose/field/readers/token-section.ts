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
 * Outside a section (or in one with no close marker) the region ends after the last call, and
 * what follows is prose again. A grammar whose opener is shared (`bodyDecides`) reads only
 * calls whose head and arguments are its own: at any other, the region ends before it, or the
 * reader returns -1 when it has read nothing.
 */
import { CODE_ARGUMENT, CODE_TOOL_NAMES, FIELD_NAME_MAX } from '../../../dialects/field/names.js';
import { isSentenceLine } from '../../../lex/sentence.js';
import { NAME_TO_SPACE, type CallHeadForm, type TokenSectionGrammar } from '../../../dialects/field/index.js';
import { TURN_END } from '../../../dialects/field/turn-end.js';
import { Code, isJsonSpace, wordBeforeOnLine } from '../../../lex/codes.js';
import { readJsonValueAt } from '../../../lex/json-stream.js';
import { JSON_FENCE } from '../../../dialects/field/fences.js';
import { fenceCloseCut } from '../fence.js';
import { readJsonItem } from '../json-text.js';
import { dottedNameEnd } from '../../../lex/py-call.js';
import { atEnd, indexWithin, matchAt, skipSpace } from '../cursor.js';
import type { ToolRegistry } from '../../../dialects/registry.js';
import { pastStrippedHeader, withoutGluedConstraint } from '../harmony-recipient.js';
import { fieldMessages } from '../messages.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';
import { callBodyStart, readCallBody } from './call-body.js';

// The fence a DeepSeek or RWKV call's JSON stands in.
const FENCE = JSON_FENCE.close;
const KIMI_INDEX_SEPARATOR = ':';
/** `readCall`'s answer when the call at hand is not this grammar's (`bodyDecides`). */
const NOT_MINE = -1;

/** How many extra copies of a call opener one call may start with. */
const REPEATED_OPENERS_MAX = 3;

const RESUME = new WeakMap<TokenSectionGrammar, readonly string[]>();

/** The call openers and section closes, one array per grammar (so `FieldScan` memoises its search). */
function resumeOf(grammar: TokenSectionGrammar): readonly string[] {
  let resume = RESUME.get(grammar);
  if (resume === undefined) {
    resume = [...grammar.callOpen, ...grammar.sectionClose];
    RESUME.set(grammar, resume);
  }
  return resume;
}

const CODE_STOPS = new WeakMap<TokenSectionGrammar, readonly string[]>();

/** Where raw code ends: the call's close, the next call, the section's close, or a turn's end (one array per grammar). */
function codeStopsOf(grammar: TokenSectionGrammar): readonly string[] {
  let stops = CODE_STOPS.get(grammar);
  if (stops === undefined) {
    stops = [...grammar.callClose, ...grammar.callOpen, ...grammar.sectionClose, ...TURN_END.tokens];
    CODE_STOPS.set(grammar, stops);
  }
  return stops;
}

/** Region end, or -1 when the text at `at` is not this grammar. */
export function readTokenSection(scan: FieldScan, at: number, grammar: TokenSectionGrammar, sink: RegionSink): number {
  const text = scan.text;
  let pos = at;
  const sectionOpen = matchAt(text, pos, grammar.sectionOpen);
  const inSection = sectionOpen !== null;
  // A section with no close marker ends at the first text that is not a call.
  const closable = inSection && grammar.sectionClose.length > 0;
  if (sectionOpen !== null) pos += sectionOpen.length;
  else if (matchAt(text, pos, grammar.callOpen) === null) return -1;
  const resume = resumeOf(grammar);
  let claimed = false;
  for (;;) {
    pos = skipSpace(text, pos);
    if (pos >= text.length) {
      if (closable && sink.calls.length > 0) sink.recovered(fieldMessages.endMarkersMissing(grammar.id));
      // A section opener and then nothing: the calls were cut off.
      if (inSection && sink.empty && (grammar.cutHead ?? 'always') !== 'never') {
        sink.fail(fieldMessages.truncated(grammar.id, ''), at, text.length);
        return text.length;
      }
      return claimed || closable ? text.length : -1;
    }
    if (closable) {
      const close = matchAt(text, pos, grammar.sectionClose);
      if (close !== null) return pos + close.length;
    }
    const open = matchAt(text, pos, grammar.callOpen);
    if (open === null && inSection && grammar.callOpenOptional === true) {
      // A call written without its opener inside the section (`<｜tool▁calls｜>function<｜tool▁sep｜>…`).
      pos = readCall(scan, pos, pos, grammar, sink, resume, true);
      claimed = true;
      continue;
    }
    if (open === null) {
      if (!closable) return claimed ? pos : -1;
      // The section opener named mid-sentence, words after it (`wraps calls in
      // <|tool_calls_section_begin|> tokens.`): no section, the lane reads its line as prose.
      if (!claimed && sink.empty && wordBeforeOnLine(text, at) && isTokenMention(scan, at, grammar)) return -1;
      // rung 4: not a call, inside the section.
      const next = scan.earliest(resume, pos);
      const stop = next < 0 ? text.length : next;
      sink.fail(fieldMessages.unreadable(grammar.id, 'text inside the call section that is not a call'), pos, stop);
      pos = stop;
      continue;
    }
    // A marker written twice (`[TOOL_CALLS][TOOL_CALLS]`) opens one call. The repeats are
    // capped: a reader that may yet answer -1 must look only a bounded way ahead.
    let head = pos + open.length;
    for (let k = 0; k < REPEATED_OPENERS_MAX; k++) {
      const again = matchAt(text, skipSpace(text, head), grammar.callOpen);
      if (again === null) break;
      head = skipSpace(text, head) + again.length;
    }
    const next = readCall(scan, pos, head, grammar, sink, resume, inSection);
    if (next === NOT_MINE) return claimed || closable ? pos : -1;
    claimed = true;
    pos = next;
  }
}

/**
 * `unmarkedFirstSegment`: the segment at the start of the text whose opener sat in the prompt.
 * Only a prose head, or a registered name whose arguments start, is read (an unmarked head is
 * weaker evidence than a marked one); returns where the segment ends, or -1. A prose head's
 * text ends at the grammar's next opener or at `proseStop` (where another grammar's region may
 * begin), whichever comes first.
 */
export function readUnmarkedSegment(scan: FieldScan, grammar: TokenSectionGrammar, sink: RegionSink, proseStop: number): number {
  if (grammar.unmarkedFirstSegment !== true) return -1;
  const text = scan.text;
  const at = skipSpace(text, 0);
  for (const form of grammar.heads) {
    const named = readHead(text, at, form, scan.registry);
    if (named === null || !formReads(form, named.name)) continue;
    if (grammar.proseHeads?.includes(named.name) === true) return proseSegment(scan, named.argsAt, grammar, sink, proseStop);
    if (scan.registry?.byName.has(named.name) !== true || !argumentsStart(text, named.argsAt, form)) continue;
    const end = readCall(scan, at, at, grammar, sink, resumeOf(grammar), false);
    return end === NOT_MINE ? -1 : end;
  }
  return -1;
}

/** A prose head's segment (Functionary's `all`): visible text up to the next opener (or `limit`). */
function proseSegment(scan: FieldScan, from: number, grammar: TokenSectionGrammar, sink: RegionSink, limit: number): number {
  const next = scan.earliest(grammar.callOpen, from);
  const stop = Math.min(next < 0 ? scan.text.length : next, limit);
  sink.proseSpan(from, stop);
  return stop;
}

/** Whether `form` reads a head named `name` (a form may be for some names only). */
function formReads(form: CallHeadForm, name: string): boolean {
  return form.names === undefined || form.names.includes(name);
}

/**
 * Reads one call whose opener ends at `head`; returns where the text after it starts, or
 * NOT_MINE. `inSection`: the call stands in a section this region opened, so what follows its
 * opener is this grammar's whatever it holds.
 */
function readCall(scan: FieldScan, callStart: number, head: number, grammar: TokenSectionGrammar, sink: RegionSink, resume: readonly string[], inSection: boolean): number {
  const text = scan.text;
  // The text ended inside the head (nothing, or part of a name, after the opener): a cut call.
  const cut = cutHeadName(scan, head, grammar);
  if (cut !== null) {
    // A word ending the text's sentence after a blank, the opener named mid-sentence
    // (`it writes [TOOL_CALLS] first.`): the token named in prose, not a call cut off.
    // (A recipient's namespace, `to=functions.`, ends with a dot as it is written.)
    if (cut.endsWith('.') && !isRecipientHead(grammar) && skipSpace(text, head) > head && wordBeforeOnLine(text, callStart)) return NOT_MINE;
    sink.fail(fieldMessages.truncated(grammar.id, cut), callStart, text.length);
    return text.length;
  }
  // Indexed: the heads are frozen vocabulary (see cursor.ts `matchAt`).
  for (let i = 0; i < grammar.heads.length; i++) {
    const form = grammar.heads[i]!;
    const named = readHead(text, head, form, scan.registry);
    if (named === null || !formReads(form, named.name)) continue;
    if (grammar.proseHeads?.includes(named.name) === true) return proseSegment(scan, named.argsAt, grammar, sink, text.length);
    if (grammar.bodyDecides === true && !argumentsStart(text, named.argsAt, form)) continue;
    if (grammar.unregisteredGlued === true && scan.registry?.byName.has(named.name) !== true && !gluedWithArguments(text, head, named, form)) return NOT_MINE;
    if (form.args === 'call-objects') {
      const objects = readObjectsCall(scan, callStart, named, form, grammar, sink, resume);
      if (objects !== NOT_MINE) return objects;
      continue;
    }
    if (form.args === 'json-or-command') return readCommandCall(scan, callStart, named, grammar, sink);
    if (form.args === 'code') {
      // Code written right after its opener never starts with a blank: a blank after a bare
      // opener is prose naming the token (`After <|python_tag|> comes code.`).
      if (form.nameForm === 'none' && form.prefix === '' && isBlankCode(text.charCodeAt(head))) return NOT_MINE;
      return readCodeCall(scan, callStart, named, form, grammar, sink);
    }
    const args = readArguments(text, named.argsAt, form);
    if (!args.ok) {
      if (args.eof) {
        sink.fail(fieldMessages.truncated(grammar.id, sink.shownName(named.name)), callStart, text.length);
        return text.length;
      }
      const next = scan.earliest(resume, named.argsAt);
      const stop = next < 0 ? text.length : next;
      if (!sink.refusedName(named.name, callStart, stop)) sink.fail(fieldMessages.badArguments(grammar.id, sink.shownName(named.name), args.error), callStart, stop);
      // The call's own close belongs to the failed call.
      const close = matchAt(text, stop, grammar.callClose);
      return close === null ? stop : stop + close.length;
    }
    const [end, closed] = closeAfter(text, afterArgsClose(text, args.end, form), grammar);
    // rung 1: complete arguments, close missing (end of text, or the next call / section close).
    const unclosed = !closed && grammar.callClose.length > 0 && grammar.callCloseOptional !== true;
    sink.call({ name: named.name, arguments: args.value, start: callStart, end, unclosed });
    return end;
  }
  if (grammar.bodyDecides === true) return NOT_MINE;
  // No head form read the text: not this grammar's head at all.
  const next = scan.earliest(resume, head);
  const stop = next < 0 ? text.length : next;
  // Outside a section, an opener followed by words that can hold no arguments is the token
  // named in prose (`Use the [TOOL_CALLS] token to call tools.`): the lane keeps its line.
  if (!inSection && mentionAfter(scan, head, againAfter(scan, callStart, head))) return NOT_MINE;
  sink.fail(fieldMessages.unreadable(grammar.id, 'a call head with no tool name'), callStart, stop);
  const close = matchAt(text, stop, grammar.callClose);
  return close === null ? stop : stop + close.length;
}

/** The most characters after an opener that a cut head may hold: a prefix, an id, a name and their markers. */
const CUT_HEAD_MAX = 2 * FIELD_NAME_MAX + 128;

/**
 * The name read so far ('' for none) when the text ends inside a call head of `grammar` at
 * `head`: before the arguments begin, within a prefix, an id, a name or a marker of some head
 * form. Null when it does not, or when the record's `cutHead` does not count such an end.
 */
function cutHeadName(scan: FieldScan, head: number, grammar: TokenSectionGrammar): string | null {
  const text = scan.text;
  const mode = grammar.cutHead ?? 'always';
  if (mode === 'never' || text.length - head > CUT_HEAD_MAX) return null;
  for (const form of grammar.heads) {
    const name = cutInHead(text, head, form);
    if (name === null) continue;
    if (mode === 'always' || (name !== '' && skipSpace(text, head) === head && beginsRegisteredName(scan, name))) return name;
  }
  return null;
}

function beginsRegisteredName(scan: FieldScan, prefix: string): boolean {
  for (const tool of scan.registry?.tools ?? []) if (tool.name.startsWith(prefix)) return true;
  return false;
}

/** How `literal` stands at `at`: whole, cut by the end of the text (a proper prefix, or nothing), or not at all. */
function literalAt(text: string, at: number, literal: string): 'whole' | 'cut' | 'no' {
  if (text.startsWith(literal, at)) return 'whole';
  return atEnd(text, at) || literal.startsWith(text.slice(at)) ? 'cut' : 'no';
}

/** The end of the run of characters a head name may hold from `at` (bounded by a name's length). */
function nameRunEnd(text: string, at: number): number {
  const stop = Math.min(text.length, at + FIELD_NAME_MAX);
  let i = at;
  while (i < stop && isHeadNameCode(text.charCodeAt(i))) i++;
  return i;
}

/** `cutHeadName` for one form: the name read so far, or null when the text does not end inside its head. */
function cutInHead(text: string, at: number, form: CallHeadForm): string | null {
  let pos = skipSpace(text, at);
  if (form.prefix !== '') {
    const prefix = literalAt(text, pos, form.prefix);
    if (prefix !== 'whole') return prefix === 'cut' ? '' : null;
    pos += form.prefix.length;
  }
  if (form.idEnd !== undefined) {
    const id = nameRunEnd(text, skipSpace(text, pos));
    if (id >= text.length) return '';
    const idEnd = literalAt(text, id, form.idEnd);
    if (idEnd !== 'whole') return idEnd === 'cut' ? '' : null;
    pos = id + form.idEnd.length;
  }
  pos = skipSpace(text, pos);
  if (form.nameForm === 'none') return pos >= text.length ? '' : null;
  const nameEnd = nameRunEnd(text, pos);
  const written = text.slice(pos, nameEnd);
  const name = form.nameForm === 'kimi-id' ? withoutCallIndex(written) : written;
  if (nameEnd >= text.length) return name;
  // A name that runs to its arguments' `{`, or to a space: what follows the name is no marker.
  if (form.nameEnd === '') return null;
  if (form.nameEnd === NAME_TO_SPACE) return isJsonSpace(text.charCodeAt(nameEnd)) && atEnd(text, nameEnd) ? name : null;
  const after = skipSpace(text, nameEnd);
  const end = literalAt(text, after, form.nameEnd);
  if (end !== 'whole') return end === 'cut' ? name : null;
  pos = after + form.nameEnd.length;
  if (form.idAfterNameEnd !== undefined) {
    const id = nameRunEnd(text, skipSpace(text, pos));
    if (id >= text.length) return name;
    const idEnd = literalAt(text, id, form.idAfterNameEnd);
    if (idEnd !== 'whole') return idEnd === 'cut' ? name : null;
    pos = id + form.idAfterNameEnd.length;
  }
  if (form.argsOpen !== undefined) {
    const open = literalAt(text, skipSpace(text, pos), form.argsOpen);
    if (open !== 'whole') return open === 'cut' ? name : null;
    pos = skipSpace(text, pos) + form.argsOpen.length;
  }
  return atEnd(text, pos) ? name : null;
}

const NEWLINE: readonly string[] = ['\n'];
const BRACKETS: readonly string[] = ['{', '['];
/** How far after an opener the words of a mention are looked for. */
const WORDS_WINDOW = 64;

/** Per opener literal, a one-needle list, so `FieldScan` memoises the search for it. */
const SAME_LITERAL = new Map<string, readonly string[]>();

/** Where the opener written at `at` (ending at `after`) stands again, from `after` on; -1 for none. */
function againAfter(scan: FieldScan, at: number, after: number): number {
  const literal = scan.text.slice(at, after);
  let needles = SAME_LITERAL.get(literal);
  if (needles === undefined) {
    needles = [literal];
    SAME_LITERAL.set(literal, needles);
  }
  return scan.earliest(needles, after);
}

/**
 * Whether the rest of the line after an opener (from `after`, up to `until` when the same opener
 * stands again before the line ends) cannot hold a call head and its arguments: words, and no
 * `{` or `[` before the line ends (`[TOOL_CALLS]\` token to call tools.`). Both searches are
 * memoised in `scan`, so many openers on one line cost one pass.
 */
export function mentionAfter(scan: FieldScan, after: number, until = -1): boolean {
  const text = scan.text;
  const newline = scan.earliest(NEWLINE, after);
  const lineEnd = until >= 0 && (newline < 0 || until < newline) ? until : newline < 0 ? text.length : newline;
  const bracket = scan.earliest(BRACKETS, after);
  if (bracket >= 0 && bracket < lineEnd) return false;
  for (let i = after, stop = Math.min(lineEnd, after + WORDS_WINDOW); i < stop; i++) if (!isJsonSpace(text.charCodeAt(i))) return true;
  return false;
}

/**
 * Whether the opener of `grammar` at `at`, which no reader took, is a special token named in
 * prose: a call opener (not a section's) of a grammar whose opener is its own (`bodyDecides`
 * grammars leave theirs to the other lanes), followed on its line by words only.
 */
export function isTokenMention(scan: FieldScan, at: number, grammar: TokenSectionGrammar): boolean {
  if (grammar.bodyDecides === true) return false;
  const open = matchAt(scan.text, at, grammar.callOpen) ?? matchAt(scan.text, at, grammar.sectionOpen);
  // The sentence ends where the token stands again on its line (`… for this: [TOOL_CALLS]f[ARGS]{…}`).
  return open !== null && mentionAfter(scan, at + open.length, againAfter(scan, at, at + open.length));
}

/** The head stands right after its opener and its arguments read (`unregisteredGlued`). */
function gluedWithArguments(text: string, head: number, named: Head, form: CallHeadForm): boolean {
  // Strict JSON only: a Python dict after `>>>d` is a REPL session, not a repaired call.
  return skipSpace(text, head) === head && (form.args === 'code' || readArguments(text, named.argsAt, form, true).ok);
}

/** Past the call's close (and the form's `argsClose`) when one follows `from`; whether the close was there. */
function closeAfter(text: string, from: number, grammar: TokenSectionGrammar): [number, boolean] {
  const end = skipSpace(text, from);
  const close = matchAt(text, end, grammar.callClose);
  return close === null ? [from, false] : [end + close.length, true];
}

/** Past the form's `argsClose` when it follows `from`. */
function afterArgsClose(text: string, from: number, form: CallHeadForm): number {
  if (form.argsClose === undefined) return from;
  const at = skipSpace(text, from);
  return text.startsWith(form.argsClose, at) ? at + form.argsClose.length : from;
}

/** Whether the arguments of `form` may start at `at` (the text ending there counts: truncation). */
function argumentsStart(text: string, at: number, form: CallHeadForm): boolean {
  const pos = skipSpace(text, at);
  if (pos >= text.length || form.args === 'json-or-command' || form.args === 'code') return true;
  if (text.startsWith(FENCE, pos)) return form.args !== 'json';
  if (form.args === 'call-objects') return callBodyStart(text, pos, false) >= 0;
  return text.charCodeAt(pos) === Code.LeftBrace;
}

interface Head {
  /** The name as written; empty for a head with no name (`nameForm: 'none'`). */
  readonly name: string;
  readonly argsAt: number;
}

function readHead(text: string, at: number, form: CallHeadForm, registry: ToolRegistry | null): Head | null {
  let pos = skipSpace(text, at);
  if (form.prefix !== '') {
    if (!text.startsWith(form.prefix, pos)) return null;
    pos += form.prefix.length;
  }
  if (form.idEnd !== undefined) {
    const idEnd = indexWithin(text, form.idEnd, pos, FIELD_NAME_MAX);
    if (idEnd < 0) return null;
    pos = skipSpace(text, idEnd + form.idEnd.length);
  }
  if (form.nameForm === 'none') return { name: '', argsAt: pos };
  if (form.nameForm === 'recipient') return recipientHead(text, pos, registry);
  const [nameEnd, afterName] = nameBounds(text, pos, form.nameEnd);
  if (nameEnd < 0) return null;
  let argsAt = afterName;
  if (form.idAfterNameEnd !== undefined) {
    const idEnd = indexWithin(text, form.idAfterNameEnd, afterName, FIELD_NAME_MAX);
    if (idEnd < 0) return null;
    argsAt = idEnd + form.idAfterNameEnd.length;
  }
  let name = text.slice(pos, nameEnd).trim();
  if (!isHeadName(name)) return null;
  if (form.nameForm === 'kimi-id') name = withoutCallIndex(name);
  if (form.argsOpen === undefined) return { name, argsAt };
  const open = skipSpace(text, argsAt);
  return text.startsWith(form.argsOpen, open) ? { name, argsAt: open + form.argsOpen.length } : null;
}

function isRecipientHead(grammar: TokenSectionGrammar): boolean {
  return grammar.heads.length > 0 && grammar.heads[0]!.nameForm === 'recipient';
}

/** A Harmony recipient with its header's tokens stripped (`functions.f json{…}`, `functions.fjson{…}`). */
function recipientHead(text: string, from: number, registry: ToolRegistry | null): Head | null {
  const stop = Math.min(text.length, from + FIELD_NAME_MAX);
  let end = from;
  while (end < stop && isHeadNameCode(text.charCodeAt(end))) end++;
  if (end === from || (end === stop && stop < text.length)) return null;
  const name = withoutGluedConstraint(text.slice(from, end), registry, text.charCodeAt(end) === Code.LeftBrace);
  return { name, argsAt: pastStrippedHeader(text, end) };
}

/** Where the name ends and its arguments start, searched no further than a name's length. */
function nameBounds(text: string, from: number, nameEnd: string): [number, number] {
  if (nameEnd === '') {
    const brace = indexWithin(text, '{', from, FIELD_NAME_MAX);
    return [brace, brace];
  }
  if (nameEnd === NAME_TO_SPACE) {
    const stop = Math.min(text.length, from + FIELD_NAME_MAX);
    let i = from;
    while (i < stop && !isJsonSpace(text.charCodeAt(i))) i++;
    return i < text.length || i > from ? [i, i] : [-1, -1];
  }
  const end = indexWithin(text, nameEnd, from, FIELD_NAME_MAX);
  return [end, end < 0 ? -1 : end + nameEnd.length];
}

/**
 * Whether the text before a head's end marker can be a tool name: whitespace, quotes,
 * brackets and braces never stand in one, so a head holding them was misread (the marker
 * found belongs to something later). Empty is allowed: the sink reports a missing name.
 */
function isHeadName(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (!isHeadNameCode(name.charCodeAt(i))) return false;
  return true;
}

function isBlankCode(code: number): boolean {
  return code === Code.Space || code === Code.Tab;
}

function isHeadNameCode(code: number): boolean {
  return !(
    code <= Code.Space ||
    code === Code.Quote ||
    code === Code.Apostrophe ||
    code === Code.LessThan ||
    code === Code.GreaterThan ||
    code === Code.LeftBrace ||
    code === Code.RightBrace ||
    code === Code.LeftBracket ||
    code === Code.RightBracket
  );
}

/** `functions.get_weather:0` -> `functions.get_weather` (the registry rule strips the namespace). */
function withoutCallIndex(id: string): string {
  const colon = id.lastIndexOf(KIMI_INDEX_SEPARATOR);
  const index = colon < 0 ? '' : id.slice(colon + 1);
  const name = index !== '' && isDigits(index) ? id.slice(0, colon) : id;
  // A bare counter (`0`, `0:1`) is an id whose name was lost: no name, not a tool called `0`.
  return isDigits(name) ? '' : name;
}

function isDigits(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * A head whose arguments are call objects (Mistral's list, InternLM2, Inkling, GigaChat,
 * RWKV), possibly in a ```json fence. Returns NOT_MINE when no body starts there.
 */
function readObjectsCall(scan: FieldScan, callStart: number, named: Head, form: CallHeadForm, grammar: TokenSectionGrammar, sink: RegionSink, resume: readonly string[]): number {
  const text = scan.text;
  let at = skipSpace(text, named.argsAt);
  let fenced = false;
  if (text.startsWith(FENCE, at)) {
    const lineEnd = indexWithin(text, '\n', at + FENCE.length, 32);
    if (lineEnd < 0) {
      if (!atEnd(text, at + FENCE.length) && text.length - at > 32 + FENCE.length) return NOT_MINE;
      sink.fail(fieldMessages.truncated(grammar.id, ''), callStart, text.length);
      return text.length;
    }
    at = lineEnd + 1;
    fenced = true;
  }
  let start = callBodyStart(text, at, false);
  if (start < 0 && form.skipBeforeList !== undefined) {
    start = listAfterJunk(text, at, form.skipBeforeList);
    fenced = start >= 0 && text.slice(at, start).includes(FENCE);
    // The words between the marker and the list (`[TOOL_CALLS] Sure! [{…}]`) are no call.
    if (start >= 0) sink.drop(at, start, 'fenced_narration');
  }
  if (start < 0) {
    if (atEnd(text, at)) {
      sink.fail(fieldMessages.truncated(grammar.id, sink.shownName(named.name)), callStart, text.length);
      return text.length;
    }
    return NOT_MINE;
  }
  const headName = form.nameForm === 'none' ? null : named.name;
  const calls = sink.calls.length;
  const body = readCallBody(scan, start, { shapes: [], headName, resume }, sink);
  if (body.stopped === 'eof') return text.length;
  let end = body.end;
  // A fence opened before the body that never closed before the end of the text.
  let fenceMissing = false;
  if (fenced) {
    const fence = skipSpace(text, end);
    if (text.startsWith(FENCE, fence)) end = fence + FENCE.length;
    else if (fenceCloseCut(text, fence, JSON_FENCE)) {
      // Cut inside the closing fence: a fence never closed, whose region takes the fragment.
      fenceMissing = true;
      end = text.length;
    } else fenceMissing = fence >= text.length;
  }
  const [after, closed] = closeAfter(text, end, grammar);
  const closeMissing = !closed && grammar.callClose.length > 0 && grammar.callCloseOptional !== true;
  if ((closeMissing || fenceMissing) && body.stopped === 'clean' && sink.calls.length > calls) {
    sink.recovered(fieldMessages.endMarkersMissing(grammar.id), calls);
  }
  return after;
}

/**
 * The first `[` that opens a call list within `window` characters of plain text after `at`
 * (Mistral's `[TOOL_CALLS]json\n[{…}]`), or -1. The junk may hold no brace, bracket or quote,
 * so what is skipped can never have been part of a call.
 */
function listAfterJunk(text: string, at: number, window: number): number {
  const stop = Math.min(text.length, at + window);
  for (let i = at; i < stop; i++) {
    const code = text.charCodeAt(i);
    if (code === Code.LeftBracket) return callBodyStart(text, i, true);
    if (code === Code.LeftBrace || code === Code.RightBrace || code === Code.RightBracket || code === Code.Quote || code === Code.Apostrophe) return -1;
  }
  return -1;
}

/**
 * CWM's `NAME rest…` up to the call's close: the rest is JSON arguments when it is one whole
 * JSON object, else the command string. Raw text has no end of its own, so a missing close is
 * truncation.
 */
function readCommandCall(scan: FieldScan, callStart: number, named: Head, grammar: TokenSectionGrammar, sink: RegionSink): number {
  const text = scan.text;
  const close = scan.earliest(grammar.callClose, named.argsAt);
  const restStart = skipSpace(text, named.argsAt);
  if (close < 0) {
    // rung 1: JSON arguments complete up to the end of the text: the close was lost, not the
    // call. A command string with no close may have been cut anywhere, so it stays truncated.
    const json = text.charCodeAt(restStart) === Code.LeftBrace ? readJsonValueAt(text, restStart) : null;
    if (json !== null && json.ok && skipSpace(text, json.end) >= text.length) {
      sink.call({ name: named.name, arguments: json.value, start: callStart, end: text.length, unclosed: true });
      return text.length;
    }
    sink.fail(fieldMessages.truncated(grammar.id, sink.shownName(named.name)), callStart, text.length);
    return text.length;
  }
  const rest = text.slice(restStart, close).trim();
  let args: unknown = rest === '' ? {} : { command: rest };
  if (text.charCodeAt(restStart) === Code.LeftBrace) {
    const json = readJsonValueAt(text, restStart);
    const jsonEnd = json.ok ? skipSpace(text, json.end) : -1;
    if (json.ok && jsonEnd > close) {
      // The close found was written inside a JSON string (argument text): the call's own close
      // follows the JSON, or the text ends there (rung 1 above).
      const own = matchAt(text, jsonEnd, grammar.callClose);
      if (own !== null || jsonEnd >= text.length) {
        const end = own === null ? text.length : jsonEnd + own.length;
        sink.call({ name: named.name, arguments: json.value, start: callStart, end, ...(own === null ? { unclosed: true } : {}) });
        return end;
      }
    }
    if (json.ok && jsonEnd >= close) args = json.value;
  }
  const end = close + matchAt(text, close, grammar.callClose)!.length;
  sink.call({ name: named.name, arguments: args, start: callStart, end });
  return end;
}

/**
 * Raw code as the arguments (Functionary's `>>>python`, Llama 3.1's `<|python_tag|>`, InternLM2's
 * `<|interpreter|>`): the text up to the call's close, the next call or section close, or a
 * turn's end, as `{"code": …}`. A head with no name calls the registered code tool. Code has no
 * end of its own, so where the grammar closes a call and the text ends with none, the code may
 * have been cut anywhere: truncation.
 */
function readCodeCall(scan: FieldScan, callStart: number, named: Head, form: CallHeadForm, grammar: TokenSectionGrammar, sink: RegionSink): number {
  const text = scan.text;
  const next = scan.earliest(codeStopsOf(grammar), named.argsAt);
  const stop = next < 0 ? text.length : next;
  const name = form.nameForm === 'none' ? codeToolName(scan) : named.name;
  const closeRequired = grammar.callClose.length > 0 && grammar.callCloseOptional !== true;
  if (next < 0 && closeRequired) {
    sink.fail(fieldMessages.truncated(grammar.id, sink.shownName(name)), callStart, text.length);
    return text.length;
  }
  const code = text.slice(named.argsAt, stop).trim();
  // Words, not code, after a token that may open either: the token is a marker, the words prose.
  if (form.sentenceIsProse === true && isSentenceLine(firstLine(code))) return named.argsAt;
  // A bare dotted name where the text ends is a built-in call (`brave_search.call(`) cut before
  // its arguments, not code.
  if (next < 0 && form.nameForm === 'none' && isDottedNamePrefix(code)) {
    sink.fail(fieldMessages.truncated(grammar.id, ''), callStart, text.length);
    return text.length;
  }
  const close = next < 0 ? null : matchAt(text, stop, grammar.callClose);
  const end = close === null ? stop : stop + close.length;
  if (code === '') {
    sink.fail(fieldMessages.unreadable(grammar.id, 'a code call with no code'), callStart, end);
    return end;
  }
  sink.call({ name, arguments: { [CODE_ARGUMENT]: code }, start: callStart, end, unclosed: closeRequired && close === null });
  return end;
}

function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline < 0 ? text : text.slice(0, newline);
}

/** `brave_search`, `brave_search.`, `brave_search.ca`: what a built-in call's head may be cut to. */
function isDottedNamePrefix(code: string): boolean {
  if (code === '') return false;
  const end = dottedNameEnd(code, 0);
  return end === code.length || (end === code.length - 1 && code.endsWith('.'));
}

/** The tool a nameless code body calls: the first code tool the registry holds, else the first (its error names it). */
function codeToolName(scan: FieldScan): string {
  const registry = scan.registry;
  if (registry !== null) for (const name of CODE_TOOL_NAMES) if (registry.byName.has(name)) return name;
  return CODE_TOOL_NAMES[0]!;
}

type Arguments = { ok: true; value: unknown; end: number } | { ok: false; eof: boolean; error: string };

function readArguments(text: string, at: number, form: CallHeadForm, strict = false): Arguments {
  if (form.args === 'json') return jsonAt(text, at, strict);
  // ```json\n{…}\n```
  let pos = skipSpace(text, at);
  if (!text.startsWith(FENCE, pos)) {
    if (text.length - pos < FENCE.length && FENCE.startsWith(text.slice(pos))) return { ok: false, eof: true, error: 'cut off' };
    return jsonAt(text, pos, strict);
  }
  pos += FENCE.length;
  const lineEnd = indexWithin(text, '\n', pos, 32);
  if (lineEnd < 0) return { ok: false, eof: atEnd(text, pos) || text.length - pos < 32, error: 'a fence with no body' };
  const value = jsonAt(text, lineEnd + 1, strict);
  if (!value.ok) return value;
  const close = skipSpace(text, value.end);
  if (text.startsWith(FENCE, close)) return { ok: true, value: value.value, end: close + FENCE.length };
  // The text ends inside the closing fence: the fence had begun, so the call takes its start,
  // which is then no next call's name.
  return { ok: true, value: value.value, end: fenceCloseCut(text, close, JSON_FENCE) ? text.length : value.end };
}

/** JSON arguments at `at`; unless `strict`, by the lenient rung when strict JSON fails (trailing commas, Python quotes). */
function jsonAt(text: string, at: number, strict: boolean): Arguments {
  const read = strict ? readJsonValueAt(text, at) : readJsonItem(text, at);
  if (read.ok) return { ok: true, value: read.value, end: read.end };
  return { ok: false, eof: read.eof, error: read.error };
}
