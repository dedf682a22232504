/**
 * Compares the fields a worked example states (conformance/composer/examples.json) with the
 * project's result.
 *
 * Structure is compared exactly: calls (ids as stamped, `tc_<seq>`, see adapt.ts), prose,
 * answers, markers, canonical text, drops, counts. Messages are tool-parse's own words, so
 * for `tool_parse_errors` the count and any machine prefix must match, and for
 * `protocol_violations` the count, `kind`, `excerpt` and `dropped_reason`; a wording
 * difference is reported but does not fail the example.
 */
import { MACHINE_PREFIXES } from './classify.js';
import { jsonEqual, preview } from './json-equal.js';

export interface FieldComparison {
  failures: string[];
  wordingDiffers: string[];
}

function prefixOf(message: string): string | undefined {
  return MACHINE_PREFIXES.find((prefix) => message.startsWith(prefix));
}

function compareMessage(where: string, actual: unknown, expected: string, out: FieldComparison): void {
  if (typeof actual !== 'string') {
    out.failures.push(`${where}: expected a message, got ${preview(actual)}`);
    return;
  }
  const prefix = prefixOf(expected);
  if (prefix !== undefined && !actual.startsWith(prefix)) {
    out.failures.push(`${where}: must start with the machine prefix ${JSON.stringify(prefix)}, got ${preview(actual)}`);
  } else if (actual !== expected) {
    out.wordingDiffers.push(`${where}: reference words it ${preview(expected)}, tool-parse ${preview(actual)}`);
  }
}

function compareErrors(actual: unknown, expected: unknown[], out: FieldComparison): void {
  if (!Array.isArray(actual) || actual.length !== expected.length) {
    out.failures.push(`tool_parse_errors: expected ${expected.length} error(s), got ${preview(actual)}`);
    return;
  }
  expected.forEach((message, i) => compareMessage(`tool_parse_errors[${i}]`, actual[i], String(message), out));
}

function compareViolations(actual: unknown, expected: unknown[], out: FieldComparison): void {
  if (!Array.isArray(actual) || actual.length !== expected.length) {
    out.failures.push(`protocol_violations: expected ${expected.length} violation(s), got ${preview(actual)}`);
    return;
  }
  expected.forEach((item, i) => {
    const want = item as Record<string, unknown>;
    const got = (actual[i] ?? {}) as Record<string, unknown>;
    for (const field of ['kind', 'excerpt', 'dropped_reason']) {
      if (!jsonEqual(got[field] ?? null, want[field] ?? null)) {
        out.failures.push(`protocol_violations[${i}].${field}: expected ${preview(want[field])}, got ${preview(got[field])}`);
      }
    }
    compareMessage(`protocol_violations[${i}].message`, got.message, String(want.message), out);
  });
}

export function compareStatedFields(view: unknown, expected: Record<string, unknown>): FieldComparison {
  const out: FieldComparison = { failures: [], wordingDiffers: [] };
  if (typeof view !== 'object' || view === null) {
    out.failures.push(`result is not an object: ${preview(view)}`);
    return out;
  }
  const result = view as Record<string, unknown>;
  for (const [field, want] of Object.entries(expected)) {
    const got = result[field];
    if (field === 'tool_parse_errors' && Array.isArray(want)) compareErrors(got, want, out);
    else if (field === 'protocol_violations' && Array.isArray(want)) compareViolations(got, want, out);
    else if (!jsonEqual(got === undefined && want === null ? null : got, want)) {
      out.failures.push(`${field}: expected ${preview(want)}, got ${preview(got)}`);
    }
  }
  return out;
}
