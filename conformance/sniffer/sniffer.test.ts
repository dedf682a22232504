/**
 * The reference's bare-call sniffer vectors (`parse_bare_calls_in_body`), one test per case.
 *
 * Each case runs `scanBareCalls(input, tools)` and applies every check to the reference-shaped
 * view of the result: the vectors read the sniffer's errors as `tool_parse_errors` (and once as
 * `errors`), so the view carries them under both names. A case listed in the "Bare-call
 * sniffer" section of conformance/DIFFERENCES.md must fail; any other case must pass.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scanBareCalls, type BareScan } from '../../src/compose/sniff/bare-calls.js';
import { runCheck, type Check } from '../lib/checks.js';
import { conformanceVerdict, readLedger } from '../lib/ledger.js';

interface SnifferCase {
  id: string;
  input: string;
  tools: unknown[] | null;
  options: Record<string, unknown>;
  checks: Check[];
  note: string;
}

const SECTION = 'Bare-call sniffer';
const data = JSON.parse(readFileSync(new URL('./bare-calls.json', import.meta.url), 'utf8')) as { cases: SnifferCase[] };
const ledger = readLedger();

function referenceView(scan: BareScan): Record<string, unknown> {
  return { calls: scan.calls, tool_parse_errors: scan.errors, errors: scan.errors, prose: scan.prose };
}

describe('conformance: bare-call sniffer', () => {
  it('holds the 99 reference cases, each with at least one check', () => {
    expect(data.cases).toHaveLength(99);
    expect(new Set(data.cases.map((c) => c.id)).size).toBe(99);
    for (const c of data.cases) expect(c.checks.length, c.id).toBeGreaterThan(0);
  });

  it('lists in its ledger section only ids of this file', () => {
    const ids = new Set(data.cases.map((c) => c.id));
    const strays = [...ledger].filter(([id, entry]) => entry.section === SECTION && !ids.has(id)).map(([id]) => id);
    expect(strays).toEqual([]);
  });

  for (const c of data.cases) {
    it(c.id, () => {
      const view = referenceView(scanBareCalls(c.input, c.tools));
      const outcomes = c.checks.map((check) => runCheck(view, check));
      const failed = outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.detail);
      const detail = `${c.note}\n  ${failed.join('\n  ')}\n  result: ${JSON.stringify(view).slice(0, 600)}`;
      const verdict = conformanceVerdict(c.id, failed.length === 0, detail, ledger);
      expect(verdict.ok, verdict.message).toBe(true);
    });
  }
});
