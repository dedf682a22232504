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
      it.skip(`${name} (informational: ${c.kind} ${c.entry}, no project function covers it)`, () => {});
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
        expect.soft(pinForm(run.result), `${name}: observed result differs from the recorded pin (conformance/expected/${group.group}.json)`).toEqual(pins[c.id]);
      }
      if (!verdict.ok) assert.fail(verdict.message);
    });
  }
}

afterAll(() => {
  console.log(tally.summary('reference conformance'));
});
