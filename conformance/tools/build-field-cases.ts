/**
 * Writes conformance/field/cases/<grammar>.json from the renderers, the grammar catalogue and
 * the hand-written cases. Deterministic: conformance/field/cases.test.ts regenerates the files
 * in memory and compares them with the checked-in ones.
 *
 *   npx tsx conformance/tools/build-field-cases.ts
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GRAMMARS } from '../field/grammars.js';
import { IRREGULAR_GRAMMARS, irregularCases } from '../field/irregular.js';
import type { FieldCaseFile } from '../field/lib/case.js';
import { lookalikeCases, regularCases } from '../field/scenarios.js';

export const CASES_DIR = fileURLToPath(new URL('../field/cases/', import.meta.url));

export function buildFieldCaseFiles(): FieldCaseFile[] {
  const catalogued = new Set(GRAMMARS.map((spec) => spec.grammar));
  const unknown = [...IRREGULAR_GRAMMARS].filter((grammar) => !catalogued.has(grammar));
  if (unknown.length > 0) throw new Error(`hand-written cases name grammars the catalogue lacks: ${unknown.join(', ')}`);
  return GRAMMARS.map((spec) => ({
    grammar: spec.grammar,
    title: spec.title,
    family: spec.family,
    section: spec.section,
    cases: [...(spec.family === 'look-alike' ? lookalikeCases(spec) : regularCases(spec)), ...irregularCases(spec.grammar)],
  }));
}

/** File name to exact file text, as written to disk. */
export function renderFieldCaseFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of buildFieldCaseFiles()) out.set(`${file.grammar}.json`, `${JSON.stringify(file, null, 2)}\n`);
  return out;
}

function main(): void {
  mkdirSync(CASES_DIR, { recursive: true });
  const files = renderFieldCaseFiles();
  for (const name of readdirSync(CASES_DIR)) if (name.endsWith('.json') && !files.has(name)) rmSync(join(CASES_DIR, name));
  let cases = 0;
  for (const [name, text] of files) {
    writeFileSync(join(CASES_DIR, name), text);
    cases += (JSON.parse(text) as FieldCaseFile).cases.length;
  }
  console.log(`wrote ${files.size} grammar files, ${cases} cases, to ${CASES_DIR}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
