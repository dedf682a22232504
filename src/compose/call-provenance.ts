/**
 * What the boundary of `parseToolCalls` needs to know about a call a lane produced, kept beside
 * the call rather than in the result record (which stays exactly the contract's keys):
 *
 * - the text the model wrote for it, so a call refused at the boundary (admission,
 *   `validate: reject`) goes on the drop ledger as written, not in canonical form;
 * - which calls a recovery violation describes, so a `recovered_dialect` whose every call was
 *   refused at the boundary does not claim a call that never left.
 *
 * Both are weak maps keyed by object identity: a lane that copies a call or a violation loses
 * the mark, and the boundary then falls back to the canonical rendering and keeps the
 * violation, which is what it did before either existed.
 */
import type { ProtocolViolation, ToolCall } from './types.js';

const writtenTexts = new WeakMap<ToolCall, string>();
const describedCalls = new WeakMap<ProtocolViolation, readonly ToolCall[]>();

/**
 * Marks `call` as read from `text` (trimmed; an empty text marks nothing). A later mark
 * replaces an earlier one: an outer reader knows the call's whole text (a fence around the
 * JSON object an inner reader marked). Returns the call.
 */
export function writtenAs<T extends ToolCall>(call: T, text: string): T {
  const written = text.trim();
  if (written !== '') writtenTexts.set(call, written);
  return call;
}

/** Marks each call, in order, with its text; calls past the end of `texts` stay unmarked. */
export function writtenEach(calls: readonly ToolCall[], texts: readonly string[]): void {
  calls.forEach((call, i) => {
    const text = texts[i];
    if (text !== undefined) writtenAs(call, text);
  });
}

/** The text the model wrote for `call`, where the lane that read it knew it. */
export function writtenText(call: ToolCall): string | undefined {
  return writtenTexts.get(call);
}

/** A fresh copy of `violation` that describes `calls` (the ones its recovery produced). */
export function describing(violation: ProtocolViolation, calls: readonly ToolCall[]): ProtocolViolation {
  const own: ProtocolViolation = { ...violation };
  describedCalls.set(own, calls.slice());
  return own;
}

/**
 * False when `violation` describes calls and every one of them was refused at the boundary;
 * true for a violation that describes no call.
 */
export function describesALeavingCall(violation: ProtocolViolation, refused: ReadonlySet<ToolCall>): boolean {
  const calls = describedCalls.get(violation);
  if (calls === undefined || calls.length === 0) return true;
  return calls.some((call) => !refused.has(call));
}
