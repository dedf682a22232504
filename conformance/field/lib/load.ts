/** Reads the checked-in field case files (conformance/field/cases/*.json). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FieldCaseFile } from './case.js';

export const CASES_DIR = fileURLToPath(new URL('../cases/', import.meta.url));

export function loadFieldCaseFiles(dir: string = CASES_DIR): FieldCaseFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as FieldCaseFile);
}
