/**
 * Scanner conformance: one test per case, named by its id.
 *
 * - `examples.json`: the reference scanner's input -> units examples. A case passes
 *   when `source` and every unit equal the expected ones (all fields, key order ignored).
 * - `reference-scan.json`: the reference's scan vectors with their path checks, plus the
 *   relational assertions their notes describe (`relations`).
 *
 * Every scan also has to satisfy the tiling invariant. Cases listed in conformance/DIFFERENCES.md
 * must fail and unlisted ones must pass, so the ledger only shrinks.
 */
import { readFileSync } from 'node:fs';
import { assert, describe, it } from 'vitest';
import { buildScanSpec } from '../../src/dialects/index.js';
import { scanUnits, validateScanSpec } from '../../src/scan/index.js';
import { tilingViolation } from '../../src/scan/invariants.js';
import type { ScanResult, ScanSpec, Unit } from '../../src/scan/types.js';
import { runCheck, type Check } from '../lib/checks.js';
import { jsonEqual } from '../lib/json-equal.js';
import { conformanceVerdict, readLedger } from '../lib/ledger.js';

interface ExampleCase {
  id: string;
  note: string;
  input: string;
  spec_overrides: Partial<ScanSpec>;
  source: string;
  units: unknown[];
}

type Relation =
  | { rel: 'kind_count'; kind: string; value: number }
  | { rel: 'some_unit'; where: Record<string, unknown>; field: string; value: unknown }
  | { rel: 'no_unit'; where: Record<string, unknown> }
  | { rel: 'slice_equals'; unit: number; value: string }
  | { rel: 'pre_sliced' }
  | { rel: 'same_kinds_as'; id: string }
  | { rel: 'source_longer_than'; id: string; factor: number };

interface ReferenceCase {
  id: string;
  entry: string;
  input: string;
  options: Record<string, unknown>;
  checks: Check[];
  note: string;
  relations?: Relation[];
}

function readJson<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as T;
}

const examples = readJson<{ cases: ExampleCase[] }>('./examples.json').cases;
const references = readJson<{ cases: ReferenceCase[] }>('./reference-scan.json').cases;
const ledger = readLedger();

/** Renders a thrown error as data, so a case that throws fails with a message. */
function attempt<T>(run: () => T): { value: T } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** The unit as plain JSON (what the composer or the wire sees). */
function wire(result: ScanResult): ScanResult {
  return JSON.parse(JSON.stringify(result)) as ScanResult;
}

function compareExample(c: ExampleCase): string[] {
  const run = attempt(() => scanUnits(c.input, { ...buildScanSpec(['look', 'edit', 'run']), ...c.spec_overrides }));
  if ('error' in run) return [`threw ${run.error}`];
  const problems: string[] = [];
  const tiling = tilingViolation(run.value);
  if (tiling !== null) problems.push(`tiling: ${tiling}`);
  const got = wire(run.value);
  if (got.source !== c.source) problems.push(`source: expected ${JSON.stringify(c.source)}, got ${JSON.stringify(got.source)}`);
  const count = Math.max(got.units.length, c.units.length);
  for (let i = 0; i < count; i++) {
    if (!jsonEqual(got.units[i], c.units[i])) {
      problems.push(`units[${i}]: expected ${JSON.stringify(c.units[i])}\n             got ${JSON.stringify(got.units[i])}`);
    }
  }
  return problems;
}

function matchesWhere(unit: Unit, where: Record<string, unknown>): boolean {
  const record = unit as unknown as Record<string, unknown>;
  return Object.entries(where).every(([key, value]) => jsonEqual(record[key], value));
}

const scannedById = new Map<string, ScanResult>();

function scanReference(c: ReferenceCase): ScanResult {
  const known = scannedById.get(c.id);
  if (known) return known;
  const result = scanUnits(c.input, c.options as unknown as ScanSpec);
  scannedById.set(c.id, result);
  return result;
}

function relationProblem(result: ScanResult, relation: Relation, cases: ReadonlyMap<string, ReferenceCase>): string | null {
  const { units, source } = result;
  switch (relation.rel) {
    case 'kind_count': {
      const count = units.filter((unit) => unit.kind === relation.kind).length;
      return count === relation.value ? null : `expected ${relation.value} ${relation.kind} unit(s), got ${count}`;
    }
    case 'some_unit': {
      const hit = units.some((unit) => matchesWhere(unit, relation.where) && jsonEqual((unit as unknown as Record<string, unknown>)[relation.field], relation.value));
      return hit ? null : `no unit matching ${JSON.stringify(relation.where)} has ${relation.field} = ${JSON.stringify(relation.value)}`;
    }
    case 'no_unit':
      return units.some((unit) => matchesWhere(unit, relation.where)) ? `a unit matches ${JSON.stringify(relation.where)}` : null;
    case 'slice_equals': {
      const unit = units[relation.unit];
      const slice = unit ? source.slice(unit.start, unit.end) : undefined;
      return slice === relation.value ? null : `source[units[${relation.unit}]] is ${JSON.stringify(slice)}, expected ${JSON.stringify(relation.value)}`;
    }
    case 'pre_sliced':
      // Covered by the tiling check (text/raw equal their span, bodies lie inside it).
      return units.length > 0 ? null : 'no units';
    case 'same_kinds_as':
    case 'source_longer_than': {
      const other = cases.get(relation.id);
      if (!other) return `unknown case ${relation.id}`;
      const otherResult = scanReference(other);
      if (relation.rel === 'same_kinds_as') {
        const mine = units.map((unit) => unit.kind);
        const theirs = otherResult.units.map((unit) => unit.kind);
        return jsonEqual(mine, theirs) ? null : `kinds ${JSON.stringify(mine)} differ from ${relation.id}: ${JSON.stringify(theirs)}`;
      }
      return source.length > relation.factor * otherResult.source.length ? null : `source is not ${relation.factor}x longer than ${relation.id}'s`;
    }
  }
}

function checkReference(c: ReferenceCase, cases: ReadonlyMap<string, ReferenceCase>): string[] {
  if (c.entry === 'ScanSpec::from_json') {
    const run = attempt(() => validateScanSpec(c.options));
    const view = 'error' in run ? { error: run.error } : JSON.parse(JSON.stringify(run.value));
    return c.checks.map((check) => runCheck(view, check)).filter((o) => !o.ok).map((o) => o.detail);
  }
  const run = attempt(() => scanReference(c));
  if ('error' in run) return [`threw ${run.error}`];
  const problems: string[] = [];
  const tiling = tilingViolation(run.value);
  if (tiling !== null) problems.push(`tiling: ${tiling}`);
  const view = wire(run.value);
  for (const check of c.checks) {
    const outcome = runCheck(view, check);
    if (!outcome.ok) problems.push(outcome.detail);
  }
  for (const relation of c.relations ?? []) {
    const problem = relationProblem(run.value, relation, cases);
    if (problem !== null) problems.push(`${relation.rel}: ${problem}`);
  }
  return problems;
}

function judge(id: string, problems: string[]): void {
  const verdict = conformanceVerdict(id, problems.length === 0, problems.join('\n'), ledger);
  if (!verdict.ok) assert.fail(verdict.message);
}

describe('scanner examples (spec section 8)', () => {
  for (const c of examples) it(`scanner/examples#${c.id}`, () => judge(`scanner:${c.id}`, compareExample(c)));
});

describe('scanner reference vectors (kind scan)', () => {
  const byId = new Map(references.map((c) => [c.id, c]));
  for (const c of references) it(`scanner/reference-scan#${c.id}`, () => judge(c.id, checkReference(c, byId)));
});
