/**
 * A reasoning close with no open that stands after calls (`…<tool_call>…</tool_call>\n</think>`).
 *
 * Where a chat template opens the reasoning block in the prompt (Qwen3.5, Nemotron), the model
 * writes only its close, and everything before that close is reasoning: a call drafted there
 * did not mean to run. Without `reasoning_started`, tool-parse can tell so only from the close,
 * and by then a stream has released the calls before it; so the one-shot parse reads them as a
 * stream does (calls, the close a stray marker) and reports the close as `stray_text`, naming the
 * option that reads such a template right. After reasoning already read (a block closed
 * before), a second close is only a stray marker, as before.
 */
import type { ReasoningGrammar } from '../../dialects/field/index.js';
import type { ComposeContext } from '../context.js';
import { fieldMessages } from './messages.js';
import { RegionSink, type FieldRegion } from './region.js';
import type { FieldScan } from './scan.js';

/** The close's region (the marker alone), with the violation. */
export function lateCloseRegion(text: string, grammar: ReasoningGrammar, start: number, end: number, ctx: ComposeContext, scan: FieldScan): FieldRegion {
  const sink = new RegionSink(text, grammar, ctx.registry, ctx.marks, scan);
  const marker = text.slice(start, end);
  sink.violation('stray_text', fieldMessages.lateReasoningClose(marker), marker);
  return sink.region(start, end);
}
