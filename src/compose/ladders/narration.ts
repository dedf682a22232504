import { Code } from '../../lex/codes.js';
import { DIALECTS } from '../../dialects/vocabulary.js';
import type { Sniffed } from './sniff.js';

/** Open and close spellings of each narration tag, in peel order. */
const NARRATION = DIALECTS.NARRATION_TAGS.map((tag) => ({ open: `<${tag}>`, close: `</${tag}>` }));

/**
 * What the narration rung found (docs/design.md, "Narration"):
 * - `peeled`: narration blocks were peeled off the front; `rest` (trimmed, strictly shorter
 *   than the input) still has to go through the body ladder, or is empty;
 * - `plain`: the whole body is prose wrongly wrapped in a call block (no tag, no call, no
 *   diagnostic from the sniffer);
 * - null: not narration.
 */
export type NarrationFinding =
  | { kind: 'peeled'; prose: string[]; rest: string }
  | { kind: 'plain'; prose: string }
  | null;

/**
 * One ordered pass over the narration tags, each peeled at most once and only while the body
 * still starts with it:
 *
 *   <thinking>I should list files.</thinking>\nrun({ command: "ls" })
 *   ^ rest starts with `<thinking>` → peel to `</thinking>`, rest = `run({ command: "ls" })`
 *
 * @param body the trimmed body
 */
export function narration(body: string, sniff: () => Sniffed): NarrationFinding {
  let rest = body;
  let peeledAny = false;
  const prose: string[] = [];
  for (const tag of NARRATION) {
    if (!rest.startsWith(tag.open)) continue;
    const closeAt = rest.indexOf(tag.close, tag.open.length);
    if (closeAt < 0) continue;
    const inner = rest.slice(tag.open.length, closeAt).trim();
    if (inner !== '') prose.push(inner);
    rest = rest.slice(closeAt + tag.close.length).trim();
    peeledAny = true;
  }
  if (peeledAny) return { kind: 'peeled', prose, rest };

  const first = rest.charCodeAt(0);
  if (rest === '' || first === Code.LessThan || first === Code.LeftBrace || first === Code.LeftBracket) return null;
  const sniffed = sniff();
  return sniffed.calls.length === 0 && sniffed.errors.length === 0 ? { kind: 'plain', prose: rest } : null;
}
