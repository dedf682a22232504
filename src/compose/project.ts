/**
 * Result projection (docs/design.md, "Projection") and the post-loop rules:
 * prose clearing, joining, and the capped stray-recovery count.
 */
import { renderParts } from './canonical.js';
import type { WalkState } from './funnel.js';
import { isUserResponseSpelling } from './pending.js';
import { withoutMarkers } from './prose-markers.js';
import type { LaneResult } from './types.js';

/** The empty projection every non-tagged lane builds on. */
export function emptyResult(prose = ''): LaneResult {
  return {
    calls: [],
    prose,
    user_response: null,
    done_marker: null,
    canonical_text: '',
    tool_parse_errors: [],
    protocol_violations: [],
    dropped: [],
    recovered_from_stray_count: 0,
  };
}

/** Projects the walk state to the result record; `keepProse` (the gateway's) keeps a broken turn's words. */
export function taggedResult(state: WalkState, keepProse = false): LaneResult {
  // A turn that only broke the protocol shows nothing under `harn`, unless an answer (closed or
  // cut off) exists; a gateway shows its words, their markers cut out (prose-markers.ts).
  const brokeOnly = state.violations.length > 0 && state.calls.length === 0 && !state.unclosedResponseProse;
  const parts = brokeOnly && keepProse ? state.prose.map(withoutMarkers).filter((p) => p !== '') : state.prose;
  const proseJoined = parts.join('\n\n');
  let answer: string | null = null;
  if (state.answers.length > 0) answer = state.answers.join('\n');
  // An unclosed terminal <user_response> turns everything said into the answer.
  else if (state.pendingResponse !== null && isUserResponseSpelling(state.pendingResponse)) answer = proseJoined;
  const blank = brokeOnly && !keepProse && answer === null;
  return {
    calls: state.calls,
    prose: blank ? '' : (answer ?? proseJoined),
    user_response: answer,
    done_marker: state.done,
    canonical_text: renderParts(state.canonical),
    tool_parse_errors: state.errors,
    protocol_violations: state.violations,
    dropped: state.dropped,
    recovered_from_stray_count: Math.min(state.recovered, state.calls.length),
  };
}
