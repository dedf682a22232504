/**
 * A work counter threaded through the bare-call sniffer so tests can check linearity by
 * counting steps instead of timing. Every loop in `src/compose/sniff/*` adds one step per character
 * (or per candidate) it examines. The lexer's call parsers are not metered here; the tests count
 * their invocations and the text handed to failed ones (see `linearity.test.ts`).
 */
export interface WorkMeter {
  steps: number;
}

/** A fresh meter for callers that do not measure. */
export function idleMeter(): WorkMeter {
  return { steps: 0 };
}
