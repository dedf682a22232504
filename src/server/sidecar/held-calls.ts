/**
 * The upstream's own tool calls (a server that did parse) and the calls read from its text.
 * The upstream's pass through unchanged; a call read from the text is left out when it restates
 * one of them: the same function name and deep-equal arguments (key order ignored, the held
 * call's arguments JSON-decoded; a held call whose arguments do not decode matches nothing).
 */

/** An OpenAI tool call as an upstream sends it; every field it carries is kept. */
export interface HeldCall {
  function?: { name?: unknown; arguments?: unknown };
  [key: string]: unknown;
}

export interface CallKey {
  name: string;
  arguments: unknown;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A held call's name and decoded arguments, or null when it has no readable pair. */
export function keyOfHeld(call: HeldCall): CallKey | null {
  const name = call.function?.name;
  const raw = call.function?.arguments;
  if (typeof name !== 'string') return null;
  if (typeof raw !== 'string') return { name, arguments: raw ?? {} };
  try {
    return { name, arguments: JSON.parse(raw === '' ? '{}' : raw) };
  } catch {
    return null;
  }
}

/** True when `call` restates one of `held`. */
export function isHeld(call: CallKey, held: readonly (CallKey | null)[]): boolean {
  return held.some((h) => h !== null && h.name === call.name && deepEqual(h.arguments, call.arguments));
}
