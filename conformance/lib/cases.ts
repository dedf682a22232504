/**
 * The reference vectors as project data: `conformance/reference/<group>.json`, written by
 * `conformance/tools/import-vectors.ts` from the reference's tests (see conformance/README.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoredCheck } from './classify.js';

export type CaseKind = 'compose' | 'scan' | 'primitive' | 'native';

export interface ReferenceCase {
  /** `<reference test file stem>::<test name>[-k]`, unique across all groups. */
  id: string;
  /** The reference function the test calls (README of the vectors, "Entry points"). */
  entry: string;
  kind: CaseKind;
  /** True when no project function covers the case (primitive and native helpers, loop tests). */
  informational: boolean;
  /** Why an informational case cannot be run against a project function. */
  informational_reason?: string;
  input: string;
  tools: unknown[] | null;
  options: Record<string, unknown>;
  checks: StoredCheck[];
  note: string;
}

export interface ReferenceGroup {
  group: string;
  /** The reference test files or fixtures the cases come from. */
  sources: string[];
  cases: ReferenceCase[];
}

export const REFERENCE_DIR = fileURLToPath(new URL('../reference/', import.meta.url));

export function loadReferenceGroups(dir: string = REFERENCE_DIR): ReferenceGroup[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReferenceGroup);
}
