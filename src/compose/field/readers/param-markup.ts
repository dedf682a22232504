/**
 * The `param-markup` reader: calls whose arguments are raw text inside parameter markup
 * (Qwen3-Coder, GLM, MiniMax, Step-3, Anthropic XML, DSML, GCML, Hunyuan, Kimi K3, ...), every
 * shape driven by the grammar's record.
 *
 *     [envelope] <section> [wrap] HEAD  ARG ARG …  CLOSE [wrap close] … </section> [envelope close]
 *     ^ at                        ^ `<invoke name="f">`, `<function=f>`, `<tool_call>f`
 *                                       ^ `<parameter name="k">v</parameter>`, `<arg_key>k</arg_key><arg_value>v</arg_value>`
 *
 * The first call decides whether the region is this grammar's: when its head is not the
 * record's, or its body is JSON and the grammar takes none (`<function=f>{…}` is Llama 3.1's), the
 * reader returns -1 having reported nothing, and the next record sharing the opener is tried.
 *
 * Recovery rungs, in order, none of which throws:
 *   1. complete arguments whose call (or section) close is missing: a call, `recovered_dialect`;
 *      so is a value whose close is left out where the grammar allows it (Qwen3-Coder: it ends
 *      at the next argument or the call's close);
 *   2. the text ends inside a tag or a value: `TOOL CALL TRUNCATED:` and a drop to the end;
 *   3. a JSON body that does not read, text inside a call that is no argument, or a value with
 *      no close of its own before the call ends: a parse error and a drop up to the next call,
 *      call close or section close (a value never runs on into the next call);
 *   4. text inside a section that is not a call: dropped the same way.
 *
 * A value's own close written inside it (`s = "</parameter>"` in code) is told from the real
 * one by what follows it: see `valueEnd`.
 */
import type { MarkupTag, NamedTagArguments, ParamMarkupGrammar, PairArguments, TagArguments } from '../../../dialects/field/index.js';
import { FIELD_NAME_MAX } from '../../../dialects/field/names.js';
import type { ToolDef } from '../../../dialects/registry.js';
import { isJsonSpace } from '../../../lex/codes.js';
import { isPlainRecord, setOwn } from '../../../lex/json-object.js';
import { readJsonValueAt } from '../../../lex/json-stream.js';
import { indexWithin, matchAt, matchListAt, searchList, skipSpace, type SearchList } from '../cursor.js';
import { readOpenTag, type ListedTag } from '../markup-tag.js';
import { fieldMessages } from '../messages.js';
import { isReferenceTag } from '../reference-tags.js';
import { typeBySchema, type InbandType } from '../raw-value.js';
import type { RegionSink } from '../region.js';
import type { CandidateTest, FieldScan } from '../scan.js';
import { typeRawValue } from '../typing.js';
import { callBodyStart, readCallBody } from './call-body.js';
import { readNamedTags, type NamedTagsContext } from './named-tags.js';
import { withSuffix } from './suffix.js';

/** The longest in-band type name (`<ifm|arg_type>integer</ifm|arg_type>`). */
const TYPE_NAME_MAX = 64;

/**
 * Needle lists built once per record, so `FieldScan.earliest` memoises across calls, and compiled
 * (`searchList`): a literal at a position is matched only through `matchListAt`. Two lists are
 * still read from the record, neither on the tag grammars' path: a JSON body's opens (whose empty
 * entry means a bare `{`) and a text head's name ends (searched for, not matched).
 */
interface Needles {
  readonly callOpen: SearchList;
  /** Where to resume after text that is not a call: the next call, call close or section close. */
  readonly resume: SearchList;
  readonly valueClose: SearchList;
  /** The longest value close: a value whose next place lies no further past its close was closed once. */
  readonly valueCloseMax: number;
  /** The opens of the elements the value closes name (`<parameter` for `</parameter>`), each to be followed by a tag's next character. */
  readonly valueElementOpen: readonly string[];
  /** The envelope's opens (in-text and response-start) and close, empty without one. */
  readonly envelopeOpen: SearchList;
  readonly envelopeResponseOpen: SearchList;
  readonly envelopeClose: SearchList;
  /** The next argument's open tag or key: a value whose close comes after it had none of its own. */
  readonly argOpen: SearchList;
  /** Where a call ends when a value's close is missing: call, wrap and section closes, the next call or section. */
  readonly boundary: SearchList;
  /** What may follow a value's real close (or a call's): the next argument, a close, the next call. */
  readonly follow: SearchList;
  readonly sectionClose: SearchList;
  readonly sectionOpen: SearchList;
  /** The call wrap's open, prefix and close (Step-3's `<｜tool_call_begin｜>`), empty without one. */
  readonly wrapOpen: SearchList;
  readonly wrapPrefix: SearchList;
  readonly wrapClose: SearchList;
  /** The head's and the arguments' tags, for the tag forms (null for the others). */
  readonly headTag: ListedTag | null;
  readonly argTag: ListedTag | null;
  /** The character every value close, argument open and boundary starts with (`<` in the tag grammars), or '' when they differ. */
  readonly lead: string;
  /** The call's close, whichever form the head takes. */
  readonly callClose: SearchList;
  /** What may close a JSON body: the body's own close, then the call's. */
  readonly jsonClose: SearchList;
  /** The head is text after an opener (GLM's `<tool_call>NAME`), not a tag. */
  readonly textHead: boolean;
  /** A text head's opener and what may follow its name, empty for the tag forms. */
  readonly textOpen: SearchList;
  readonly nameSep: SearchList;
  // The arguments' record, under the field of its form (null under the others).
  readonly tagArgs: TagArguments | null;
  readonly pairArgs: PairArguments | null;
  readonly namedArgs: NamedTagArguments | null;
}

const NEEDLES = new WeakMap<ParamMarkupGrammar, Needles>();

/** A tag record whose `open` list is the needles' own. */
function ownTag(tag: MarkupTag): ListedTag {
  return { ...tag, open: searchList(tag.open) };
}

/** For a part of the record the grammar lacks. */
const NO_LITERALS = searchList([]);

function needlesOf(grammar: ParamMarkupGrammar): Needles {
  let needles = NEEDLES.get(grammar);
  if (needles === undefined) {
    const callOpen = grammar.callWrap?.open ?? (grammar.call.kind === 'tag' ? grammar.call.tag.open : grammar.call.open);
    const headOpen = grammar.call.kind === 'tag' ? grammar.call.tag.open : grammar.call.open;
    const closes = grammar.call.kind === 'tag' ? grammar.call.tag.close : grammar.call.close;
    const args = grammar.args;
    const argOpen = args.kind === 'tags' ? args.tag.open : args.kind === 'pairs' ? [args.keyOpen] : [];
    const wrapClose = grammar.callWrap?.close ?? [];
    const sectionClose = grammar.section?.close ?? [];
    const opens = [...callOpen, ...headOpen, ...(grammar.section?.open ?? [])];
    const envelopeClose = searchList(grammar.envelope?.close ?? []);
    const wrapper = args.kind === 'tags' && args.wrapper !== null ? [args.wrapper.open, args.wrapper.close] : [];
    const valueClose = searchList(args.kind === 'tags' ? args.tag.close : args.kind === 'pairs' ? [args.valueClose] : []);
    const argOpenList = searchList(argOpen);
    const boundary = searchList([...closes, ...wrapClose, ...sectionClose, ...opens]);
    const stops = [...valueClose, ...argOpenList, ...boundary];
    const lead = stops.length > 0 && stops.every((n) => n[0] === stops[0]![0]) ? stops[0]![0]! : '';
    needles = {
      callOpen: searchList(callOpen),
      resume: searchList([...callOpen, ...headOpen, ...closes, ...wrapClose, ...sectionClose]),
      // Own arrays (records share tag objects): the scan memoises per array, and what counts as a real close is this grammar's.
      valueClose,
      valueCloseMax: Math.max(0, ...valueClose.map((close) => close.length)),
      valueElementOpen: valueClose.flatMap((close) => (close.startsWith('</') && close.endsWith('>') ? ['<' + close.slice(2, -1)] : [])),
      envelopeOpen: searchList(grammar.envelope?.open ?? []),
      envelopeResponseOpen: searchList(grammar.envelope?.responseOpen ?? []),
      envelopeClose,
      argOpen: argOpenList,
      boundary,
      follow: searchList([...argOpen, ...wrapper, ...closes, ...wrapClose, ...sectionClose, ...opens, ...envelopeClose]),
      sectionClose: searchList(sectionClose),
      sectionOpen: searchList(grammar.section?.open ?? []),
      wrapOpen: searchList(grammar.callWrap?.open ?? []),
      wrapPrefix: searchList(grammar.callWrap?.prefix ?? []),
      wrapClose: searchList(wrapClose),
      headTag: grammar.call.kind === 'tag' ? ownTag(grammar.call.tag) : null,
      argTag: args.kind === 'tags' ? ownTag(args.tag) : null,
      lead,
      callClose: searchList(closes),
      jsonClose: searchList([...(grammar.jsonBody?.close ?? []), ...closes]),
      textHead: grammar.call.kind === 'text',
      textOpen: searchList(grammar.call.kind === 'text' ? grammar.call.open : []),
      nameSep: searchList(grammar.call.kind === 'text' ? grammar.call.nameSep : []),
      tagArgs: args.kind === 'tags' ? args : null,
      pairArgs: args.kind === 'pairs' ? args : null,
      namedArgs: args.kind === 'named-tags' ? args : null,
    };
    NEEDLES.set(grammar, needles);
  }
  return needles;
}

/** Where one argument value ends. */
type ValueEnd =
  /** At its own close `end`; the arguments go on at `next`, past the close. */
  | { readonly kind: 'closed'; readonly end: number; readonly next: number }
  /** With no close of its own, at `end`: the next argument or the call's end (a grammar whose value close is optional). */
  | { readonly kind: 'open'; readonly end: number }
  /** With no close of its own before the call ends: the call is malformed. */
  | { readonly kind: 'unclosed' }
  /** The text ends inside it. */
  | { readonly kind: 'eof' };

const UNCLOSED: ValueEnd = { kind: 'unclosed' };
const NO_STOP = { kind: 'none' } as const;
const VALUE_EOF: ValueEnd = { kind: 'eof' };

/** What `readCall` found at a position. */
type CallRead =
  /** No call of this grammar starts here. */
  | { readonly kind: 'none' }
  /** A call head whose body belongs to another grammar (a JSON body where this one takes none). */
  | { readonly kind: 'foreign' }
  /** A call read (or failed and reported); the text resumes at `end`. */
  | { readonly kind: 'read'; readonly end: number };

const NONE: CallRead = { kind: 'none' };
const FOREIGN: CallRead = { kind: 'foreign' };

/** What `valueEnd` looks for after a value's start. */
type ValueStop = 'real close' | 'next argument' | 'call boundary';

class Reader implements CandidateTest<ValueStop> {
  readonly text: string;
  readonly needles: Needles;
  /** A trial read of calls inside a value (`throughInnerCalls`): it looks for no calls inside its own values. */
  trial = false;
  /** The trial met a value with no close of its own, and stopped. */
  failed = false;
  // The call being read: errors beside it (a value its schema could not type) and keys whose
  // value had no close of its own. Made at the first (perf: two lists per call otherwise).
  #problems: string[] | null = null;
  #unclosedKeys: string[] | null = null;
  /** The keys whose value close was written twice (the second stepped over as a repeat). */
  #doubledKeys: string[] | null = null;
  /** The call being read has a header whose end literal was missing (`<parameter=path⏎`). */
  #unterminated = false;
  /** A pair's value close stood where the first argument would (`<tool_call>NAME</arg_value>`). */
  #strayValueClose = false;
  /** The tool of the call whose tag arguments are being read, and the arguments read so far (`tags`). */
  #tool: ToolDef | undefined = undefined;
  #args: Record<string, unknown> | null = null;
  constructor(
    readonly scan: FieldScan,
    readonly grammar: ParamMarkupGrammar,
    readonly sink: RegionSink,
  ) {
    this.text = scan.text;
    this.needles = needlesOf(grammar);
  }

  /** Whitespace, then the grammar's tag token (MiniMax M3) and whitespace again. */
  skip(at: number): number {
    const { text } = this;
    let pos = skipSpace(text, at);
    if (this.grammar.escapedBreaks) while (text.charCodeAt(pos) === 0x5c && isEscapedSpace(text.charCodeAt(pos + 1))) pos = skipSpace(text, pos + 2);
    const token = this.grammar.tagToken;
    if (token !== null && text.startsWith(token, pos)) pos = skipSpace(text, pos + token.length);
    return pos;
  }

  /** `pos` past the first literal of `list` at `pos`, or -1. */
  past(pos: number, list: SearchList): number {
    const found = matchListAt(this.text, pos, list);
    return found === null ? -1 : pos + found.length;
  }

  /** The next stopping point at or after `from` (a call, call close or section close), consumed when it is a close. */
  resumeAfter(from: number): { stop: number; end: number } {
    const stop = this.scan.earliest(this.needles.resume, from);
    if (stop < 0) return { stop: this.text.length, end: this.text.length };
    const past = this.past(stop, this.needles.callClose);
    const wrap = this.grammar.callWrap;
    // A call's wrap close (Step-3's `<｜tool_call_end｜>`) belongs to the call whose close it follows, or stands alone.
    const unwrapped = wrap === null ? -1 : this.past(past < 0 ? stop : this.skip(past), this.needles.wrapClose);
    return { stop, end: unwrapped >= 0 ? unwrapped : past < 0 ? stop : past };
  }

  region(at: number): number {
    const { text, grammar, sink } = this;
    const start = at;
    let pos = at;
    let inEnvelope = false;
    const envelope = grammar.envelope;
    // A response-start spelling (` to=R<|message|>`) is found only as the response's first text.
    const opened = envelope === null ? null : (matchListAt(text, pos, this.needles.envelopeOpen) ?? matchListAt(text, pos, this.needles.envelopeResponseOpen));
    if (envelope !== null && opened !== null) {
      const head = pos + opened.length;
      const headEnd = indexWithin(text, envelope.headEnd, head, FIELD_NAME_MAX);
      if (headEnd < 0) return -1;
      const recipient = text.slice(head, headEnd).trim();
      // A header holding another grammar's tokens (Harmony's `<|channel|>`) is not this one's.
      if (recipient.includes('<|')) return -1;
      const body = headEnd + envelope.headEnd.length;
      const visible = envelope.proseRecipients.includes(recipient);
      if (visible || envelope.reasoningRecipients.includes(recipient)) {
        const stop = this.scan.earliest(this.needles.envelopeClose, body);
        const bodyEnd = stop < 0 ? text.length : stop;
        if (visible) sink.proseSpan(body, bodyEnd);
        else sink.reasoningSpan(body, bodyEnd);
        return stop < 0 ? text.length : this.past(stop, this.needles.envelopeClose);
      }
      pos = skipSpace(text, body);
      if (matchListAt(text, pos, this.needles.sectionOpen) === null) return -1;
      inEnvelope = true;
    }
    const token = grammar.tagToken;
    const tokenFirst = token !== null && text.startsWith(token, pos);
    if (tokenFirst) pos = this.skip(pos);
    const sectionOpen = matchListAt(text, pos, this.needles.sectionOpen);
    const sectionAt = sectionOpen === null ? -1 : pos + sectionOpen.length;
    const inSection = sectionAt >= 0;
    if (inSection) pos = sectionAt;
    else if (!grammar.bare || matchListAt(text, pos, this.needles.callOpen) === null) {
      // A leaked grammar token outside any call is a marker: it is stepped over, never prose.
      return tokenFirst ? at + token.length : -1;
    }
    let attempts = 0;
    for (;;) {
      const at = this.skip(pos);
      if (at >= text.length) {
        // A section opened and the text cut before its first call (`<｜DSML｜function_calls>⏎`
        // at the end): a call cut off, as a lone opener at the end is for the token sections.
        if (attempts === 0 && inSection && sink.calls.length === 0 && sink.errors.length === 0 && !isReferenceTag(sectionOpen ?? '')) {
          sink.fail(fieldMessages.truncated(grammar.id, ''), start, text.length);
          return text.length;
        }
        if (attempts === 0) return -1;
        if (inSection && sink.calls.length > 0) sink.recovered(fieldMessages.endMarkersMissing(grammar.id));
        return text.length;
      }
      if (inSection) {
        const closed = this.past(at, this.needles.sectionClose);
        if (closed >= 0) {
          // An empty pair of a tag the reference also reads, written after a word and a blank
          // (`in <tool_call></tool_call> tags`), is named in a sentence: the lane reads it so.
          if (attempts === 0 && sink.calls.length === 0 && sink.errors.length === 0 && isReferenceTag(sectionOpen ?? '') && afterWordAndBlank(text, start)) return -1;
          if (!inEnvelope) return closed;
          const after = this.past(skipSpace(text, closed), this.needles.envelopeClose);
          return after < 0 ? closed : after;
        }
      }
      const read = this.call(at, inSection, inSection ? sectionOpen : null);
      if (this.failed) return -1;
      if (read.kind !== 'read') {
        if (attempts === 0) return -1;
        if (!inSection) return pos;
        // A section never closed whose calls were read: text after the last one that is not a
        // call is the answer's (`<tool_call>…</function>⏎A note.`, its `</tool_call>` left out).
        // (An envelope's close after it, `<|eom|>`, still frames the section: not here.)
        if (sink.calls.length > 0 && this.scan.earliest(this.needles.sectionClose, at) < 0 && (!inEnvelope || this.scan.earliest(this.needles.envelopeClose, at) < 0)) {
          sink.recovered(fieldMessages.endMarkersMissing(grammar.id));
          return pos;
        }
        // rung 4: text inside the section that is not a call.
        const next = this.resumeAfter(at + 1);
        sink.fail(fieldMessages.unreadable(grammar.id, 'text inside the call section that is not a call'), at, next.stop);
        pos = next.stop;
        continue;
      }
      attempts++;
      pos = read.end;
      if (!inSection && matchListAt(text, this.skip(pos), this.needles.callOpen) === null) return pos;
    }
  }

  /**
   * `section`: the opener of the section the call stands in, if any. In a section of the
   * grammar's own (not a tag the reference also reads), a call whose head the text ends inside
   * is a call cut off (`<|open|>tools<|sep|><|open|>call tool="f"`).
   */
  /** Where a call's head stands after its wrapping token and prefix at `at` (Step-3's), or `at` without one. */
  pastWrap(at: number): number {
    if (this.grammar.callWrap === null) return at;
    const inside = this.past(at, this.needles.wrapOpen);
    if (inside < 0) return at;
    const pos = skipSpace(this.text, inside);
    const prefixed = this.past(pos, this.needles.wrapPrefix);
    return prefixed >= 0 ? skipSpace(this.text, prefixed) : pos;
  }

  call(start: number, inSection: boolean, section: string | null = null): CallRead {
    const { text, grammar, sink } = this;
    const pos = this.pastWrap(start);
    const wrapped = pos !== start;
    if (!wrapped) {
      const objects = this.callObjects(start, pos);
      if (objects !== null) return objects;
    }
    const head = this.head(pos);
    if (head.kind === 'eof') {
      // perf: which section it is, asked only here (a set look-up per region otherwise).
      const cutHeadIsCall = section !== null && !isReferenceTag(section);
      if (!wrapped && pos === start && head.named !== true && !cutHeadIsCall) return NONE;
      sink.fail(fieldMessages.truncated(grammar.id, ''), start, text.length);
      return { kind: 'read', end: text.length };
    }
    if (head.kind === 'none') return wrapped ? this.unreadable(start, pos, '', 'a call with no tool name') : NONE;
    if (head.kind === 'spaced') return this.unreadable(start, head.end, head.name, 'a tool name with blanks in it');
    const name = head.name;
    const tool = this.toolFor(name);
    const bodyAt = this.skip(head.end);
    // perf: the record's parts are read through its needles (one layout for every grammar), not
    // through the record: once a parse has met every grammar, the records' several layouts made
    // these loads polymorphic, and the form of `args` megamorphic, in the hottest method.
    const { needles } = this;
    const closes = needles.callClose;
    if (needles.textHead && !this.bodyStartsAt(bodyAt, closes)) return FOREIGN;
    const json = this.jsonBody(bodyAt);
    let args: Record<string, unknown>;
    let end: number;
    let closed: boolean;
    this.#problems = null;
    this.#unclosedKeys = null;
    this.#doubledKeys = null;
    this.#unterminated = head.unterminated === true;
    this.#strayValueClose = false;
    if (json !== null) {
      if (json.kind === 'foreign') return FOREIGN;
      if (json.kind === 'eof') {
        sink.fail(fieldMessages.truncated(grammar.id, name), start, text.length);
        return { kind: 'read', end: text.length };
      }
      if (json.kind === 'bad') return this.unreadable(start, bodyAt, name, json.error);
      // A JSON body that is one wrapper object (`{"arguments": {…}}`, DeepSeek V4) unwraps as a wrapper parameter does.
      args = needles.tagArgs !== null ? unwrapArguments(json.value, needles.tagArgs, tool) : json.value;
      end = json.end;
      const after = this.skip(end);
      const closedAt = this.past(after, needles.jsonClose);
      closed = closedAt >= 0;
      if (closed) {
        end = closedAt;
        const callClosed = this.past(this.skip(end), closes);
        if (callClosed >= 0) end = callClosed;
      }
    } else {
      const read =
        needles.pairArgs !== null
          ? this.pairs(bodyAt, needles.pairArgs, tool)
          : needles.namedArgs !== null
            ? readNamedTags(bodyAt, needles.namedArgs, this.namedTagsContext(tool, closes))
            : this.tags(bodyAt, needles.tagArgs!, tool);
      if (read.kind === 'eof') {
        sink.fail(fieldMessages.truncated(grammar.id, name), start, text.length);
        return { kind: 'read', end: text.length };
      }
      if (read.kind === 'bad') {
        // A head followed by no argument at all: outside a section it is prose that looks like a
        // head (`<function=name> then …`); a JSON body where the grammar takes none is another grammar's.
        // So is a first argument written in another record's form after the same head (`<parameter` where MiniMax M3 names its tags).
        if (read.first && read.at === bodyAt && (!inSection || (text.charCodeAt(bodyAt) === 0x7b && grammar.jsonBody === null) || this.foreignArgumentAt(bodyAt))) return FOREIGN;
        return this.unreadable(start, read.at, name, read.detail ?? 'text inside the call that is not an argument');
      }
      args = needles.tagArgs !== null ? unwrapArguments(read.args, needles.tagArgs, tool) : read.args;
      end = read.end;
      const closedAt = this.past(end, closes);
      closed = closedAt >= 0;
      if (closed) end = closedAt;
      else if (grammar.callEndsAtNextOpen && matchListAt(text, end, this.needles.callOpen) !== null) closed = true;
    }
    if (wrapped) {
      const unwrapped = this.past(this.skip(end), this.needles.wrapClose);
      if (unwrapped >= 0) end = unwrapped;
      else closed = false;
    }
    // Cut after the call's head, before any argument and with no close: its arguments never
    // began, so the call is not known complete (a tool taking none reads the same so far).
    // So is one cut after an argument while a parameter its tool requires is still missing: the
    // arguments come one by one, so the end of the text, not the model, ended the list (a JSON
    // body closes its own object; this reads as complete only what nothing could follow).
    // (A value's close after the name says the model ended the arguments: GLM 5.2's no-argument call.)
    if (!closed && this.skip(end) >= text.length && ((Object.keys(args).length === 0 && !(this.#strayValueClose as boolean)) || (json === null && lacksRequired(tool, args)))) {
      sink.fail(fieldMessages.truncated(grammar.id, name), start, text.length);
      return { kind: 'read', end: text.length };
    }
    if (sink.call({ name, arguments: args, start, end, unclosed: !closed })) {
      // (Set by the reads above: the compiler still sees the nulls written at the start.)
      const problems = this.#problems as string[] | null;
      const unclosedKeys = this.#unclosedKeys as string[] | null;
      const doubledKeys = this.#doubledKeys as string[] | null;
      if (problems !== null) for (const problem of problems) sink.note(problem);
      if (unclosedKeys !== null) sink.recovered(fieldMessages.valueCloseMissing(grammar.id, unclosedKeys), sink.calls.length - 1);
      if (doubledKeys !== null) sink.recovered(fieldMessages.valueCloseDoubled(grammar.id, doubledKeys), sink.calls.length - 1);
      if (this.#unterminated as boolean) sink.recovered(fieldMessages.headerEndMissing(grammar.id), sink.calls.length - 1);
      if (this.#strayValueClose as boolean) sink.recovered(fieldMessages.strayValueClose(grammar.id), sink.calls.length - 1);
    }
    return { kind: 'read', end };
  }

  /**
   * A text head's opener followed by JSON call objects (K2 Horizon's `json` format), read as
   * call bodies are and closed by the call's close; null when the grammar writes none here.
   */
  callObjects(start: number, pos: number): CallRead | null {
    const { text, grammar, sink } = this;
    if (!grammar.callObjects || grammar.call.kind !== 'text') return null;
    const opened = this.past(pos, this.needles.textOpen);
    if (opened < 0) return null;
    const bodyAt = callBodyStart(text, opened, false);
    if (bodyAt < 0) return null;
    const closes = this.needles.callClose;
    const calls = sink.calls.length;
    const body = readCallBody(this.scan, bodyAt, { shapes: [], headName: null, resume: this.needles.resume }, sink);
    if (body.stopped === 'eof') return { kind: 'read', end: text.length };
    if (body.stopped === 'broken') {
      const closed = this.past(body.end, closes);
      return { kind: 'read', end: closed < 0 ? body.end : closed };
    }
    const after = this.skip(body.end);
    const closed = this.past(after, closes);
    if (closed >= 0) return { kind: 'read', end: closed };
    if (after < text.length) return this.unreadable(start, after, '', 'text after the call objects');
    if (sink.calls.length > calls) sink.recovered(fieldMessages.endMarkersMissing(grammar.id), calls);
    return { kind: 'read', end: text.length };
  }

  namedTagsContext(tool: ToolDef | undefined, closes: SearchList): NamedTagsContext {
    return {
      text: this.text,
      rule: this.grammar.values,
      token: this.grammar.tagToken,
      tool,
      skip: (at) => this.skip(at),
      endsArguments: (at) => matchListAt(this.text, at, closes) !== null || this.endsCall(at),
      problem: (key, expected) => {
        if (tool !== undefined) this.problem(fieldMessages.valueNotTyped(this.grammar.id, tool.name, key, expected));
      },
    };
  }

  unreadable(start: number, from: number, name: string, detail: string): CallRead {
    const next = this.resumeAfter(from);
    this.sink.fail(fieldMessages.badArguments(this.grammar.id, name, detail), start, next.end);
    return { kind: 'read', end: Math.max(next.end, from + 1) };
  }

  toolFor(name: string): ToolDef | undefined {
    const registry = this.scan.registry;
    if (registry === null) return undefined;
    const admission = this.sink.admit(name, registry, 'marked');
    return admission.ok ? registry.byName.get(admission.name) : undefined;
  }

  head(pos: number): { kind: 'none' } | { kind: 'eof'; named?: boolean } | { kind: 'name' | 'spaced'; name: string; end: number; unterminated?: boolean } {
    const { text, grammar } = this;
    const call = grammar.call;
    if (call.kind === 'tag') {
      const tag = readOpenTag(text, pos, this.needles.headTag!);
      if (tag === null) return { kind: 'none' };
      if (!tag.ok) return tag.eof ? { kind: 'eof' } : { kind: 'none' };
      return { kind: 'name', name: tag.name, end: tag.end, unterminated: tag.unterminated };
    }
    const opened = this.past(pos, this.needles.textOpen);
    if (opened < 0) return { kind: 'none' };
    // The name may stand on its own line (`<tool_call>\nget_weather\n<arg_key>…`, as SGLang's GLM reader takes it).
    const from = skipSpace(text, opened);
    if (from >= text.length) return { kind: 'eof' };
    let nameEnd = -1;
    // Indexed loops over vocabulary here and below (frozen arrays: see cursor.ts `matchAt`).
    for (let i = 0; i < call.nameEnd.length; i++) {
      const stop = call.nameEnd[i]!;
      const found = indexWithin(text, stop, from, FIELD_NAME_MAX);
      if (found >= 0 && (nameEnd < 0 || found < nameEnd)) nameEnd = found;
    }
    // A name is written glued to the opener or on its own line, as the templates write it: one
    // after a blank on the opener's line is a word of a sentence (`in <tool_call> and </tool_call> tags`).
    const ownPlace = from === opened || text.slice(opened, from).includes('\n');
    // Text cut inside or just after the name (`Sure.<tool_call>get_weather`) is a call cut off
    // (`<tool_call> tag.` is a sentence).
    if (nameEnd < 0) {
      if (text.length - from > FIELD_NAME_MAX) return { kind: 'none' };
      return { kind: 'eof', named: ownPlace && isCallName(text.slice(from).trim()) };
    }
    const name = text.slice(from, nameEnd).trim();
    if (!ownPlace) return { kind: 'none' };
    let end = nameEnd;
    const sep = this.past(skipSpace(text, end), this.needles.nameSep);
    if (sep >= 0) end = sep;
    if (isCallName(name)) return { kind: 'name', name, end };
    // Words glued to the opener with the grammar's first argument right after them
    // (`<tool_call>get weather<arg_key>…`): a call whose name is no tool name, never prose.
    const words = name.split(/[ \t]+/);
    const argOpen = this.needles.pairArgs === null ? NO_LITERALS : this.needles.argOpen;
    if (words.length > 1 && words.length <= 4 && words.every(isCallName) && matchListAt(text, this.skip(end), argOpen) !== null) return { kind: 'spaced', name, end };
    return { kind: 'none' };
  }

  /** After a text head: the body must open with an argument, the call close, a JSON body, the next call or the end. */
  bodyStartsAt(pos: number, closes: SearchList): boolean {
    const { text, grammar } = this;
    if (pos >= text.length) return true;
    if (matchListAt(text, pos, this.needles.argOpen) !== null || matchListAt(text, pos, closes) !== null) return true;
    if (this.needles.pairArgs !== null && text.startsWith(this.needles.pairArgs.valueClose, pos)) return true;
    if (grammar.jsonBody !== null && text.charCodeAt(pos) === 0x7b) return true;
    return grammar.callEndsAtNextOpen && matchListAt(text, pos, this.needles.callOpen) !== null;
  }

  jsonBody(
    pos: number,
  ): null | { kind: 'foreign' } | { kind: 'eof' } | { kind: 'bad'; error: string } | { kind: 'ok'; value: Record<string, unknown>; end: number } {
    const { text, grammar } = this;
    const body = grammar.jsonBody;
    if (body === null) return null;
    let at = -1;
    for (let i = 0; i < body.open.length; i++) {
      const open = body.open[i]!;
      if (open === '' ? text.charCodeAt(pos) === 0x7b : text.startsWith(open, pos)) {
        at = pos + open.length;
        break;
      }
    }
    if (at < 0) return null;
    const read = readJsonValueAt(text, at);
    if (!read.ok) return read.eof ? { kind: 'eof' } : { kind: 'bad', error: read.error };
    const value = read.value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'bad', error: 'the arguments are not a JSON object' };
    return { kind: 'ok', value: value as Record<string, unknown>, end: read.end };
  }

  /**
   * Where a value with no close of its own ends once a close the model garbled is taken off its
   * last line (`</parameter/>`, `</parameter1>`, `</parameterfunction>`, `</parameter` cut off:
   * Qwen3.5 and 3.6 write them, SGLang strips them): the line's start when it begins with the
   * close less its `>`, the garbled close's start when it is glued to the line's last word, else
   * `end`. Looks back over that one line only.
   */
  withoutBrokenClose(from: number, end: number): number {
    const { text } = this;
    let last = end - 1;
    while (last >= from && isJsonSpace(text.charCodeAt(last))) last--;
    let lineStart = last;
    while (lineStart > from && text.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
    const first = skipSpace(text, lineStart);
    if (first > last) return end;
    const closes = this.needles.valueClose;
    for (let i = 0; i < closes.length; i++) {
      const stem = closes[i]!.slice(0, -1);
      if (stem.length > 1 && text.startsWith(stem, first)) return lineStart;
    }
    // A close misspelled on its own line (`</parametr>`) or glued to the value's last word
    // (`Beijing</parameter`): a `</` run to the line's end, with no blank, that spells all but
    // the last three characters of a close (so HTML's `</param>` in a value is not one).
    // (Looked for backwards over at most 24 characters of the line: bounded work per value.)
    let tag = last - 1;
    while (tag >= first && last - tag < 24 && !(text.charCodeAt(tag) === 0x3c && text.charCodeAt(tag + 1) === 0x2f)) tag--;
    if (tag >= first && last - tag < 24) {
      for (let at = tag; at <= last; at++) if (isJsonSpace(text.charCodeAt(at))) return end;
      for (let i = 0; i < closes.length; i++) {
        const close = closes[i]!;
        if (close.length > 6 && text.startsWith(close.slice(0, close.length - 3), tag)) return tag === first ? lineStart : tag;
      }
    }
    return end;
  }

  /** Another record's argument open stands at `at` (`NamedTagArguments.foreignArgs`). */
  foreignArgumentAt(at: number): boolean {
    const named = this.needles.namedArgs;
    return named !== null && matchAt(this.text, at, named.foreignArgs) !== null;
  }

  /** An error beside the call being read. */
  problem(message: string): void {
    (this.#problems ??= []).push(message);
  }

  tags(pos: number, spec: TagArguments, tool: ToolDef | undefined): ArgsRead {
    const { text } = this;
    const args: Record<string, unknown> = {};
    const closes = this.needles.callClose;
    this.#tool = tool;
    this.#args = args;
    let at = pos;
    let inWrapper = false;
    let first = true;
    for (;;) {
      const here = this.skip(at);
      if (spec.wrapper !== null) {
        if (!inWrapper && text.startsWith(spec.wrapper.open, here)) {
          inWrapper = true;
          at = here + spec.wrapper.open.length;
          continue;
        }
        if (inWrapper && text.startsWith(spec.wrapper.close, here)) {
          inWrapper = false;
          at = here + spec.wrapper.close.length;
          continue;
        }
      }
      if (here >= text.length || matchListAt(text, here, closes) !== null) return { kind: 'ok', args, end: here };
      const tag = readOpenTag(text, here, this.needles.argTag!);
      if (tag === null) {
        if (this.endsCall(here)) return { kind: 'ok', args, end: here };
        return { kind: 'bad', at: here, first };
      }
      if (!tag.ok) return tag.eof ? EOF : { kind: 'bad', at: here, first };
      if (tag.unterminated) this.#unterminated = true;
      const value = this.valueEnd(tag.end, spec.closeOptional);
      if (value.kind === 'eof') return EOF;
      if (value.kind === 'unclosed') return { kind: 'bad', at: tag.end, first: false, detail: VALUE_UNCLOSED };
      const inband = this.inband(tag.attributes);
      const end = value.kind === 'open' ? this.withoutBrokenClose(tag.end, value.end) : value.end;
      // A header left without its `>` with nothing after it (`<parameter=unit⏎</function>`) gives
      // no argument (vLLM skips it): the repair is reported, the empty value not invented.
      if (tag.unterminated && value.kind === 'open' && isBlankText(text, tag.end, end)) {
        at = value.end;
        first = false;
        continue;
      }
      this.assign(args, tag.name, text.slice(tag.end, end), tool, inband);
      if (value.kind === 'open') (this.#unclosedKeys ??= []).push(tag.name);
      else if (value.kind === 'closed') this.noteDoubled(value, tag.name);
      at = value.kind === 'closed' ? value.next : value.end;
      first = false;
    }
  }

  pairs(pos: number, spec: PairArguments, tool: ToolDef | undefined): ArgsRead {
    const { text } = this;
    const args: Record<string, unknown> = {};
    const closes = this.needles.callClose;
    this.#tool = tool;
    this.#args = args;
    let at = pos;
    let first = true;
    for (;;) {
      const here = this.skip(at);
      if (here >= text.length || matchListAt(text, here, closes) !== null) return { kind: 'ok', args, end: here };
      if (first && !(this.#strayValueClose as boolean) && text.startsWith(spec.valueClose, here)) {
        this.#strayValueClose = true;
        at = here + spec.valueClose.length;
        continue;
      }
      if (!text.startsWith(spec.keyOpen, here)) {
        if (this.endsCall(here)) return { kind: 'ok', args, end: here };
        return { kind: 'bad', at: here, first };
      }
      const keyAt = here + spec.keyOpen.length;
      const keyEnd = indexWithin(text, spec.keyClose, keyAt, FIELD_NAME_MAX);
      if (keyEnd < 0) return text.length - keyAt <= FIELD_NAME_MAX + spec.keyClose.length ? EOF : { kind: 'bad', at: here, first };
      let key = text.slice(keyAt, keyEnd).trim();
      // The key's open written twice (`<arg_key><arg_key>path</arg_key>`, GLM-4.7; vLLM strips it).
      while (key.startsWith(spec.keyOpen)) key = key.slice(spec.keyOpen.length).trim();
      if (key !== '' && !isKeyName(key)) return { kind: 'bad', at: here, first: false, detail: KEY_UNREADABLE };
      let next = keyEnd + spec.keyClose.length;
      let inband: InbandType | null = null;
      if (spec.typeOpen !== null && spec.typeClose !== null) {
        const typeAt = skipSpace(text, next);
        if (text.startsWith(spec.typeOpen, typeAt)) {
          const typeFrom = typeAt + spec.typeOpen.length;
          const typeEnd = indexWithin(text, spec.typeClose, typeFrom, TYPE_NAME_MAX);
          if (typeEnd < 0) return text.length - typeFrom <= TYPE_NAME_MAX + spec.typeClose.length ? EOF : { kind: 'bad', at: here, first };
          inband = { form: 'type-name', value: text.slice(typeFrom, typeEnd) };
          next = typeEnd + spec.typeClose.length;
        }
      }
      let valueAt = next;
      if (spec.valueOpen !== '') {
        valueAt = this.skip(next);
        if (valueAt >= text.length) return EOF;
        if (!text.startsWith(spec.valueOpen, valueAt)) {
          if (spec.valueOpen.startsWith(text.slice(valueAt))) return EOF;
          // A key was read: the call is malformed here, not a head with no argument after it.
          return { kind: 'bad', at: valueAt, first, detail: VALUE_OPEN_MISSING };
        }
        valueAt += spec.valueOpen.length;
      }
      if (key === '') return { kind: 'bad', at: here, first };
      const value = this.valueEnd(valueAt, false);
      if (value.kind === 'eof') return EOF;
      if (value.kind !== 'closed') return { kind: 'bad', at: valueAt, first: false, detail: VALUE_UNCLOSED };
      this.assign(args, key, text.slice(valueAt, value.end), tool, inband);
      this.noteDoubled(value, key);
      at = value.next;
      first = false;
    }
  }

  /** A value whose close was written twice (`closedAgain`): the repeat is reported, never lost silently. */
  noteDoubled(value: Extract<ValueEnd, { kind: 'closed' }>, key: string): void {
    // perf: a close read once ends its value's reading right after it (most values), so no search.
    if (value.next - value.end <= this.needles.valueCloseMax) return;
    if (value.next !== this.past(value.end, this.needles.valueClose)) (this.#doubledKeys ??= []).push(key);
  }

  /**
   * Where the value starting at `from` ends, by what comes first after it:
   *
   *   - its own close ends it where what follows (past whitespace) is the next argument, a
   *     close, the next call or the end; a close followed by anything else is part of the value
   *     (`s = "</parameter>"` in code), and the first close is taken when no later one qualifies;
   *   - the next argument's open or the next call's, at the start of a line (where templates
   *     write them; mid-line they are text such as `Use <parameter=name> to set`), or a close of
   *     the call that stands as one, reached before any close: the value had none of its own.
   *     Where the grammar's close is optional the value ends there; elsewhere the call is
   *     malformed, never merged with what follows.
   *
   * Each look is bounded (a tag's header, the whitespace after a close), and each test depends
   * on the text at the candidate alone, so the scan memoises the answers: every candidate is
   * tested once per parse however many values (or regions) ask.
   */
  valueEnd(from: number, closeOptional: boolean): ValueEnd {
    const found = this.valueStop(from);
    if (found.kind === 'closed') return found;
    // A trial read gives up at the first value with no close of its own: the calls it tries must
    // be whole, and reading on through a run of such values would read each run once per value.
    if (this.trial) {
      this.failed = true;
      return UNCLOSED;
    }
    if (found.kind === 'stop') {
      const inner = found.boundary && this.opensCall(found.at);
      const through = inner ? this.throughInnerCalls(found.at) : null;
      if (through !== null) return through;
      // A boundary that ends the value only while no clean close of the value follows (`valueStop`):
      // a later close would make it the value's text.
      if (found.boundary) this.sink.runsOn = true;
      return closeOptional ? { kind: 'open', end: found.at } : UNCLOSED;
    }
    if (closeOptional || this.scan.earliest(this.needles.boundary, from) < 0) return VALUE_EOF;
    // No close and no stop yet: a close still to come would end the value, past this call's end.
    this.sink.runsOn = true;
    return UNCLOSED;
  }

  /** What `valueEnd` meets first after `from`: a close of the value, or a stop before any (`boundary`: a call boundary, not the next argument). */
  valueStop(from: number): Extract<ValueEnd, { kind: 'closed' }> | { readonly kind: 'stop'; readonly at: number; readonly boundary: boolean } | { readonly kind: 'none' } {
    const { scan, needles } = this;
    // perf: where every needle below starts with one character, none stands before that
    // character's first place, so a value whose first `<` begins a close that counts (a value
    // with no markup in it: most are) ends there, as the searches below would find.
    if (needles.lead !== '') {
      const first = this.text.indexOf(needles.lead, from);
      const next = first < 0 ? -1 : this.past(first, needles.valueClose);
      if (next >= 0) {
        // (`followsValue`, with the place after the blanks kept for the value-text test.)
        const after = this.skip(next);
        if (after >= this.text.length || matchListAt(this.text, after, needles.follow) !== null) {
          if (!this.isValueText(after)) return { kind: 'closed', end: first, next };
        } else {
          const again = this.closedAgain(next);
          if (again >= 0) return this.closedTwice(from, first, next, again);
        }
      }
    }
    let close = scan.earliestAccepted(needles.valueClose, 'real close', from, this);
    while (close >= 0 && this.closesBeforeValueText(close)) close = scan.earliestAccepted(needles.valueClose, 'real close', close + 1, this);
    // perf: with a real close ahead, only a stop before it matters, so the stops are looked for in
    // the value's own text; a sweep on to each grammar's next argument or boundary crossed every
    // other grammar's calls (the mixed-grammar row spent a third of its parse there).
    const arg = close >= 0 ? this.argumentBefore(from, close) : scan.earliestAccepted(needles.argOpen, 'next argument', from, this);
    const boundary = close >= 0 ? scan.acceptedBefore(needles.boundary, 'call boundary', from, close, this) : scan.earliestAccepted(needles.boundary, 'call boundary', from, this);
    const stop = arg < 0 ? boundary : boundary < 0 ? arg : Math.min(arg, boundary);
    // A call boundary before the real close, with no call of this grammar between them (a file
    // that holds another grammar's calls, `</tool_call>` and all): the value's text. Ending the
    // value there would read those calls as the model's and leave this call's closes stray.
    if (close >= 0 && (stop < 0 || close < stop || (arg < 0 && !this.callOpensBefore(stop, close)))) {
      const next = this.past(close, needles.valueClose);
      const again = this.closedAgain(next);
      return again >= 0 ? this.closedTwice(from, close, next, again) : { kind: 'closed', end: close, next };
    }
    const firstClose = scan.earliest(needles.valueClose, from);
    if (firstClose >= 0 && (stop < 0 || firstClose < stop)) {
      // No close here ends the value cleanly, so the first one does; a clean close later in the
      // text (a file that shows the grammar, its `</parameter>` to come) would end it there.
      if (!this.trial) this.sink.runsOn = true;
      return { kind: 'closed', end: firstClose, next: this.past(firstClose, needles.valueClose) };
    }
    return stop >= 0 ? { kind: 'stop', at: stop, boundary: stop === boundary } : NO_STOP;
  }

  /**
   * Whether a call of this grammar opens in `[from, to)`: its wrapping token (Step-3's), or its
   * opener with a head after it (GLM's `<tool_call>` opens one only with a tool's name after it,
   * not a Hermes JSON body).
   */
  callOpensBefore(from: number, to: number): boolean {
    for (let at = this.scan.earliest(this.needles.callOpen, from); at >= 0 && at < to; at = this.scan.earliest(this.needles.callOpen, at + 1)) {
      if (this.head(this.pastWrap(at)).kind !== 'none') return true;
    }
    return false;
  }

  /**
   * The first next-argument open in `[from, close)` that ends the value before its real close at
   * `close`: one that `isValueText` calls part of the value is skipped.
   */
  argumentBefore(from: number, close: number): number {
    const { scan, needles } = this;
    let at = scan.acceptedBefore(needles.argOpen, 'next argument', from, close, this);
    while (at >= 0 && this.isValueText(at)) at = scan.acceptedBefore(needles.argOpen, 'next argument', at + 1, close, this);
    return at;
  }

  /** Whether the value close at `close` is followed (past blanks) by an argument that `isValueText` calls part of the value. */
  closesBeforeValueText(close: number): boolean {
    const next = this.past(close, this.needles.valueClose);
    return next >= 0 && this.isValueText(this.skip(next));
  }

  /**
   * Whether an argument tag at `at` is text of the value being read, not the call's next
   * argument: the call's tool is known, the tag names no parameter of its schema or one the call
   * already gave, and what it opens does not read as an argument (its first close is followed by
   * more text, or none comes). A file that shows the grammar (`<parameter=city>` in the `content`
   * of `write_file`, as vLLM's reader filters by schema) keeps it; a parameter the model made up,
   * written whole, is still an argument.
   */
  isValueText(at: number): boolean {
    const tool = this.#tool;
    // perf: a close (`</function>`, what follows most values) opens no argument.
    if (tool === undefined || this.text.charCodeAt(at + 1) === 0x2f || tool.paramsByName.size === 0) return false;
    const arg = this.openedArgument(at);
    if (arg === null) return false;
    const given = this.#args !== null && Object.hasOwn(this.#args, arg.name);
    if (tool.paramsByName.has(arg.name) && !given) return false;
    const close = this.scan.earliest(this.needles.valueClose, arg.end);
    return close < 0 || !this.followsValue(this.past(close, this.needles.valueClose));
  }

  /**
   * The name an argument opening at `at` gives, and where its header ends: a tag's
   * (`<parameter=city>`), or a pair's key (GLM's `<arg_key>city</arg_key>`); null when none
   * reads there.
   */
  openedArgument(at: number): { readonly name: string; readonly end: number } | null {
    const { argTag, pairArgs } = this.needles;
    if (argTag !== null) {
      const tag = readOpenTag(this.text, at, argTag);
      return tag === null || !tag.ok ? null : { name: tag.name, end: tag.end };
    }
    if (pairArgs === null || !this.text.startsWith(pairArgs.keyOpen, at)) return null;
    const keyAt = at + pairArgs.keyOpen.length;
    const keyEnd = indexWithin(this.text, pairArgs.keyClose, keyAt, FIELD_NAME_MAX);
    return keyEnd < 0 ? null : { name: this.text.slice(keyAt, keyEnd).trim(), end: keyEnd + pairArgs.keyClose.length };
  }

  /**
   * A value that holds whole calls of its own grammar (a file that shows an example call, its
   * `</parameter>` included): where it ends when the calls from `stop` each read cleanly (all
   * their closes, no error) and a close of the value follows the last of them before anything
   * else that could end it. Null when not: the value ends at `stop`, as it would anyway. Trial
   * reads do not nest, report nothing and admit any name, and each call they read is one the
   * value takes or one read once more as a call, so the text is read at most twice.
   */
  throughInnerCalls(stop: number): ValueEnd | null {
    if (this.trial) return null;
    const sink = this.sink.trial();
    const inner = new Reader(this.scan, this.grammar, sink);
    inner.trial = true;
    for (let at = stop; ; ) {
      const calls = sink.calls.length;
      let end = inner.region(at);
      // An example may show a bare call where the grammar writes a section around it.
      if (end <= at && matchListAt(this.text, at, this.needles.callOpen) !== null) {
        const read = inner.call(at, false);
        end = read.kind === 'read' && !inner.failed ? read.end : -1;
      }
      if (inner.failed || end <= at || sink.calls.length === calls || sink.errors.length > 0 || sink.violations.length > 0) return null;
      const next = inner.valueStop(end);
      if (next.kind === 'closed') return next;
      if (next.kind !== 'stop' || !next.boundary || !this.opensCall(next.at)) return null;
      at = next.at;
    }
  }

  /** A call or a section of this grammar opens at `at` (not a close). */
  opensCall(at: number): boolean {
    return matchListAt(this.text, at, this.needles.callOpen) !== null || this.past(at, this.needles.sectionOpen) >= 0;
  }

  /** The candidate tests of `valueEnd`'s searches (see `CandidateTest`). */
  accepts(kind: ValueStop, at: number): boolean {
    if (kind === 'real close') {
      const next = this.past(at, this.needles.valueClose);
      return this.followsValue(next) || this.closedAgain(next) >= 0;
    }
    if (kind === 'next argument') return this.argumentAt(at, !atLineStart(this.text, at));
    return this.boundaryAt(at);
  }

  /**
   * A value from `from` whose close at `close` (ending at `next`) is written again (ending at
   * `again`). When the value opens an element the close names (`<parameter=unit>` in an
   * `old_string` that shows the grammar, vLLM #44060), the first close is that element's and
   * the second the value's own; otherwise the second is a repeat (`noteDoubled` reports it).
   */
  closedTwice(from: number, close: number, next: number, again: number): Extract<ValueEnd, { kind: 'closed' }> {
    if (this.opensElementBefore(from, close)) return { kind: 'closed', end: this.skip(next), next: again };
    return { kind: 'closed', end: close, next: again };
  }

  /** An open of an element the value closes name (`<parameter` then `>`, `=` or a blank) stands in `[from, to)`. */
  opensElementBefore(from: number, to: number): boolean {
    const { text } = this;
    // perf: the value's own characters are looked at, never the text past it (indexOf would run on).
    for (let at = from; at < to; at++) {
      if (text.charCodeAt(at) !== 0x3c) continue;
      for (const open of this.needles.valueElementOpen) {
        if (!text.startsWith(open, at)) continue;
        const code = text.charCodeAt(at + open.length);
        if (code === 0x3e || code === 0x3d || isJsonSpace(code)) return true;
      }
    }
    return false;
  }

  /**
   * Past a value's close written a second time at `at` (past whitespace), where what follows
   * that one follows a value (`</parameter>⏎</parameter>⏎<parameter=…`: Qwen3.6 doubles it);
   * -1 when there is none. A third close is the value's text again.
   */
  closedAgain(at: number): number {
    const again = this.past(this.skip(at), this.needles.valueClose);
    return again >= 0 && this.followsValue(again) ? again : -1;
  }

  /** After a value's close: the end, or (past whitespace) the next argument, a close or the next call. */
  followsValue(at: number): boolean {
    const pos = this.skip(at);
    return pos >= this.text.length || matchListAt(this.text, pos, this.needles.follow) !== null;
  }

  /**
   * A well-formed argument opens at `at` (or the text ends inside its head). `midLine`: `at`
   * is not a line's start, where only a pairs grammar's whole key-value header counts, its
   * value's open included (`<arg_key>unit</arg_key><arg_value>`: GLM-4.7 writes every argument
   * mid-line; a key alone there may be text, `Use <arg_key> for names`).
   */
  argumentAt(at: number, midLine: boolean): boolean {
    const { text } = this;
    const args = this.grammar.args;
    if (args.kind === 'tags') {
      if (midLine) return false;
      const tag = readOpenTag(text, at, this.needles.argTag!);
      return tag !== null && (tag.ok || tag.eof);
    }
    if (args.kind !== 'pairs' || (midLine && args.valueOpen === '')) return false;
    const keyAt = at + args.keyOpen.length;
    const keyEnd = indexWithin(text, args.keyClose, keyAt, FIELD_NAME_MAX);
    if (midLine) return keyEnd >= 0 && text.startsWith(args.valueOpen, skipSpace(text, keyEnd + args.keyClose.length)) && isKeyName(text.slice(keyAt, keyEnd).trim());
    if (keyEnd >= 0) return isKeyName(text.slice(keyAt, keyEnd).trim());
    if (text.length - keyAt > FIELD_NAME_MAX + args.keyClose.length) return false;
    // The text may end inside the key or its close: `<arg_key>ci`, `<arg_key>city</arg_`.
    const rest = text.slice(keyAt);
    const cut = rest.indexOf('<');
    return cut < 0 ? isKeyName(rest.trim()) : args.keyClose.startsWith(rest.slice(cut)) && isKeyName(rest.slice(0, cut).trim());
  }

  /**
   * A call boundary at `at` that stands as one: a call or section that opens at a line start
   * with a head that reads, or a close followed by the end or (past whitespace) more structure.
   * A close or opener written inside a value (`a </function> b`) is none, and so is a close
   * followed by prose: the value may as well have run on (and a stream could not tell the
   * prose from more of the value before it came).
   */
  boundaryAt(at: number): boolean {
    const { text, grammar, needles } = this;
    const sectionAt = this.past(at, needles.sectionOpen);
    if (sectionAt >= 0 || matchListAt(text, at, needles.callOpen) !== null) {
      if (!atLineStart(text, at)) return false;
      let pos = sectionAt >= 0 ? this.skip(sectionAt) : at;
      const wrapped = grammar.callWrap === null ? -1 : this.past(pos, needles.wrapOpen);
      if (wrapped >= 0) {
        pos = skipSpace(text, wrapped);
        const prefixed = this.past(pos, needles.wrapPrefix);
        if (prefixed >= 0) pos = skipSpace(text, prefixed);
      }
      return pos >= text.length || this.head(pos).kind !== 'none';
    }
    return this.followsValue(this.past(at, needles.boundary));
  }

  /** True at a point where the current call's text ends without its close: the next call, a wrap close, the section close. */
  endsCall(pos: number): boolean {
    const { text, needles } = this;
    return matchListAt(text, pos, needles.callOpen) !== null || matchListAt(text, pos, needles.wrapClose) !== null || matchListAt(text, pos, needles.sectionClose) !== null;
  }

  inband(attributes: ReadonlyMap<string, string>): InbandType | null {
    const attribute = this.grammar.values.typeAttribute;
    if (attribute === null) return null;
    const value = attributes.get(attribute.name);
    return value === undefined ? null : { form: attribute.form, value };
  }

  assign(args: Record<string, unknown>, key: string, raw: string, tool: ToolDef | undefined, inband: InbandType | null): void {
    const token = this.grammar.tagToken;
    let value = raw;
    if (token !== null) {
      const trimmed = value.trimEnd();
      if (trimmed.endsWith(token)) value = trimmed.slice(0, trimmed.length - token.length);
    }
    const param = tool?.paramsByName.get(key);
    const typed = typeBySchema(value, this.grammar.values, param?.schema ?? null, inband, tool?.schema ?? null);
    if (typed.expected !== null && tool !== undefined) this.problem(fieldMessages.valueNotTyped(this.grammar.id, tool.name, key, typed.expected));
    // A declared key is stored under the registry's spelling of it (the same text, interned by
    // the engine; perf: a key cut from the text costs a string-table look-up at each store).
    const stored = param?.name ?? key;
    // Written twice: the last value stands (as in JSON), and the error says the first was lost.
    if (Object.hasOwn(args, stored)) this.problem(fieldMessages.argumentRepeated(this.grammar.id, tool?.name ?? null, stored));
    setOwn(args, stored, typed.value);
  }
}

type ArgsRead =
  | { readonly kind: 'ok'; readonly args: Record<string, unknown>; readonly end: number }
  | { readonly kind: 'eof' }
  /** `first`: nothing was read before `at` (the body is not this grammar's); `detail` says what went wrong, when known. */
  | { readonly kind: 'bad'; readonly at: number; readonly first: boolean; readonly detail?: string };

const VALUE_UNCLOSED = 'an argument value has no close of its own before the call ends';
const VALUE_OPEN_MISSING = "an argument's key is not followed by its value's open";
const KEY_UNREADABLE = "an argument's key holds markup or quotes";

const EOF: ArgsRead = { kind: 'eof' };

/** Whether `text` holds only whitespace in `[from, to)`. */
function isBlankText(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isJsonSpace(text.charCodeAt(i))) return false;
  return true;
}

/** The letter of an escape that stands for whitespace between a grammar's tags: `n`, `r` or `t` (`\n`, `\r`, `\t`). */
function isEscapedSpace(code: number): boolean {
  return code === 0x6e || code === 0x72 || code === 0x74;
}

/**
 * A tool name written as plain text: no whitespace, quotes, brackets or call punctuation, in
 * ASCII or as Chinese and Japanese write it (`，`, `。`, `「`, curly quotes: a sentence glued to
 * the opener, as those scripts write words, names no tool).
 */
function isCallName(name: string): boolean {
  if (name === '' || name.length > FIELD_NAME_MAX) return false;
  // Stops alone (`<tool_call>.` ending a sentence) name nothing: a name holds a word character.
  let word = false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code <= 0x20 || '"\'<>{}()[],;='.includes(name[i]!) || isWidePunctuation(code)) return false;
    if (!word) word = code > 0x7f || code === 0x5f || (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  }
  return word;
}

/**
 * The arguments inside a wrapper parameter (`<param name="arguments">{…}</param>`), when that is
 * all the call holds; else `args`. With a registry the tool must not declare the wrapper's name
 * and must declare every key inside it (`input` holding `{"path": …}` for a tool of `path`);
 * with none, only `arguments` (the JSON calls' own key) is taken for a wrapper.
 */
function unwrapArguments(args: Record<string, unknown>, spec: TagArguments, tool: ToolDef | undefined): Record<string, unknown> {
  if (spec.wrapperKeys.length === 0) return args;
  const keys = Object.keys(args);
  const key = keys[0];
  if (keys.length !== 1 || key === undefined || !spec.wrapperKeys.includes(key) || tool?.paramsByName.has(key) === true) return args;
  if (tool === undefined && key !== 'arguments') return args;
  const value = args[key];
  const inner = typeof value === 'string' ? typeRawValue(value, OBJECT_SCHEMA).value : value;
  if (!isPlainRecord(inner)) return args;
  if (tool !== undefined && tool.paramsByName.size > 0 && Object.keys(inner).some((k) => !tool.paramsByName.has(k))) return args;
  return inner;
}

const OBJECT_SCHEMA = { type: 'object' } as const;

/** How far back a line start is looked for past indentation. */
const INDENT_MAX = 16;

/** `at` starts a line, or follows only indentation on it (looking back at most `INDENT_MAX`). */
function atLineStart(text: string, at: number): boolean {
  for (let pos = at - 1; pos >= 0 && pos >= at - INDENT_MAX; pos--) {
    const code = text.charCodeAt(pos);
    if (code === 0x0a || code === 0x0d) return true;
    if (code !== 0x20 && code !== 0x09) return false;
  }
  return at === 0;
}

/** An argument key as a pair grammar writes one (`city`, `max-results`): one line, no markup or quotes. */
function isKeyName(key: string): boolean {
  if (key === '' || key.length > FIELD_NAME_MAX) return false;
  for (let i = 0; i < key.length; i++) if ('<>"\'{}\n\r'.includes(key[i]!)) return false;
  return true;
}

/** Region end, or -1 when the text at `at` is not this grammar. */
export function readParamMarkup(scan: FieldScan, at: number, grammar: ParamMarkupGrammar, sink: RegionSink): number {
  const filled = grammar.suffixed ? withSuffix(scan, at, grammar) : grammar;
  if (filled === null) return -1;
  return new Reader(scan, filled, sink).region(at);
}

/** Whether a blank stands just before `at`, with a word before it on its line. */
function afterWordAndBlank(text: string, at: number): boolean {
  let i = at - 1;
  if (text.charCodeAt(i) !== 0x20 && text.charCodeAt(i) !== 0x09) return false;
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  return i >= 0 && text.charCodeAt(i) !== 0x0a;
}

/** A parameter that `tool` requires is not among `args` (no tool, or none required: false). */
function lacksRequired(tool: ToolDef | undefined, args: Record<string, unknown>): boolean {
  if (tool === undefined) return false;
  for (const param of tool.params) if (param.required && !Object.hasOwn(args, param.name)) return true;
  return false;
}

/** General punctuation (dashes, curly quotes, zero-width spaces), CJK punctuation and fullwidth ASCII punctuation. */
function isWidePunctuation(code: number): boolean {
  if (code < 0x2000) return false;
  return code <= 0x206f || (code >= 0x3000 && code <= 0x303f) || (code >= 0xff01 && code <= 0xff0f) || (code >= 0xff1a && code <= 0xff20) || (code >= 0xff3b && code <= 0xff40) || (code >= 0xff5b && code <= 0xff65);
}
