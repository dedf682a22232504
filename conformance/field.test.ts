/**
 * The field-grammar runner: one test per case of conformance/field/cases/*.json, named by case
 * id, parsed with `parseToolCalls(text, {tools, profile: 'gateway', ...options})`. The gap ledger
 * (conformance/field/GAPS.json) turns the verdict around for listed cases; a per-grammar table
 * is printed at the end. `UPDATE_FIELD_GAPS=1` rewrites the ledger from this run instead of
 * checking it.
 */
import { afterAll, assert, describe, expect, it } from 'vitest';
import { parseToolCalls } from '../src/index.js';
import { checkExpect } from './field/lib/check.js';
import { gapReason, gapVerdict, readGaps, writeGaps, type GapStatus } from './field/lib/gaps.js';
import { loadFieldCaseFiles } from './field/lib/load.js';

const UPDATE = process.env.UPDATE_FIELD_GAPS === '1';
const gaps = readGaps();
const files = loadFieldCaseFiles();
const rows = new Map<string, { cases: number; pass: number; gap: number; other: number }>();
const observed = new Map<string, string[]>();

function run(text: string, tools: unknown, options: Record<string, unknown> | undefined): unknown {
  const parseOptions: Record<string, unknown> = { profile: 'gateway', ...(options ?? {}) };
  if (tools !== null) parseOptions.tools = tools;
  return parseToolCalls(text, parseOptions as Parameters<typeof parseToolCalls>[1]);
}

it('field case ids are unique and every GAPS.json entry names a case', () => {
  const ids = files.flatMap((file) => file.cases.map((c) => c.id));
  expect(new Set(ids).size).toBe(ids.length);
  const known = new Set(ids);
  expect([...gaps.keys()].filter((id) => !known.has(id))).toEqual([]);
});

for (const file of files) {
  describe(`${file.grammar} (${file.title}, section ${file.section})`, () => {
    const row = { cases: file.cases.length, pass: 0, gap: 0, other: 0 };
    rows.set(file.grammar, row);
    for (const c of file.cases) {
      it(c.id, () => {
        let failures: string[];
        try {
          failures = checkExpect(run(c.text, c.tools, c.options), c.expect);
        } catch (error) {
          failures = [`parseToolCalls threw: ${error instanceof Error ? error.message : String(error)}`];
        }
        observed.set(c.id, failures);
        const verdict = gapVerdict(c.id, failures, gaps);
        const status: GapStatus = verdict.status;
        if (status === 'pass') row.pass += 1;
        else if (status === 'gap') row.gap += 1;
        else row.other += 1;
        if (!UPDATE && !verdict.ok) assert.fail(verdict.message);
      });
    }
  });
}

afterAll(() => {
  if (UPDATE) {
    const next = new Map<string, string>();
    for (const [id, failures] of observed) if (failures.length > 0) next.set(id, gaps.get(id) ?? gapReason(failures));
    writeGaps(next);
    console.log(`field conformance: rewrote GAPS.json with ${next.size} entries`);
  }
  const lines = ['grammar                  cases  passing  gaps  unexpected'];
  let total = 0;
  let passing = 0;
  for (const [grammar, row] of rows) {
    total += row.cases;
    passing += row.pass;
    lines.push(`${grammar.padEnd(24)} ${String(row.cases).padStart(5)}  ${String(row.pass).padStart(7)}  ${String(row.gap).padStart(4)}  ${String(row.other).padStart(10)}`);
  }
  lines.push(`field conformance: ${passing}/${total} cases passing across ${rows.size} grammars`);
  console.log(lines.join('\n'));
});
