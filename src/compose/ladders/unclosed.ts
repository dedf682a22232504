import type { ComposeContext } from '../context.js';
import { callFromBody } from './body.js';
import { recoveredMessages, TRUNCATED_PREFIX, truncatedMessages } from './messages.js';
import type { BodyHead, DirectParse, UnclosedOutcome } from './types.js';

/**
 * A `<tool_call>` block that never closed (docs/design.md, "Unclosed blocks"). The body (bounded by
 * the scanner at the next call-tag boundary or the end) goes through the same ladder; then:
 *
 * - a recovered call carries the `recovered_dialect` violation for the walk to append;
 * - narration only: no violation;
 * - a failure that no dialect rung recognised (empty body, JSON body, bare-call sniff) becomes
 *   the `TOOL CALL TRUNCATED:` diagnostic naming the head; a recognised dialect's own
 *   diagnosis (markup, nested XML, narration-wrapped) is kept as it is.
 */
export function unclosedBlockOutcome(body: string, ctx: ComposeContext, head?: BodyHead, direct?: DirectParse | null): UnclosedOutcome {
  const outcome = callFromBody(body, ctx, head, direct);
  if (outcome.ok) {
    if (outcome.call === undefined) return outcome;
    return {
      ...outcome,
      recoveredViolation: { kind: 'recovered_dialect', message: recoveredMessages.unclosedBlock, excerpt: null, dropped_reason: null },
    };
  }
  if (outcome.matched === true || outcome.error.startsWith(TRUNCATED_PREFIX)) return outcome;
  const error = head !== undefined && head.name !== ''
    ? truncatedMessages.unclosedWithHead(head.name)
    : truncatedMessages.unclosedWithoutHead();
  return { ok: false, error, rung: 'truncated' };
}
