/** Integrity of the conformance data itself: a malformed case must not pass silently. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_OPS, type Check } from './checks.js';
import { loadReferenceGroups } from './cases.js';
import type { StoredCheck } from './classify.js';
import { readLedger } from './ledger.js';

const COVERED_ENTRIES = new Set([
  'agent_parse_tool_calls',
  'parse_text_tool_calls_with_tools',
  'parse_fenced_json_tool_calls',
  'parse_bare_calls_in_body',
  'scan_units',
  'scan_units(...).to_json()',
  'ScanSpec::from_json',
]);

function wellFormed(check: Check): void {
  expect(typeof check.path).toBe('string');
  expect(CHECK_OPS as readonly string[]).toContain(check.op);
  if (check.op === 'any_of') (check.value as Check[]).forEach(wellFormed);
}

describe('reference data', () => {
  const groups = loadReferenceGroups();
  const cases = groups.flatMap((group) => group.cases);

  it('holds every vector once', () => {
    expect(cases).toHaveLength(694);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });
  it('maps every counted case to a project entry, and gives every informational case its reason', () => {
    for (const c of cases) {
      if (c.informational) expect(c.informational_reason, c.id).toBeTruthy();
      else expect(COVERED_ENTRIES.has(c.entry), c.id).toBe(true);
      if (c.kind === 'primitive' || c.kind === 'native') expect(c.informational, c.id).toBe(true);
    }
    // 694 vectors: 77 helper or native-channel cases, 2 agent-loop cases, 4 that state nothing runnable
    expect(cases.filter((c) => !c.informational)).toHaveLength(611);
  });
  it('stores well-formed, classified checks, every counted case with at least one', () => {
    for (const c of cases) {
      for (const check of c.checks as StoredCheck[]) {
        wellFormed(check);
        expect(['structural', 'message', 'informational'], c.id).toContain(check.class);
        (check.counts_as ?? []).forEach(wellFormed);
        if (check.counts_as !== undefined) expect(check.class, c.id).toBe('message');
      }
      if (!c.informational) expect(c.checks.length, c.id).toBeGreaterThan(0);
    }
  });
});

describe('worked examples data', () => {
  const { examples } = JSON.parse(readFileSync(new URL('../composer/examples.json', import.meta.url), 'utf8')) as {
    examples: Array<{ id: string; section: string; input: unknown; expected: Record<string, unknown>; options: { tool_format: unknown } }>;
  };
  it('holds Ex1 to Ex85 of sections A to I, each id once', () => {
    const ids = examples.map((example) => example.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let n = 1; n <= 85; n += 1) expect(ids, `Ex${n}`).toContain(`composer:Ex${n}`);
    for (const example of examples) {
      expect('ABCDEFGHI').toContain(example.section);
      expect(typeof example.input).toBe('string');
      expect(typeof example.options.tool_format).toBe('string');
    }
  });
  it('writes call ids as stamped at the boundary', () => {
    for (const example of examples) {
      const calls = (example.expected.calls ?? []) as Array<{ id: string }>;
      expect(calls.map((call) => call.id), example.id).toEqual(calls.map((_, i) => `tc_${i}`));
    }
  });
});

describe('ledger ids', () => {
  it('name existing cases: a typo would otherwise sit in the ledger unnoticed', () => {
    const referenceIds = new Set(loadReferenceGroups().flatMap((group) => group.cases.map((c) => c.id)));
    const { examples } = JSON.parse(readFileSync(new URL('../composer/examples.json', import.meta.url), 'utf8')) as { examples: Array<{ id: string }> };
    const exampleIds = new Set(examples.map((example) => example.id));
    for (const [id, entry] of readLedger()) {
      if (id.startsWith('composer:')) expect(exampleIds.has(id), `DIFFERENCES.md line ${entry.line}: ${id}`).toBe(true);
      else if (id.includes('::')) expect(referenceIds.has(id), `DIFFERENCES.md line ${entry.line}: ${id}`).toBe(true);
    }
  });
});
