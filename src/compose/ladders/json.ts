/**
 * Small JSON helpers shared by the ladders. `JSON.parse` is the strict first rung: it already
 * creates `__proto__`, `constructor` and `prototype` as ordinary own keys. Its error text is
 * only ever shown to the model, never branched on.
 */

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Sets `key` as an own, enumerable data property even when it is `__proto__`: plain assignment
 * would call the prototype setter instead.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
