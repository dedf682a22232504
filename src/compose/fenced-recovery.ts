/**
 * Post-loop fenced recovery (docs/design.md, "Fenced recovery"). Stray text that held a canonical
 * ```tool fence was set aside during the walk; now the turn is known:
 * - no call ran in the taught grammar -> read the fences with the JSON lane and run its calls;
 * - otherwise, or when nothing parses -> keep the text as prose and record a fenced_narration drop.
 */
import { renderCall } from './canonical.js';
import type { ComposeContext } from './context.js';
import type { WalkState } from './funnel.js';
import { messagesFor } from './messages.js';
import type { TextLane } from './lanes/types.js';

/** `readFences` is the JSON lane without heredoc recovery, passed in so the lanes stay acyclic. */
export function recoverFencedText(state: WalkState, ctx: ComposeContext, readFences: TextLane): void {
  if (state.fenced.length === 0) return;
  const fenced = state.fenced.map((held) => held.text).join('\n');
  const alreadyCalled = state.calls.length > 0;
  if (!alreadyCalled) {
    const recovered = readFences(fenced, ctx).calls;
    if (recovered.length > 0) {
      for (const call of recovered) {
        state.calls.push(call);
        state.canonical.push(renderCall(call.name, call.arguments));
      }
      state.creditedCalls = state.calls.length;
      state.recovered += recovered.length;
      // A lone call's text is the fence itself, where the JSON lane kept no finer span.
      if (recovered.length === 1 && recovered[0] !== undefined) ctx.marks.writtenAs(recovered[0], fenced);
      state.violations.push(ctx.marks.describing({ kind: 'recovered_dialect', message: messagesFor(ctx.profile).fenceRecovered, excerpt: null, dropped_reason: null }, recovered));
      if (state.trace) state.trace.push({ start: -1, end: -1, account: 'call', outcome: 'fence_recovered' });
      return;
    }
  }
  if (ctx.profile === 'gateway') keepInPlace(state);
  else {
    // The reference joins the held texts after the turn's prose.
    state.prose.push(fenced);
    state.canonical.push({ kind: 'prose', text: fenced });
    state.dropped.push({ text: fenced, reason: 'fenced_narration' });
    if (state.trace) state.trace.push({ start: -1, end: -1, account: 'drop', outcome: 'fenced_narration', text: fenced });
  }
  state.violations.push({ kind: 'wrong_tool_format', message: messagesFor(ctx.profile).fenceNotDispatched(alreadyCalled), excerpt: null, dropped_reason: null });
}

/**
 * Each held text as prose where the walk met it: a gateway's prose follows the response's order
 * (joined after the turn, the fence came after text the model wrote below it).
 */
function keepInPlace(state: WalkState): void {
  for (let i = state.fenced.length - 1; i >= 0; i--) {
    const held = state.fenced[i]!;
    state.prose.splice(held.proseAt, 0, held.text);
    state.canonical.splice(held.canonicalAt, 0, { kind: 'prose', text: held.text });
    state.dropped.splice(held.droppedAt, 0, { text: held.text, reason: 'fenced_narration' });
    if (state.trace && held.traceAt >= 0) state.trace.splice(held.traceAt, 0, { start: -1, end: -1, account: 'drop', outcome: 'fenced_narration', text: held.text });
  }
}
