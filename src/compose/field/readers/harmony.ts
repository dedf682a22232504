/**
 * The `harmony` reader: consecutive Harmony messages (gpt-oss, LLM-jp), one region.
 *
 *     <|start|>assistant<|channel|>analysis<|message|>Let me look.<|end|>
 *     <|start|>assistant<|channel|>commentary to=functions.look <|constrain|>json<|message|>{"path":"a.rs"}<|call|>
 *     ^ header: role, channel, recipient and constraint, in any order the template allows  ^ body ^ end
 *
 * What a message becomes:
 *   - with a tool recipient (`to=functions.NAME`, `to=browser.search`, `to=python`): a call; its
 *     body is JSON, or, for a tool of one parameter, the raw text (the `python` tool's code);
 *   - in a reasoning channel (`analysis`) with no recipient: a `reasoning` drop, neither prose
 *     nor a call (reasoning is returned on the ledger until the result carries it apart);
 *   - in a visible channel (`commentary` preamble, `final` answer): prose as written, without
 *     markers, up to the message's end: JSON in it is text (the region ends at the body, which
 *     the lane reads as an answer body, `FieldRegion.verbatimBody`);
 *   - with no channel named (a lone `<|message|>`): the region ends at the body, which the text
 *     around it reads (prose, or calls of other grammars).
 *
 * Recovery rungs, none of which throws:
 *   1. complete JSON arguments with no end marker (end of text, or the next message): a call,
 *      with `recovered_dialect`;
 *   2. arguments cut off by the end of the text: `TOOL CALL TRUNCATED:` and a drop;
 *   3. arguments that do not read: a parse error and a drop to the message's end;
 *   4. a special token with no readable header after it: stepped over as a marker.
 * A response that begins mid-header (`commentary to=functions.f json<|message|>…`) is read only
 * when the header is all header words up to `<|message|>`; anything else is not this grammar.
 */
import type { HarmonyGrammar } from '../../../dialects/field/index.js';
import { HARMONY_BODY_STOPS } from '../../../dialects/field/harmony.js';
import { HARMONY_FOREIGN_STARTS } from '../../../dialects/field/turn-end.js';
import { Code } from '../../../lex/codes.js';
import { isPlainRecord, setOwn } from '../../../lex/json-object.js';
import { readJsonValueAt } from '../../../lex/json-stream.js';
import { atEnd, indexWithin, matchAt, skipSpace } from '../cursor.js';
import { fieldMessages } from '../messages.js';
import { isConstraintWord, withoutGluedConstraint } from '../harmony-recipient.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';

/** `readMessage`'s answer for a message of another grammar: the region ends before it. */
const NOT_HARMONY = -2;

/** The longest header (role, channel, recipient, constraint) read before `<|message|>`. */
const HEADER_MAX = 512;

interface Vocabulary {
  /** Where a message body stops: an end marker or the next message. */
  readonly bodyStops: readonly string[];
  readonly headerMarkers: readonly string[];
  readonly messageStarts: readonly string[];
  /** The foreign turns that begin with a message's start (perf: the few a message is compared with). */
  readonly foreignStarts: readonly string[];
}

const vocabularies = new WeakMap<HarmonyGrammar, Vocabulary>();

function vocabulary(grammar: HarmonyGrammar): Vocabulary {
  let found = vocabularies.get(grammar);
  if (found === undefined) {
    found = {
      bodyStops: HARMONY_BODY_STOPS,
      headerMarkers: [grammar.start, grammar.channel, grammar.constrain],
      messageStarts: [grammar.start, grammar.channel, grammar.message],
      foreignStarts: HARMONY_FOREIGN_STARTS,
    };
    vocabularies.set(grammar, found);
  }
  return found;
}

interface Header {
  readonly channel: string;
  readonly recipient: string;
  /** The author after `<|start|>` (`assistant`, `user`, `functions.look`); '' when none is written. */
  readonly role: string;
}

export function readHarmony(scan: FieldScan, at: number, grammar: HarmonyGrammar, sink: RegionSink): number {
  const text = scan.text;
  const words = vocabulary(grammar);
  let pos = at;
  let read = false;
  for (;;) {
    pos = skipSpace(text, pos);
    if (pos >= text.length) return read ? pos : -1;
    const end = matchAt(text, pos, grammar.ends);
    if (end !== null) {
      pos += end.length;
      read = true;
      continue;
    }
    const marker = matchAt(text, pos, words.messageStarts);
    const midHeader = read || marker !== null ? undefined : grammar.midHeaderOpeners.find((o) => text.startsWith(o.text, pos));
    if (marker === null && midHeader === undefined) return read ? pos : -1;
    const next = readMessage(scan, pos, grammar, sink, midHeader?.channel ?? null);
    if (next === NOT_HARMONY) return read ? pos : -1;
    // A visible message's body is prose as written: the region ends at it, and the lane reads
    // it as an answer's body up to the message's end (no call is read in it: a call is a
    // message with a recipient).
    if (next !== null && typeof next === 'object') {
      // A body with no channel named (a lone `<|message|>`) is not known to be one: the text around reads it.
      if (grammar.visibleChannels.includes(next.channel)) sink.bodyEnds = words.bodyStops;
      return next.visibleAt;
    }
    if (next < 0) {
      if (marker === null) return read ? pos : -1;
      // A message by another author whose header did not read (a made-up result in no header form).
      if (marker === grammar.start && matchAt(text, pos, words.foreignStarts) !== null) return read ? pos : -1;
      // rung 4: a token with no header after it carries no content.
      pos += marker.length;
    } else {
      pos = next;
    }
    read = true;
  }
}

/**
 * One message from its header at `pos`: where the text after it starts; `{visibleAt, channel}`
 * when its body is visible text that the region hands back; -1 when no readable header reaches
 * `<|message|>`.
 */
function readMessage(scan: FieldScan, pos: number, grammar: HarmonyGrammar, sink: RegionSink, midChannel: string | null): number | { readonly visibleAt: number; readonly channel: string } {
  const text = scan.text;
  const messageAt = indexWithin(text, grammar.message, pos, HEADER_MAX);
  const headerEnd = messageAt < 0 ? (text.length - pos <= HEADER_MAX ? text.length : -1) : messageAt;
  if (headerEnd < 0) return -1;
  // A mid-header opener begins with its channel word, already taken.
  const headerText = text.slice(pos + (midChannel?.length ?? 0), headerEnd);
  const header = readHeader(headerText, grammar, midChannel);
  if (header === null) {
    const restart = strayHeaderEnd(headerText, grammar, midChannel);
    if (restart <= 0) return -1;
    // A header abandoned for another (`<|channel|>commentary to=assistant<|channel|>analysis…`):
    // its words are no content, and the message reads from the header that follows.
    const restartAt = pos + (midChannel?.length ?? 0) + restart;
    const leading = matchAt(text, pos, vocabulary(grammar).headerMarkers);
    sink.drop(pos + (leading?.length ?? 0), restartAt, 'salvaged_as_prose');
    return restartAt;
  }
  // A message by another author (a tool's result, the user) ends the chain: the lane reads it
  // as a foreign turn.
  if (header.role !== '' && header.role !== 'assistant' && matchAt(text, pos, vocabulary(grammar).foreignStarts) !== null) return NOT_HARMONY;
  const named = header.recipient !== '' && !grammar.personRecipients.includes(header.recipient) ? header.recipient : '';
  // `to=functions.shelljson<|message|>`: the constraint run into the name.
  const recipient = named === '' ? '' : withoutGluedConstraint(named, scan.registry, false);
  // A Harmony message always names its channel: a whole header with a recipient and no channel
  // (`<|start|>assistant to=R<|message|>`) is Muse Glimmer's, left to its reader.
  if (midChannel === null && header.channel === '' && header.recipient !== '' && messageAt >= 0) return NOT_HARMONY;
  if (messageAt < 0) {
    // The text ended inside a header.
    if (recipient === '') {
      if (midChannel !== null) return -1;
      // A reasoning header cut off is markers only; any other header held visible text to come.
      if (!grammar.reasoningChannels.includes(header.channel)) sink.drop(pos, text.length, 'unparsed_call_block');
    } else {
      sink.fail(fieldMessages.truncated(grammar.id, sink.shownName(recipient)), pos, text.length);
    }
    return text.length;
  }
  const bodyAt = messageAt + grammar.message.length;
  if (recipient !== '') return readCallBody(scan, pos, bodyAt, recipient, grammar, sink);
  const stop = scan.earliest(vocabulary(grammar).bodyStops, bodyAt);
  const bodyEnd = stop < 0 ? text.length : stop;
  if (!grammar.reasoningChannels.includes(header.channel)) return { visibleAt: bodyAt, channel: header.channel };
  sink.reasoningSpan(bodyAt, bodyEnd);
  const end = matchAt(text, bodyEnd, grammar.ends);
  return end === null ? bodyEnd : bodyEnd + end.length;
}

/**
 * The words of a header: role, channel, recipient (`to=…`) and constraint, split at the header
 * tokens. Null when a word is none of these (two channels, two recipients, a stray token): then
 * the text is not a header.
 */
function readHeader(header: string, grammar: HarmonyGrammar, midChannel: string | null): Header | null {
  const markers = vocabulary(grammar).headerMarkers;
  let channel = midChannel ?? '';
  let recipient = '';
  let role = '';
  // Which header token the words follow, and whether its one leading word (role, channel or
  // constraint) is still to come. A mid-header start already had its leading word.
  let mode = midChannel === '' ? grammar.start : grammar.channel;
  let leading = midChannel === null;
  let constraint = false;
  // A channel named a second time, after the recipient (`to=functions.f<|channel|>commentary`,
  // as lmdeploy's gpt-oss tests show it): the same channel again is no second channel.
  let repeated: string | null = null;
  let segment = 0;
  const takeWords = (to: number): boolean => {
    for (const word of header.slice(segment, to).split(/\s+/)) {
      if (word === '') continue;
      if (word.includes('<|')) return false;
      if (word.startsWith(grammar.recipientPrefix)) {
        if (recipient !== '' || word.length === grammar.recipientPrefix.length) return false;
        recipient = word.slice(grammar.recipientPrefix.length);
        continue;
      }
      if (leading) {
        if (mode === grammar.start) role = word;
        if (mode === grammar.channel && repeated !== null) {
          if (word !== repeated) return false;
        } else if (mode === grammar.channel) channel = word;
        else if (mode === grammar.constrain) constraint = true;
        leading = false;
      } else if (mode === grammar.channel && !constraint && isConstraintWord(word)) {
        constraint = true; // a bare `json` after the channel (not JSON glued to it: no header)
      } else {
        return false;
      }
    }
    return true;
  };
  for (let i = 0; i < header.length; i++) {
    if (header.charCodeAt(i) !== 0x3c) continue; // '<'
    const marker = matchAt(header, i, markers);
    if (marker === null) continue;
    if (!takeWords(i)) return null;
    if (marker === grammar.channel && channel !== '') {
      if (repeated !== null || recipient === '') return null;
      repeated = channel;
    } else if (marker === grammar.constrain && constraint) return null;
    mode = marker;
    leading = true;
    segment = i + marker.length;
    i = segment - 1;
  }
  if (!takeWords(header.length)) return null;
  return { channel, recipient, role };
}

/**
 * Where a header that does not read restarts: the offset of its last `<|start|>` or
 * `<|channel|>` when the words before it are a whole header and the rest reads as one; else -1.
 * The header is at most `HEADER_MAX` long, so the retries are bounded.
 */
function strayHeaderEnd(header: string, grammar: HarmonyGrammar, midChannel: string | null): number {
  const restart = Math.max(header.lastIndexOf(grammar.start), header.lastIndexOf(grammar.channel));
  if (restart <= 0) return -1;
  if (readHeader(header.slice(0, restart), grammar, midChannel) === null) return -1;
  return readHeader(header.slice(restart), grammar, null) === null ? -1 : restart;
}

function readCallBody(scan: FieldScan, start: number, bodyAt: number, recipient: string, grammar: HarmonyGrammar, sink: RegionSink): number {
  const text = scan.text;
  const stops = vocabulary(grammar).bodyStops;
  const raw = rawParameter(scan, recipient, grammar);
  const value = readJsonValueAt(text, bodyAt);
  // A tool that takes its body raw (the `python` tool's code) reads JSON only as an object.
  const json = value.ok && (raw === null || isPlainRecord(value.value));
  if (json) {
    const after = skipSpace(text, value.end);
    const end = matchAt(text, after, grammar.ends);
    if (end !== null) {
      sink.call({ name: recipient, arguments: value.value, start, end: after + end.length });
      return after + end.length;
    }
    // rung 1: the end marker is missing (end of text, or the next message follows).
    if (atEnd(text, after) || matchAt(text, after, stops) !== null) {
      sink.call({ name: recipient, arguments: value.value, start, end: value.end, unclosed: true });
      return value.end;
    }
  } else if (!value.ok && value.eof && (raw === null || text.charCodeAt(skipSpace(text, bodyAt)) === Code.LeftBrace)) {
    sink.fail(fieldMessages.truncated(grammar.id, sink.shownName(recipient)), start, text.length);
    return text.length;
  }
  // After JSON that read, a stop is looked for past it: one quoted inside its strings
  // (`"echo '<|start|>assistant…'"`) ends nothing.
  const stop = scan.earliest(stops, json ? value.end : bodyAt);
  const bodyEnd = stop < 0 ? text.length : stop;
  const end = matchAt(text, bodyEnd, grammar.ends);
  const regionEnd = end === null ? bodyEnd : bodyEnd + end.length;
  const body = text.slice(bodyAt, bodyEnd).trim();
  if (body === '' && stop >= 0) {
    // A tool called with no arguments: an empty body before its end (vLLM returns `{}`).
    sink.call({ name: recipient, arguments: {}, start, end: regionEnd, unclosed: end === null });
    return regionEnd;
  }
  if (!json && raw !== null && body !== '') {
    // The raw body is the argument; code has no end of its own to miss, so one cut by the end
    // of the text is read as it stands, with `recovered_dialect`.
    const args: Record<string, unknown> = {};
    setOwn(args, raw, body);
    sink.call({ name: recipient, arguments: args, start, end: regionEnd, unclosed: end === null });
    return regionEnd;
  }
  if (body === '') {
    sink.fail(fieldMessages.truncated(grammar.id, sink.shownName(recipient)), start, text.length);
    return text.length;
  }
  if (!sink.refusedName(recipient, start, regionEnd)) sink.fail(fieldMessages.badArguments(grammar.id, sink.shownName(recipient), value.ok ? 'text after the JSON arguments' : value.error), start, regionEnd);
  return regionEnd;
}

/**
 * The parameter a raw (non-JSON) body stands for: the one parameter of a one-parameter tool,
 * or a code recipient's parameter when its tool declares none (names-only, or no registry).
 */
function rawParameter(scan: FieldScan, recipient: string, grammar: HarmonyGrammar): string | null {
  const tool = scan.registry?.byName.get(recipient);
  if (tool !== undefined && tool.params.length === 1) return tool.params[0]!.name;
  if (tool === undefined && scan.registry !== null) return null;
  if (tool !== undefined && tool.params.length > 0) return null;
  return grammar.codeRecipients.find((code) => code.recipient === recipient)?.parameter ?? null;
}
