/**
 * The tiling invariant of a scan result, as a checker for tests and debugging (not used on the
 * hot path): units are in order, non-empty and non-overlapping; the gaps hold only the
 * whitespace the skipper skips; text-bearing fields equal their span; bodies lie inside it.
 */
import type { ScanResult } from './types.js';

function isSkippable(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

function gapProblem(source: string, from: number, to: number): string | null {
  for (let at = from; at < to; at++) {
    if (!isSkippable(source.charCodeAt(at))) return `non-whitespace ${JSON.stringify(source[at])} at ${at} is covered by no unit`;
  }
  return null;
}

/** The first way `result` breaks the tiling invariant, or null when it holds. */
export function tilingViolation(result: ScanResult): string | null {
  const { source, units } = result;
  let cursor = 0;
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    if (!Number.isInteger(unit.start) || !Number.isInteger(unit.end)) return `unit ${i} has non-integer offsets`;
    if (unit.start < cursor) return `unit ${i} (${unit.kind}) starts at ${unit.start}, before the previous end ${cursor}`;
    if (unit.end <= unit.start) return `unit ${i} (${unit.kind}) is empty or reversed [${unit.start}, ${unit.end})`;
    if (unit.end > source.length) return `unit ${i} (${unit.kind}) ends past the source`;
    const gap = gapProblem(source, cursor, unit.start);
    if (gap !== null) return gap;
    const span = source.slice(unit.start, unit.end);
    if ('text' in unit && unit.text !== span) return `unit ${i} (${unit.kind}) text differs from its span`;
    if ('raw' in unit && unit.raw !== span) return `unit ${i} (${unit.kind}) raw differs from its span`;
    if ('body' in unit && !span.includes(unit.body)) return `unit ${i} (${unit.kind}) body lies outside its span`;
    cursor = unit.end;
  }
  return gapProblem(source, cursor, source.length);
}
