/**
 * Deployment suffixes (Hunyuan: `<tool_call:opensource>`, `<arg_key:6124c78e>`): a suffixed
 * record writes `{S}` in its tag strings, and a region is read with the suffix its opener carries
 * filled in. A parse reads every region with one suffix through one filled record, so the
 * memoised searches of `FieldScan` see the same needle arrays for each; a parse reads at most
 * `SUFFIXES_PER_PARSE` distinct suffixes (more is not a deployment, it is noise).
 */
import { deepFreeze } from '../../../dialects/freeze.js';
import type { ParamMarkupGrammar } from '../../../dialects/field/index.js';
import type { FieldScan } from '../scan.js';

export const SUFFIX_PLACEHOLDER = '{S}';
const SUFFIX_MAX = 64;
const SUFFIXES_PER_PARSE = 16;

const FILLED = new WeakMap<FieldScan, Map<string, ParamMarkupGrammar>>();

/**
 * Filled records kept for later parses, up to this many a process (a deployment writes one or
 * two suffixes): perf: a parse of the mixed-grammar row spent 3 % of its time copying Hunyuan's
 * record. Which suffixes a parse reads is still decided per parse (`SUFFIXES_PER_PARSE`), so
 * what the process read before never changes what a parse reads.
 */
const SHARED_MAX = 64;
const SHARED = new Map<string, ParamMarkupGrammar>();

function isSuffixCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d || code === 0x2e
  );
}

/** The suffix of the tag at `at` (`<tool_calls:opensource>` -> `:opensource`, `<tool_calls>` -> ''), or null. */
export function suffixAt(text: string, at: number): string | null {
  let pos = at + 1;
  while (pos < text.length && (isSuffixCode(text.charCodeAt(pos)) && text.charCodeAt(pos) !== 0x2e)) pos++;
  if (text.charCodeAt(pos) === 0x3e) return '';
  if (text.charCodeAt(pos) !== 0x3a) return null;
  const start = pos;
  pos++;
  while (pos < text.length && pos - start <= SUFFIX_MAX && isSuffixCode(text.charCodeAt(pos))) pos++;
  return text.charCodeAt(pos) === 0x3e ? text.slice(start, pos) : null;
}

function fill(value: unknown, suffix: string): unknown {
  if (typeof value === 'string') return value.split(SUFFIX_PLACEHOLDER).join(suffix);
  if (Array.isArray(value)) return value.map((item) => fill(item, suffix));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = fill(item, suffix);
    return out;
  }
  return value;
}

/** `grammar` with the suffix of the tag at `at` filled in, or null when there is none to read. */
export function withSuffix(scan: FieldScan, at: number, grammar: ParamMarkupGrammar): ParamMarkupGrammar | null {
  const suffix = suffixAt(scan.text, at);
  if (suffix === null) return null;
  let filled = FILLED.get(scan);
  if (filled === undefined) FILLED.set(scan, (filled = new Map()));
  const key = `${grammar.id}\u0000${suffix}`;
  let record = filled.get(key);
  if (record === undefined) {
    if (filled.size >= SUFFIXES_PER_PARSE) return null;
    record = SHARED.get(key);
    if (record === undefined) {
      // Frozen as the records are (and so read through the same layouts): it is shared.
      record = deepFreeze(fill(grammar, suffix) as ParamMarkupGrammar);
      if (SHARED.size < SHARED_MAX) SHARED.set(key, record);
    }
    filled.set(key, record);
  }
  return record;
}
