/**
 * The structural scanner: one linear pass that cuts a model response into top-level units.
 *
 *     text ──stripThinkingTags──▶ source ──scanUnits(spec)──▶ units ──compose──▶ calls
 *
 * Every unit has `kind`, `start`, `end`; units are in document order, non-empty and
 * non-overlapping, and units plus the whitespace skipped between them (space, tab, LF, FF, CR)
 * reassemble `source` exactly.
 *
 * Offsets (`start`, `end`) are UTF-16 code-unit indexes into `ScanResult.source`, i.e. ordinary
 * JavaScript string indexes, never indexes into the caller's original text (thinking stripping
 * may have shortened it) and never UTF-8 byte offsets (the reference's unit; the two agree on
 * ASCII text).
 *
 * The scanner holds no vocabulary: tags, markers and tool names come from the spec
 * (`buildScanSpec(tools)` in src/dialects builds the standard one).
 */
export { scanUnits } from './scanner.js';
export { validateScanSpec, isValidatedScanSpec, type ValidatedScanSpec } from './validate.js';
export { compileScanSpec, type CompiledScanSpec } from './compile.js';
export type { ScanStats } from '../lex/spans.js';
export type * from './types.js';
export { tilingViolation } from './invariants.js';
