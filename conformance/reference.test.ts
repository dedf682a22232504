/**
 * The reference conformance runner: one test per reference vector, named `<group>#<id>`.
 *
 * A case passes when every counting check holds (conformance/lib/evaluate.ts), and a recorded
 * pin, when one exists, equals the observed result (conformance/lib/expected.ts). The ledger
 * (conformance/DIFFERENCES.md) turns the first verdict around for listed cases. A summary line
 * is printed at the end.
 */
import { afterAll, assert, expect, it } from 'vitest';
import { referenceView } from './lib/adapt.js';
import { loadReferenceGroups } from './lib/cases.js';
import { runEntry } from './lib/entries.js';
import { evaluateChecks } from './lib/evaluate.js';
import { pinForm, readPins } from './lib/expected.js';
import { conformanceVerdict, readLedger } from './lib/ledger.js';
import { Tally } from './lib/tally.js';

const ledger = readLedger();
const tally = new Tally();

for (const group of loadReferenceGroups()) {
  const pins = readPins(group.group);
  for (const c of group.cases) {
    const name = `${group.group}#${c.id}`;
    if (c.informational) {
      tally.record(c.kind, 'informational');
      it.skip(`${name} (informational: ${c.informational_reason ?? c.entry})`, () => {});
      continue;
    }
    it(name, async () => {
      const run = await runEntry(c);
      if (run.status !== 'ran') {
        const verdict = conformanceVerdict(c.id, false, `${run.status}: ${run.reason}`, ledger);
        tally.record(c.kind, run.status === 'missing' && verdict.status === 'fail' ? 'missing' : verdict.status);
        if (!verdict.ok) assert.fail(verdict.message);
        return;
      }
      const evaluation = evaluateChecks(referenceView(c.entry, run.result), c.checks);
      const detail = [
        ...evaluation.failures,
        ...evaluation.wordingDiffers.map((line) => `(wording, not counted) ${line}`),
        ...evaluation.uncovered.map((line) => `(helper not ported, not counted) ${line}`),
      ].join('\n');
      const verdict = conformanceVerdict(c.id, evaluation.passed, detail, ledger);
      tally.record(c.kind, verdict.status, evaluation.wordingDiffers.length);
      if (c.id in pins) {
        const pinMessage =
          `${name}: observed result differs from its pin in conformance/expected/${group.group}.json; if the change is ` +
          `intended, re-record: npx tsx conformance/tools/record-expected.ts --group ${group.group}`;
        expect.soft(pinForm(run.result), pinMessage).toEqual(pins[c.id]);
      }
      if (!verdict.ok) assert.fail(verdict.message);
    });
  }
}

/**
 * Relations between two cases the reference asserts in one test (the vectors split them in
 * `-1`/`-2` halves): scanning 4 or 4000 copies of the same prose before one block must give the
 * same unit kinds.
 */
const SAME_UNIT_KINDS: ReadonlyArray<readonly [string, string]> = [
  ['scan_tests::unit_count_tracks_structure_not_bytes-1', 'scan_tests::unit_count_tracks_structure_not_bytes-2'],
];

for (const [small, large] of SAME_UNIT_KINDS) {
  it(`scan#${small} ~ ${large}: the same unit kinds`, async () => {
    const cases = loadReferenceGroups().flatMap((group) => group.cases);
    const kinds = await Promise.all(
      [small, large].map(async (id) => {
        const c = cases.find((candidate) => candidate.id === id);
        if (c === undefined) return assert.fail(`no reference case ${id}`);
        const run = await runEntry(c);
        if (run.status !== 'ran') return assert.fail(`${id}: ${run.status}: ${run.reason}`);
        return ((run.result as { units: Array<{ kind: string }> }).units ?? []).map((unit) => unit.kind);
      }),
    );
    expect(kinds[1]).toEqual(kinds[0]);
    expect(kinds[0]?.length).toBeGreaterThan(0);
  });
}

/**
 * The scan vectors pass the reference's full vocabulary as their spec; tool-parse derives its
 * spec from the dialect data (`buildScanSpec`). Both must say the same thing, or the scan cases
 * would test a vocabulary the composer never uses. Known tools are compared as a set (the
 * reference lists them in registry order, tool-parse sorted).
 */
it('scan#vocabulary: the vectors\' full spec equals buildScanSpec()', async () => {
  const dialects = (await import('../src/dialects/index.js')) as Record<string, unknown>;
  const build = dialects.buildScanSpec;
  if (typeof build !== 'function') assert.fail('src/dialects does not export buildScanSpec() yet');
  const full = loadReferenceGroups()
    .flatMap((group) => group.cases)
    .filter((c) => c.entry === 'scan_units' && Array.isArray(c.options.call_tags) && c.options.call_tags.includes('toolcall'));
  expect(full.length).toBeGreaterThan(0);
  for (const c of full) {
    const tools = (c.options.known_tools as string[]).map((name) => ({ name }));
    const built = build(tools) as Record<string, unknown>;
    const { known_tools: expectedTools, ...expectedVocabulary } = c.options;
    const { known_tools: builtTools, ...builtVocabulary } = built;
    expect(builtVocabulary, c.id).toEqual(expectedVocabulary);
    expect([...(builtTools as string[])].sort(), c.id).toEqual([...(expectedTools as string[])].sort());
  }
});

afterAll(() => {
  console.log(tally.summary('reference conformance'));
});
