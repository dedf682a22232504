/**
 * Fence info strings (docs/design.md, "Fence chunker"). The info is what follows the
 * three-character marker on the opening line: ```` ```tool ````, ```` ```json ````, `~~~tool`.
 */
import { DIALECTS } from '../../dialects/vocabulary.js';

/**
 * The tagged lane's reading: `canonical` for a fence that names itself a tool block
 * (`tool`, `tool python`, `tool-x`), `drift` for the drift spellings (`json`, `tool_code`,
 * `tool_call`, `function_call`), `''` for any other fence.
 */
export type FenceIntent = 'canonical' | 'drift' | '';

function normalizeInfo(info: string): string {
  return info.trim().toLowerCase();
}

function namesTool(normalized: string): boolean {
  const open = DIALECTS.FENCE_OPEN_INFO;
  if (normalized === open) return true;
  if (!normalized.startsWith(open)) return false;
  return (DIALECTS.FENCE_INFO_SUFFIX_SEPARATORS as readonly string[]).includes(normalized.charAt(open.length));
}

function isDriftInfo(normalized: string): boolean {
  return (DIALECTS.FENCE_DRIFT_INFOS as readonly string[]).includes(normalized);
}

export function fenceInfoIntent(info: string): FenceIntent {
  const normalized = normalizeInfo(info);
  if (isDriftInfo(normalized)) return 'drift';
  return namesTool(normalized) ? 'canonical' : '';
}

/**
 * The JSON lane's reading of an opening fence line: a tool fence (with `drift` set to the
 * spelling to report when it is not exactly ```` ```tool ````), or documentation.
 */
export type JsonFenceKind = { tool: true; drift: string | null } | { tool: false };

export function jsonFenceKind(marker: string, info: string): JsonFenceKind {
  const normalized = normalizeInfo(info);
  if (marker === DIALECTS.BACKTICK_FENCE && normalized === DIALECTS.FENCE_OPEN_INFO) return { tool: true, drift: null };
  if (namesTool(normalized) || isDriftInfo(normalized)) return { tool: true, drift: marker + normalized };
  return { tool: false };
}

/** The fence marker a trimmed line starts with, or null. */
export function fenceMarkerOf(trimmed: string): string | null {
  if (trimmed.startsWith(DIALECTS.BACKTICK_FENCE)) return DIALECTS.BACKTICK_FENCE;
  if (trimmed.startsWith(DIALECTS.TILDE_FENCE)) return DIALECTS.TILDE_FENCE;
  return null;
}
