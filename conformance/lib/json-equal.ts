/**
 * Deep JSON equality: key order is ignored, `undefined`-valued keys count as absent (as they
 * would after `JSON.stringify`), and numbers compare by value (`1` equals `1.0`).
 */
export function jsonEqual(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (typeof actual === 'number' && typeof expected === 'number') {
    return Number.isNaN(actual) && Number.isNaN(expected);
  }
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) {
    return false;
  }
  if (Array.isArray(actual) || Array.isArray(expected)) {
    if (!Array.isArray(actual) || !Array.isArray(expected) || actual.length !== expected.length) return false;
    return actual.every((item, i) => jsonEqual(item, expected[i]));
  }
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const aKeys = definedKeys(a);
  const eKeys = definedKeys(e);
  if (aKeys.length !== eKeys.length) return false;
  return eKeys.every((key) => Object.prototype.hasOwnProperty.call(a, key) && jsonEqual(a[key], e[key]));
}

function definedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => record[key] !== undefined);
}

/** A short JSON rendering for failure details. */
export function preview(value: unknown, limit = 160): string {
  if (value === undefined) return '(absent)';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length} chars)` : text;
}
