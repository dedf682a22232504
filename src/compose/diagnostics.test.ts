import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DROP_REASONS, LOST_CALL_VIOLATION_KINDS, MACHINE_PREFIXES, STRUCTURAL_OUTCOMES, VIOLATION_KINDS, isLostCallViolation } from './diagnostics.js';

const doc = readFileSync(fileURLToPath(new URL('../../docs/diagnostics.md', import.meta.url)), 'utf8');

/** Codes documented as `- \`code\`:` list items under a `## heading`. */
function documentedCodes(heading: string): string[] {
  const start = doc.indexOf(`## ${heading}\n`);
  expect(start, `section ${heading}`).toBeGreaterThanOrEqual(0);
  const next = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, next < 0 ? doc.length : next);
  return [...section.matchAll(/^- `([^`]+)`:/gm)].map((m) => m[1]!);
}

describe('diagnostics catalogue and docs/diagnostics.md agree', () => {
  it.each([
    ['Violation kinds', Object.keys(VIOLATION_KINDS)],
    ['Drop reasons', Object.keys(DROP_REASONS)],
    ['Structural outcomes', Object.keys(STRUCTURAL_OUTCOMES)],
    ['Machine-matched prefixes', Object.values(MACHINE_PREFIXES)],
  ])('%s: both directions', (heading, catalogue) => {
    expect(documentedCodes(heading).sort()).toEqual([...catalogue].sort());
  });

  it("has the reference's eleven violation kinds plus call_in_reasoning, foreign_turn and invalid_arguments, and a one-line doc for each code", () => {
    expect(Object.keys(VIOLATION_KINDS)).toHaveLength(14);
    expect(Object.keys(VIOLATION_KINDS)).toContain('call_in_reasoning');
    expect(Object.keys(VIOLATION_KINDS)).toContain('foreign_turn');
    expect(Object.keys(VIOLATION_KINDS)).toContain('invalid_arguments');
    for (const line of [...Object.values(VIOLATION_KINDS), ...Object.values(DROP_REASONS), ...Object.values(STRUCTURAL_OUTCOMES)]) {
      expect(line).not.toContain('\n');
      expect(line.length).toBeGreaterThan(10);
    }
  });

  it('lost-call kinds are a subset of the violation kinds', () => {
    for (const kind of LOST_CALL_VIOLATION_KINDS) expect(Object.keys(VIOLATION_KINDS)).toContain(kind);
    expect(isLostCallViolation('bare_json')).toBe(true);
    expect(isLostCallViolation('stray_text')).toBe(false);
  });
});
