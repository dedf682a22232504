/**
 * A work counter threaded through the bare-call sniffer so tests can check linearity by
 * counting steps instead of timing. Every loop in `src/lex/bare/*` adds one step per character
 * (or per candidate) it examines; the lexer primitives it calls are counted by their input
 * length only when the caller asks (see `sniffer.test.ts`).
 */
export interface WorkMeter {
  steps: number;
}

/** A meter nobody reads; callers that do not measure share it. */
export function idleMeter(): WorkMeter {
  return { steps: 0 };
}
