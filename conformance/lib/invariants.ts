/**
 * Whole-result properties the reference asserts in code rather than as field values; the
 * vectors' notes state them ("every scan() call also asserts the tiling invariant"). Each
 * returns the first violation found, or undefined when the property holds.
 *
 *   source:  "Intro.\n<tool_call>look({})</tool_call>\n"
 *   units:    [text 0..7)  [block 7..38)
 *             ^ in order, non-empty, nothing but whitespace around or between them
 */

interface UnitLike {
  kind?: unknown;
  start?: unknown;
  end?: unknown;
  text?: unknown;
  raw?: unknown;
  body?: unknown;
}

type Invariant = (result: unknown) => string | undefined;

const WHITESPACE_ONLY = /^\s*$/;

function unitsAndSource(result: unknown): { units: UnitLike[]; source: string } | string {
  const { units, source } = (result ?? {}) as { units?: unknown; source?: unknown };
  if (!Array.isArray(units) || typeof source !== 'string') return 'result has no units list and source string';
  return { units: units as UnitLike[], source };
}

/** Units tile the source: ordered, non-overlapping, non-empty, whitespace-only gaps. */
function scanTiling(result: unknown): string | undefined {
  const scanned = unitsAndSource(result);
  if (typeof scanned === 'string') return scanned;
  const { units, source } = scanned;
  let covered = 0;
  for (const [i, unit] of units.entries()) {
    const { start, end } = unit;
    if (typeof start !== 'number' || typeof end !== 'number') return `units[${i}] has no numeric start/end`;
    if (start < covered) return `units[${i}] starts at ${start}, before the previous unit ends at ${covered}`;
    if (end <= start) return `units[${i}] is empty or reversed (${start}..${end})`;
    if (end > source.length) return `units[${i}] ends at ${end}, past the source (${source.length})`;
    const gap = source.slice(covered, start);
    if (!WHITESPACE_ONLY.test(gap)) return `text ${JSON.stringify(gap)} before units[${i}] belongs to no unit`;
    covered = end;
  }
  const tail = source.slice(covered);
  return WHITESPACE_ONLY.test(tail) ? undefined : `trailing text ${JSON.stringify(tail)} belongs to no unit`;
}

/** Each unit's pre-sliced text is exactly the source it covers; a block's body lies inside its span. */
function scanSlices(result: unknown): string | undefined {
  const scanned = unitsAndSource(result);
  if (typeof scanned === 'string') return scanned;
  const { units, source } = scanned;
  for (const [i, unit] of units.entries()) {
    if (typeof unit.start !== 'number' || typeof unit.end !== 'number') return `units[${i}] has no numeric start/end`;
    const covered = source.slice(unit.start, unit.end);
    const shipped = unit.kind === 'tag' ? unit.raw : unit.text;
    if ((unit.kind === 'text' || unit.kind === 'fenced_line' || unit.kind === 'markup' || unit.kind === 'tag') && shipped !== covered) {
      return `units[${i}] (${String(unit.kind)}) ships ${JSON.stringify(shipped)} but covers ${JSON.stringify(covered)}`;
    }
    if ((unit.kind === 'block' || unit.kind === 'unclosed_block') && (typeof unit.body !== 'string' || !covered.includes(unit.body))) {
      return `units[${i}] (${String(unit.kind)}) body does not lie within its span`;
    }
  }
  return undefined;
}

export const INVARIANTS: Readonly<Record<string, Invariant>> = Object.freeze({
  scan_tiling: scanTiling,
  scan_slices: scanSlices,
});
