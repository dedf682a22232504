/**
 * A mixed-grammar response for `npm run bench`: prose paragraphs and calls written in every
 * field grammar of the conformance catalogue, in turn, until the text reaches the asked size
 * (about 80 KB by default). Deterministic; the call count it should parse to is returned.
 * `grammars` narrows the rotation (the per-family rows pass one reader family's grammars).
 */
import { GRAMMARS } from '../conformance/field/grammars.js';
import { renderer } from '../conformance/field/render/index.js';

export const MIXED_TOOLS = [{ name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];

const PROSE = 'I will read the next file and compare it with the notes before I answer.';

export function mixedGrammarResponse(size = 80_000, grammars: readonly string[] = GRAMMARS.map((g) => g.grammar)): { text: string; calls: number } {
  let text = '';
  let calls = 0;
  for (let i = 0; text.length < size; i++) {
    const grammar = grammars[i % grammars.length]!;
    text += `${PROSE} (${i})\n\n${renderer(grammar)([{ name: 'look', arguments: { path: `src/file_${i}.ts` } }])}\n\n`;
    calls++;
  }
  return { text, calls };
}
