/**
 * Merging partial lane results (docs/design.md, "Envelopes" and "Entry ladder"). Both render the
 * canonical text as call blocks only, one newline apart, and join prose with one newline.
 */
import type { DroppedFragment, LaneResult, ProtocolViolation, ToolCall } from '../types.js';
import { appendAll, callBlocks, joinNonEmpty } from './result.js';
import type { EnvelopeMatch, NextEnvelope, RemainderLane } from './types.js';

/**
 * An envelope's result with the text before and after it parsed by the caller's lane (the
 * tagged lane, or the JSON lane without heredoc recovery). Calls and errors keep document
 * order; the envelope's own violations come first.
 */
export function mergeEnvelopeRemainder(envelope: EnvelopeMatch, parseRemainder: RemainderLane): LaneResult {
  return mergeEnvelopeChain(envelope, () => null, parseRemainder);
}

/**
 * `mergeEnvelopeRemainder` over a run of envelopes, read in a loop instead of by recursion:
 *
 *   lead0 <E1> gap1 <E2> gap2 ... <Ek> tail
 *
 * is what the recursive merge of E1 with lane(gap1 <E2> ...) yields, when `takeNext` answers
 * for each trailing remainder whether the lane would take an envelope there. Each leading
 * remainder holds no envelope opener, so `parseRemainder` never re-enters a chain; only the
 * final tail goes to the lane whole. Thousands of envelopes cost no stack and no rescans.
 */
export function mergeEnvelopeChain(first: EnvelopeMatch, takeNext: NextEnvelope, parseRemainder: RemainderLane): LaneResult {
  const levels: { own: LaneResult; before: LaneResult | null }[] = [];
  let after: LaneResult | null = null;
  for (let envelope: EnvelopeMatch | null = first; envelope !== null; ) {
    const leading = envelope.prose.trim();
    const trailing = (envelope.trailing ?? '').trim();
    levels.push({ own: envelope.result, before: leading === '' ? null : parseRemainder(leading) });
    if (trailing === '') break;
    envelope = takeNext(trailing);
    if (envelope === null) after = parseRemainder(trailing);
  }
  const only = levels[0];
  if (levels.length === 1 && only !== undefined && only.before === null && after === null) return only.own;

  const calls: ToolCall[] = [];
  const errors: string[] = [];
  const violations: ProtocolViolation[] = [];
  const dropped: DroppedFragment[] = [];
  const prose: string[] = [];
  const take = (part: LaneResult): void => {
    appendAll(calls, part.calls);
    appendAll(errors, part.tool_parse_errors);
    appendAll(dropped, part.dropped);
  };
  for (const { own, before } of levels) {
    appendAll(violations, own.protocol_violations);
    if (before !== null) {
      take(before);
      appendAll(violations, before.protocol_violations);
      prose.push(before.prose);
    }
    take(own);
  }
  if (after !== null) {
    take(after);
    appendAll(violations, after.protocol_violations);
    prose.push(after.prose);
  }
  return {
    ...first.result,
    calls,
    tool_parse_errors: errors,
    protocol_violations: violations,
    dropped,
    prose: joinNonEmpty(prose),
    canonical_text: callBlocks(calls),
  };
}

/** `join(head, tail)`: a turn split at an alternate envelope opener, read half by half. */
export function joinHalves(head: LaneResult, tail: LaneResult): LaneResult {
  const calls = [...head.calls, ...tail.calls];
  return {
    ...head,
    calls,
    tool_parse_errors: [...head.tool_parse_errors, ...tail.tool_parse_errors],
    protocol_violations: [...head.protocol_violations, ...tail.protocol_violations],
    dropped: [...head.dropped, ...tail.dropped],
    prose: joinNonEmpty([head.prose, tail.prose]),
    canonical_text: callBlocks(calls),
  };
}
