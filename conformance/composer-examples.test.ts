/**
 * The reference composer's worked examples (composer/examples.json), one test per example named
 * `<section>#<id>`, compared on the fields each example states (lib/stated-fields.ts) plus
 * its extra checks. Uses the same ledger as the reference runner.
 */
import { readFileSync } from 'node:fs';
import { afterAll, assert, it } from 'vitest';
import { referenceView } from './lib/adapt.js';
import { runCheck, type Check } from './lib/checks.js';
import { runEntry } from './lib/entries.js';
import { conformanceVerdict, readLedger } from './lib/ledger.js';
import { compareStatedFields } from './lib/stated-fields.js';
import { Tally } from './lib/tally.js';
import type { ReferenceCase } from './lib/cases.js';

interface WorkedExample {
  id: string;
  section: string;
  title: string;
  input: string;
  tools: unknown[] | null;
  options: { tool_format: string };
  expected: Record<string, unknown>;
  checks?: Check[];
}

const examples = (
  JSON.parse(readFileSync(new URL('./composer/examples.json', import.meta.url), 'utf8')) as { examples: WorkedExample[] }
).examples;
const ledger = readLedger();
const tally = new Tally();

/** A worked example is a whole-response parse: the newest composition's entry point. */
function asCase(example: WorkedExample): ReferenceCase {
  return {
    id: example.id,
    entry: 'agent_parse_tool_calls',
    kind: 'compose',
    informational: false,
    input: example.input,
    tools: example.tools,
    options: example.options,
    checks: [],
    note: example.title,
  };
}

for (const example of examples) {
  it(`${example.section}#${example.id} ${example.title}`, async () => {
    const run = await runEntry(asCase(example));
    let failures: string[];
    let wording: string[] = [];
    if (run.status !== 'ran') {
      failures = [`${run.status}: ${run.reason}`];
    } else {
      const view = referenceView('agent_parse_tool_calls', run.result);
      const compared = compareStatedFields(view, example.expected);
      const extra = (example.checks ?? []).map((check) => runCheck(view, check)).filter((o) => !o.ok);
      failures = [...compared.failures, ...extra.map((o) => o.detail)];
      wording = compared.wordingDiffers;
    }
    const detail = [...failures, ...wording.map((line) => `(wording, not counted) ${line}`)].join('\n');
    const verdict = conformanceVerdict(example.id, failures.length === 0, detail, ledger);
    tally.record('compose', run.status === 'missing' && verdict.status === 'fail' ? 'missing' : verdict.status, wording.length);
    if (!verdict.ok) assert.fail(verdict.message);
  });
}

afterAll(() => {
  console.log(tally.summary('composer worked examples', 'examples passing'));
});
