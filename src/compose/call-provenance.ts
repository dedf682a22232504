/**
 * What the boundary of `parseToolCalls` needs to know about a call a lane produced, kept beside
 * the call rather than in the result record (which stays exactly the contract's keys):
 *
 * - the text the model wrote for it, so a call refused at the boundary (admission,
 *   `validate: reject`) goes on the drop ledger as written, not in canonical form;
 * - which calls a recovery violation describes, so a `recovered_dialect` whose every call was
 *   refused at the boundary does not claim a call that never left.
 *
 * Both are keyed by object identity: a lane that copies a call or a violation loses
 * the mark, and the boundary then falls back to the canonical rendering and keeps the
 * violation, which is what it did before either existed.
 *
 * The marks belong to one parse (its `ComposeContext`, whose lanes mark and whose boundary
 * reads). perf: one pair of maps for the whole process held every call of every recent parse
 * until a collection cleared them, and a set into a weak map of thousands of entries costs
 * several times one into a fresh one (0.3 to 0.5 µs against under 0.1 µs per call here, in a
 * loop of 250 fresh calls); `writtenAs` was 6 to 8 % of the profile of every row dense in calls.
 */
import type { ProtocolViolation, ToolCall } from './types.js';

export class CallMarks {
  // perf: a mark is read only for a call refused at the boundary (rare), so marking appends to
  // two lists and the look-up map (each text trimmed) is built at the first read: a weak-map set
  // and a trim per call were 2 % of a parse of 600 Qwen3-Coder calls.
  #calls: ToolCall[] = [];
  #texts: string[] = [];
  #written: Map<ToolCall, string> | null = null;
  #described: WeakMap<ProtocolViolation, readonly ToolCall[]> | null = null;

  /**
   * Marks `call` as read from `text` (trimmed; an empty text marks nothing). A later mark
   * replaces an earlier one: an outer reader knows the call's whole text (a fence around the
   * JSON object an inner reader marked). Returns the call.
   */
  writtenAs<T extends ToolCall>(call: T, text: string): T {
    if (this.#written !== null) mark(this.#written, call, text);
    else {
      this.#calls.push(call);
      this.#texts.push(text);
    }
    return call;
  }

  /** Marks each call, in order, with its text; calls past the end of `texts` stay unmarked. */
  writtenEach(calls: readonly ToolCall[], texts: readonly string[]): void {
    calls.forEach((call, i) => {
      const text = texts[i];
      if (text !== undefined) this.writtenAs(call, text);
    });
  }

  /** The text the model wrote for `call`, where the lane that read it knew it. */
  writtenText(call: ToolCall): string | undefined {
    if (this.#written === null) {
      const written = new Map<ToolCall, string>();
      for (let i = 0; i < this.#calls.length; i++) mark(written, this.#calls[i]!, this.#texts[i]!);
      this.#written = written;
      this.#calls = [];
      this.#texts = [];
    }
    return this.#written.get(call);
  }

  /** A fresh copy of `violation` that describes `calls` (the ones its recovery produced). */
  describing(violation: ProtocolViolation, calls: readonly ToolCall[]): ProtocolViolation {
    const own: ProtocolViolation = { ...violation };
    (this.#described ??= new WeakMap()).set(own, calls.slice());
    return own;
  }

  /**
   * False when `violation` describes calls and every one of them was refused at the boundary;
   * true for a violation that describes no call.
   */
  describesALeavingCall(violation: ProtocolViolation, refused: ReadonlySet<ToolCall>): boolean {
    const calls = this.#described?.get(violation);
    if (calls === undefined || calls.length === 0) return true;
    return calls.some((call) => !refused.has(call));
  }
}

function mark(written: Map<ToolCall, string>, call: ToolCall, text: string): void {
  const trimmed = text.trim();
  if (trimmed !== '') written.set(call, trimmed);
}
