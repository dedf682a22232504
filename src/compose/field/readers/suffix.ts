/**
 * Deployment suffixes (Hunyuan: `<tool_call:opensource>`, `<arg_key:6124c78e>`): a suffixed
 * record writes `{S}` in its tag strings, and a region is read with the suffix its opener carries
 * filled in. Filled records are kept per parse, so the memoised searches of `FieldScan` see the
 * same needle arrays for every region with that suffix; a parse reads at most
 * `SUFFIXES_PER_PARSE` distinct suffixes (more is not a deployment, it is noise).
 */
import { interned } from '../../../dialects/freeze.js';
import type { ParamMarkupGrammar } from '../../../dialects/field/index.js';
import type { FieldScan } from '../scan.js';

export const SUFFIX_PLACEHOLDER = '{S}';
const SUFFIX_MAX = 64;
const SUFFIXES_PER_PARSE = 16;

const FILLED = new WeakMap<FieldScan, Map<string, ParamMarkupGrammar>>();

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
  // Interned, as the records' own strings are (dialects/freeze.ts): the readers' searches see one layout.
  if (typeof value === 'string') return interned(value.split(SUFFIX_PLACEHOLDER).join(suffix));
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
    record = fill(grammar, suffix) as ParamMarkupGrammar;
    filled.set(key, record);
  }
  return record;
}
