/**
 * The tags the reference grammar reads, folded: its own (`<tool_call>`), its envelopes'
 * (`<tool_calls>`, `<tool_use>`) and the wrappers it strips (`<function_calls>`). Where a field
 * grammar shares one and reads nothing after it, the reference's reading stands (its narration,
 * its envelope's calls, its truncation).
 */
import { DIALECTS, ENVELOPE_OPENERS } from '../../dialects/index.js';

const REFERENCE_TAGS: ReadonlySet<string> = new Set([
  ...DIALECTS.TAGGED_DIALECT.flatMap((d) => [...d.spellings]).map((s) => `<${s}>`),
  ...ENVELOPE_OPENERS.map((e) => e.open),
  ...DIALECTS.CONTENTLESS_WRAPPER_TAGS.map((t) => `<${t}>`),
]);

/**
 * Whether `tag` (a whole opening tag, `<tool_call>`) is one the reference grammar reads, spelled
 * as it reads it: its scanner matches tags case-sensitively, so Nemotron's `<TOOLCALL>` is not
 * its `<toolcall>` (the walk reads it as an unknown tag).
 */
export function isReferenceTag(tag: string): boolean {
  return REFERENCE_TAGS.has(tag);
}
