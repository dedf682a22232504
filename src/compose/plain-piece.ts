/**
 * The scan of a piece of text that holds none of the tagged lane's marker characters, made
 * without the scanner (docs/design.md, "Entry ladder" and "Scan steps").
 *
 * Every step of the entry ladder starts on a marker: the provider dialects' (`[TOOL_CALLS]`,
 * DSML), the tagged opener, the alternate envelope openers and every envelope opener; and every
 * scan branch starts on `<` or on a reserved opener (`[[CALL]`), thinking markers included.
 * In a piece holding none of their first characters (`I will read the file (3).`, the prose
 * between two field-grammar calls) no step applies: the ladder reaches its terminal walk of the
 * whole piece, the scanner skips the leading blanks and takes one text run to the end (a run
 * stops only at `<`), and the walk reads that one unit. This module returns that scan directly.
 */
import { ALTERNATE_ENVELOPE_OPENERS, ENVELOPE_OPENERS, TAG_LITERALS } from '../dialects/vocabulary.js';
import { DIALECTS } from '../dialects/index.js';
import { Code } from '../lex/codes.js';
import type { ValidatedScanSpec } from '../scan/index.js';
import type { ScanResult } from '../scan/types.js';

/** The markers of the entry ladder itself (the scan's come from its spec). */
const LADDER_MARKERS: readonly string[] = [
  DIALECTS.MISTRAL_CALL_MARKER,
  DIALECTS.DSML_MARKER,
  TAG_LITERALS.tool_call_open,
  TAG_LITERALS.think_open,
  TAG_LITERALS.think_close,
  ...ALTERNATE_ENVELOPE_OPENERS,
  ...ENVELOPE_OPENERS.map((opener) => opener.open),
];

/**
 * The first characters of every marker the tagged lane reads with `spec`: `<` (where every
 * scan branch after the text run starts), the reserved openers' and the ladder's.
 */
export function markerStarts(spec: ValidatedScanSpec): readonly string[] {
  const starts = new Set<string>(['<']);
  for (const marker of laneMarkers(spec)) starts.add(marker.charAt(0));
  return [...starts];
}

/** Every marker the tagged lane reads with `spec` apart from the scan's `<` branches: the ladder's and the reserved openers. */
export function laneMarkers(spec: ValidatedScanSpec): readonly string[] {
  return [...LADDER_MARKERS, ...spec.reserved_openers];
}

/** The scanner's inter-unit blanks: ASCII space, tab, LF, FF, CR. */
function isScanBlank(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.FormFeed || code === Code.CarriageReturn;
}

/**
 * The scan of `text` when it holds none of `starts` (from `markerStarts`): no unit for a blank
 * piece, else one text unit from the first non-blank character to the end. Null otherwise.
 */
export function plainScan(text: string, starts: readonly string[]): ScanResult | null {
  for (const start of starts) if (text.indexOf(start) >= 0) return null;
  const at = textUnitStart(text);
  if (at === text.length) return { source: text, units: [] };
  return { source: text, units: [{ kind: 'text', start: at, end: text.length, text: text.slice(at), fenced: false }] };
}

/** Where the scanner's text unit of `text` begins: past its leading blanks. */
export function textUnitStart(text: string): number {
  let at = 0;
  while (at < text.length && isScanBlank(text.charCodeAt(at))) at++;
  return at;
}
