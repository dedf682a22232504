/**
 * The README's table of field grammars, built from the conformance catalogue and renderers:
 * one row per grammar, its example the grammar's own rendering of `look({"path": "a.rs"})`.
 * `test/readme-field-table.test.ts` checks that the README holds exactly this table and that
 * every example parses to that call; `npx tsx conformance/tools/readme-field-table.ts` prints it.
 */
import { GRAMMARS } from '../grammars.js';
import { renderer, type Call } from '../render/index.js';

export const EXAMPLE_CALL: Call = { name: 'look', arguments: { path: 'a.rs' } };

/** Look-alikes have no markers of their own: the example is the whole response. */
export function exampleOf(grammar: string): string {
  return renderer(grammar)([EXAMPLE_CALL]);
}

const FAMILY_WORDS: Readonly<Record<string, string>> = {
  'special-token-json': 'special tokens, JSON',
  'shared-tag': 'shared tag, body decides',
  'raw-parameter-markup': 'parameter markup, typed by schema',
  'value-grammar': 'value grammar',
  'look-alike': 'look-alike (registered names only)',
};

/** A table cell holding `text` as inline code: newlines as `⏎`, pipes escaped, fenced with enough backticks. */
function codeCell(text: string): string {
  const shown = text.replaceAll('\n', '⏎').replaceAll('|', '\\|');
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

export function fieldTable(): string {
  const lines = ['| grammar | models | kind | example (`⏎` is a newline) |', '| --- | --- | --- | --- |'];
  for (const spec of GRAMMARS) {
    lines.push(`| \`${spec.grammar}\` | ${spec.title.replaceAll('|', '\\|')} | ${FAMILY_WORDS[spec.family] ?? spec.family} | ${codeCell(exampleOf(spec.grammar))} |`);
  }
  return lines.join('\n');
}
