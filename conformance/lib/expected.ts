/**
 * Regression pins: the full observed result of a case, recorded by
 * `conformance/tools/record-expected.ts` into `conformance/expected/<group>.json` (keyed by case
 * id). The seed's recipe: generate the expected output from what the port observes, then diff it
 * against the reference's assertions (the checks). Once recorded, any change of output fails
 * the case until it is re-recorded on purpose.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceView } from './adapt.js';

export const EXPECTED_DIR = fileURLToPath(new URL('../expected/', import.meta.url));

export type PinFile = Record<string, unknown>;

/**
 * The pinned form of a result: its JSON wire form, with call ids rebased as in the reference
 * view so a pin does not depend on how many turns ran before it.
 */
export function pinForm(result: unknown): unknown {
  const wire: unknown = result === undefined ? null : JSON.parse(JSON.stringify(result));
  // entry '' : rebase call ids only, add no reference aliases
  return referenceView('', wire);
}

export function readPins(group: string, dir: string = EXPECTED_DIR): PinFile {
  const path = join(dir, `${group}.json`);
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, 'utf8')) as PinFile;
}

/** Writes the pins of one group with ids in a stable order. */
export function writePins(group: string, pins: PinFile, dir: string = EXPECTED_DIR): void {
  mkdirSync(dir, { recursive: true });
  const ordered: PinFile = {};
  for (const id of Object.keys(pins).sort()) ordered[id] = pins[id];
  writeFileSync(join(dir, `${group}.json`), `${JSON.stringify(ordered, null, 2)}\n`);
}
