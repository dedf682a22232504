/**
 * Plain-object helpers for values built from model text. A key such as `__proto__` must become
 * an ordinary own property (as `JSON.parse` does), never a prototype change.
 */

/** Set `obj[key] = value` as an own, enumerable, writable, configurable data property. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** A JSON object (not an array, not null). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
