/**
 * Sibling recovery (docs/design.md, "Sibling recovery"): when the taught grammar produced no call,
 * read the turn once with the other grammar.
 *
 *   format "json", no call          -> tagged lane           (+ wrong_tool_format: "use JSON")
 *   format "text", no call, and the text has <tool_call>
 *                                   -> JSON lane, no heredoc  (+ recovered_dialect)
 *
 * Any other format (`native`, unknown, and `""` under `harn`) keeps the pinned result. The sibling wins only
 * when it finds calls; its own `wrong_tool_format` reports are replaced by the one above.
 * Termination: the JSON lane is entered with heredoc recovery off, so it never hands the text
 * back to the tagged lane.
 */
import { TAG_LITERALS } from '../../dialects/vocabulary.js';
import { withoutQuotedMarkupLines } from '../../lex/inline-code.js';
import type { ComposeContext } from '../context.js';
import type { LaneResult } from '../types.js';
import { jsonLane } from './json-lane.js';
import { laneMessagesFor } from './messages.js';
import { violation } from './result.js';
import type { TextLane } from './types.js';

const TAGGED_OPENER = TAG_LITERALS.tool_call_open;

export function siblingRecovery(pinned: LaneResult, text: string, ctx: ComposeContext, taggedLane: TextLane): LaneResult {
  if (pinned.calls.length > 0) return pinned;
  // Under `gateway` the untaught format `""` is the text grammar, as the CLI and docs say.
  const taughtText = ctx.toolFormat === 'text' || (ctx.toolFormat === '' && ctx.profile === 'gateway');
  // Under `gateway` a `<tool_call>` only named in a sentence (inline code mid-line, a close between
  // words: lex/inline-code.ts) opens no block, so there is no block the tagged grammar failed.
  // perf: masking copies the text, so it runs only when an opener stands in it at all (every
  // answer with no call gets here).
  const textToJson =
    taughtText && text.includes(TAGGED_OPENER) && (ctx.profile !== 'gateway' || withoutQuotedMarkupLines(text).includes(TAGGED_OPENER));
  if (ctx.toolFormat !== 'json' && !textToJson) return pinned;
  const sibling = textToJson ? jsonLane(text, ctx) : taggedLane(text, ctx);
  if (sibling.calls.length === 0) return pinned;
  const steer = textToJson
    ? ctx.marks.describing(violation('recovered_dialect', laneMessagesFor(ctx.profile).siblingJsonFromTagged), sibling.calls)
    : violation('wrong_tool_format', laneMessagesFor(ctx.profile).siblingTaggedOnJson);
  return {
    ...sibling,
    protocol_violations: [...sibling.protocol_violations.filter((v) => v.kind !== 'wrong_tool_format'), steer],
  };
}
