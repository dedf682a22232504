/**
 * The gap ledger, conformance/field/GAPS.json: `{"<case id>": "one-line reason"}` for every field
 * case that does not pass yet. The runner fails when an unlisted case fails or a listed case
 * passes, so the list only shrinks. `UPDATE_FIELD_GAPS=1` makes the runner rewrite it instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const GAPS_PATH = fileURLToPath(new URL('../GAPS.json', import.meta.url));

export function readGaps(path: string = GAPS_PATH): Map<string, string> {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new TypeError(`${path} must hold one object`);
  const gaps = new Map<string, string>();
  for (const [id, reason] of Object.entries(parsed)) {
    if (typeof reason !== 'string' || reason.trim() === '' || reason.includes('\n')) throw new TypeError(`${path}: ${id} needs a one-line reason`);
    gaps.set(id, reason);
  }
  return gaps;
}

export function writeGaps(gaps: ReadonlyMap<string, string>, path: string = GAPS_PATH): void {
  const sorted = Object.fromEntries([...gaps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
}

export type GapStatus = 'pass' | 'fail' | 'gap' | 'stale';

export function gapVerdict(id: string, failures: readonly string[], gaps: ReadonlyMap<string, string>): { ok: boolean; status: GapStatus; message: string } {
  const reason = gaps.get(id);
  const passed = failures.length === 0;
  if (reason === undefined) {
    return passed
      ? { ok: true, status: 'pass', message: `${id}: pass` }
      : { ok: false, status: 'fail', message: `${id} fails and is not in conformance/field/GAPS.json:\n${failures.join('\n')}` };
  }
  return passed
    ? { ok: false, status: 'stale', message: `${id} now passes: remove it from conformance/field/GAPS.json` }
    : { ok: true, status: 'gap', message: `${id}: gap (${reason})` };
}

/** A one-line reason for a newly ledgered case: its grammar and first unmet expectation. */
export function gapReason(failures: readonly string[]): string {
  const first = (failures[0] ?? 'fails').replace(/\s+/g, ' ');
  return first.length > 140 ? `${first.slice(0, 139)}…` : first;
}
