/**
 * The JSON lane (docs/design.md, "JSON lane"): what `tool_format: "json"` parses with.
 *
 *   text --envelope?--> envelope result (+ remainders read by this lane)
 *        --<tool_call> markup? (pinned only)--> tagged lane result
 *        --fence chunker--> bodies --JSON stream + json_call (+ verbatim binding)--> calls
 *
 * No registry check: calls are dispatched as read and dispatch owns refusal. A turn that made
 * no call and no error is recorded whole as an `unparsed_fenced_turn` drop.
 */
import { TAG_LITERALS } from '../../dialects/vocabulary.js';
import { readJsonStream } from '../../lex/json-stream.js';
import { callFromBody } from '../ladders/body.js';
import type { CallMarks } from '../call-provenance.js';
import type { ComposeContext } from '../context.js';
import { sniffBare } from '../stray.js';
import type { DroppedFragment, LaneResult, ProtocolViolation, ToolCall } from '../types.js';
import { EnvelopeOpeners, readEnvelope, readEnvelopeAt } from './envelope.js';
import { headOf } from './excerpt.js';
import { jsonChunks } from './fence-chunker.js';
import { jsonCall } from './json-call.js';
import { mergeEnvelopeChain } from './merge.js';
import { laneMessages, laneMessagesFor } from './messages.js';
import { appendAll, callBlocks, emptyLane, violation } from './result.js';
import type { BodyLadder, JsonLaneOptions, TextLane } from './types.js';
import { bindVerbatim, hasVerbatimDeclaration } from './verbatim-binding.js';

const TAGGED_OPENER = TAG_LITERALS.tool_call_open;

/** The tagged body ladder, for envelope bodies that are not JSON (`<tool_use>run({...})</tool_use>`). */
const bodyLadder: BodyLadder = (body, c) => callFromBody(body, c);

export function jsonLane(text: string, ctx: ComposeContext, opts: JsonLaneOptions = {}): LaneResult {
  const envelopes = envelopeChainOf(text, ctx);
  if (envelopes !== null) return envelopes;

  if (opts.taggedLane && text.includes(TAGGED_OPENER)) return taggedMarkupOnJsonPin(text, ctx, opts.taggedLane);

  const chunks = jsonChunks(text, ctx.profile);
  const calls: ToolCall[] = [];
  const errors: string[] = [];
  for (const body of chunks.bodies) readFenceBody(body, calls, errors, ctx.marks);

  const violations: ProtocolViolation[] = [...chunks.violations];
  const dropped: DroppedFragment[] = [];
  if (calls.length === 0 && errors.length === 0 && chunks.prose !== '') {
    dropped.push({ text: chunks.prose, reason: 'unparsed_fenced_turn' });
    // Reported, not run: sibling recovery may still run them through the tagged lane.
    if (ctx.registry !== null) {
      for (const call of sniffBare(chunks.prose, ctx).calls) {
        violations.push(violation('wrong_tool_format', laneMessagesFor(ctx.profile).bareCallOnJsonPin(call.name)));
      }
    }
  }
  return {
    ...emptyLane(),
    calls,
    tool_parse_errors: errors,
    protocol_violations: violations,
    canonical_text: callBlocks(calls),
    prose: chunks.prose,
    dropped,
  };
}

/**
 * Step 1: chat-template envelopes. A malformed first envelope runs nothing and keeps the whole
 * text as prose; otherwise every envelope of the run is read in one loop over offsets.
 */
function envelopeChainOf(text: string, ctx: ComposeContext): LaneResult | null {
  const openers = new EnvelopeOpeners(text);
  const first = readEnvelopeAt(text, 0, ctx, bodyLadder, openers);
  if (first === null) return null;
  if (first.malformed) return { ...first.result, prose: text.trim() };
  // Every trailing remainder is a suffix of the text without its final whitespace.
  const end = text.trimEnd().length;
  const takeNext = (trailing: string) => {
    const start = end - trailing.length;
    const next = text.startsWith(trailing.slice(0, 16), start)
      ? readEnvelopeAt(text, start, ctx, bodyLadder, openers)
      : readEnvelope(trailing, ctx, bodyLadder);
    return next !== null && !next.malformed ? next : null;
  };
  return mergeEnvelopeChain(first, takeNext, (rest) => jsonLane(rest, ctx));
}

/**
 * `<tool_call>` markup while JSON was taught: accept what the tagged lane recovers, else report
 * the markup. The port records the unread text as a drop (the reference kept no record).
 */
function taggedMarkupOnJsonPin(text: string, ctx: ComposeContext, taggedLane: TextLane): LaneResult {
  const tagged = taggedLane(text, ctx);
  if (tagged.calls.length > 0) {
    return { ...tagged, protocol_violations: [...tagged.protocol_violations, ctx.marks.describing(violation('recovered_dialect', laneMessagesFor(ctx.profile).taggedOnJsonRecovered), tagged.calls)] };
  }
  const prose = text.trim();
  return {
    ...emptyLane(),
    prose,
    protocol_violations: [violation('wrong_tool_format', laneMessagesFor(ctx.profile).taggedOnJsonLost)],
    dropped: prose === '' ? [] : [{ text: prose, reason: 'unparsed_fenced_turn' }],
  };
}

/**
 * One tool-fence body: its JSON values become calls, trailing verbatim bodies bind to their
 * declarations, and at most one stream diagnostic is added.
 */
function readFenceBody(body: string, calls: ToolCall[], errors: string[], marks: CallMarks): void {
  const source = body.trim();
  const stream = readJsonStream(source);
  let bodyCalls: ToolCall[] = [];
  for (const { value, start, end } of stream.values) {
    const outcome = jsonCall(value, false);
    if (outcome.ok) bodyCalls.push(marks.writtenAs(outcome.call, source.slice(start, end)));
    else errors.push(outcome.error);
  }
  const trailing = source.slice(stream.end).trim();
  const trailsHeredoc = trailing.startsWith('<<');
  if (bodyCalls.length > 0 && (trailsHeredoc || hasVerbatimDeclaration(bodyCalls))) {
    const bound = bindVerbatim(bodyCalls, trailing);
    if (bound.ok) {
      // A bound call's text runs on into its verbatim body: a lone call is the whole body.
      if (bound.calls.length === 1) marks.writtenEach(bound.calls, [source]);
      else marks.writtenEach(bound.calls, bodyCalls.map((call) => marks.writtenText(call) ?? ''));
      bodyCalls = bound.calls;
    } else {
      bodyCalls = [];
      errors.push(laneMessages.jsonError(bound.detail));
    }
  }
  appendAll(calls, bodyCalls);

  const near = headOf(source, 80);
  if (stream.values.length === 0) {
    errors.push(stream.eof ? laneMessages.unterminated : laneMessages.jsonError(laneMessages.near(stream.error ?? laneMessages.noObject, near)));
  } else if (stream.error !== undefined && !trailsHeredoc) {
    errors.push(laneMessages.jsonError(laneMessages.near(stream.error, near)));
  } else if (stream.eof) {
    errors.push(laneMessages.unterminated);
  }
}
