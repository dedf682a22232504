/**
 * Merging partial lane results (spec/composer.md sections 4.7.5 and 4.7.6). Both render the
 * canonical text as call blocks only, one newline apart, and join prose with one newline.
 */
import type { LaneResult } from '../types.js';
import { callBlocks, joinNonEmpty } from './result.js';
import type { EnvelopeMatch, RemainderLane } from './types.js';

/**
 * An envelope's result with the text before and after it parsed by the caller's lane (the
 * tagged lane, or the JSON lane without heredoc recovery). Calls and errors keep document
 * order; the envelope's own violations come first.
 */
export function mergeEnvelopeRemainder(envelope: EnvelopeMatch, parseRemainder: RemainderLane): LaneResult {
  const leading = envelope.prose.trim();
  const trailing = (envelope.trailing ?? '').trim();
  const own = envelope.result;
  if (leading === '' && trailing === '') return own;
  const before = leading === '' ? null : parseRemainder(leading);
  const after = trailing === '' ? null : parseRemainder(trailing);
  const calls = [...(before?.calls ?? []), ...own.calls, ...(after?.calls ?? [])];
  return {
    ...own,
    calls,
    tool_parse_errors: [...(before?.tool_parse_errors ?? []), ...own.tool_parse_errors, ...(after?.tool_parse_errors ?? [])],
    protocol_violations: [...own.protocol_violations, ...(before?.protocol_violations ?? []), ...(after?.protocol_violations ?? [])],
    dropped: [...(before?.dropped ?? []), ...own.dropped, ...(after?.dropped ?? [])],
    prose: joinNonEmpty([before?.prose ?? '', after?.prose ?? '']),
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
