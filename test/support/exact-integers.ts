/**
 * What the readers return for a value written as text: an integer beyond 2^53 written out in
 * digits (JSON and `String` write doubles below 1e21 so) is kept as a string of those digits,
 * since a number would round it (src/lex/json-stream.ts). Round-trip properties compare to this.
 */
export function asRead<T>(value: T): T {
  if (typeof value === 'number') return (Number.isInteger(value) && !Number.isSafeInteger(value) && !/e/i.test(String(value)) ? String(value) : value) as T;
  if (Array.isArray(value)) return value.map(asRead) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: asRead(item), enumerable: true, writable: true, configurable: true });
    return out as T;
  }
  return value;
}
