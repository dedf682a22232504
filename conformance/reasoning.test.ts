/**
 * Reasoning conformance (issue 14): one test per case of `conformance/reasoning/cases.json`,
 * parsed under the gateway profile, and a per-grammar table printed at the end.
 *
 * A case states the whole of what it is about: the calls (name and arguments, in order), the
 * prose, the reasoning, and the violation kinds (exactly, in order). Wording is never compared.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { parseToolCalls } from '../src/compose/index.js';

interface ReasoningCase {
  readonly id: string;
  readonly grammar: string;
  readonly title: string;
  readonly input: string;
  readonly options?: { readonly reasoning_started?: boolean };
  /** `null` parses with no registry; absent uses the file's tools. */
  readonly tools?: null;
  readonly expected: {
    readonly calls: ReadonlyArray<readonly [string, Record<string, unknown>]>;
    readonly prose: string;
    readonly reasoning: string | null;
    readonly violations: readonly string[];
  };
}

const file = JSON.parse(readFileSync(fileURLToPath(new URL('./reasoning/cases.json', import.meta.url)), 'utf8')) as {
  tools: unknown[];
  cases: ReasoningCase[];
};

const table = new Map<string, { passed: number; failed: number }>();

function tally(grammar: string, ok: boolean): void {
  const row = table.get(grammar) ?? { passed: 0, failed: 0 };
  if (ok) row.passed += 1;
  else row.failed += 1;
  table.set(grammar, row);
}

for (const c of file.cases) {
  it(`${c.id}: ${c.title}`, () => {
    let ok = false;
    try {
      const result = parseToolCalls(c.input, { tools: c.tools === null ? null : file.tools, profile: 'gateway', ...c.options });
      expect({
        calls: result.calls.map((call) => [call.name, call.arguments]),
        prose: result.prose,
        reasoning: result.reasoning,
        violations: result.protocol_violations.map((v) => v.kind),
      }).toEqual(c.expected);
      ok = true;
    } finally {
      tally(c.grammar, ok);
    }
  });
}

it('covers every reasoning grammar of the records', async () => {
  const { REASONING_GRAMMARS } = await import('../src/dialects/field/reasoning.js');
  const covered = new Set(file.cases.map((c) => c.grammar));
  expect(REASONING_GRAMMARS.map((g) => g.id).filter((id) => !covered.has(id))).toEqual([]);
});

afterAll(() => {
  const rows = [...table.entries()].sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...rows.map(([g]) => g.length), 'grammar'.length);
  const lines = [`${'grammar'.padEnd(width)}  passed  failed`, ...rows.map(([g, r]) => `${g.padEnd(width)}  ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}`)];
  const total = rows.reduce((sum, [, r]) => sum + r.passed, 0);
  console.log(`reasoning conformance: ${total}/${file.cases.length} passed\n${lines.join('\n')}`);
});
