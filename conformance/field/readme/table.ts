/**
 * The README's table of field grammars, built from the conformance catalogue and renderers:
 * one row per grammar, its example the grammar's own rendering of `look({"path": "a.rs"})`.
 * `test/readme-field-table.test.ts` checks that the README holds exactly this table and that
 * every example parses to that call; `npx tsx conformance/tools/readme-field-table.ts` prints it.
 */
import { createStreamParser } from '../../../src/index.js';
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

/** A table cell holding a grammar's title as text: a tag it names (`<tools>`) shown, not taken for HTML. */
function titleCell(title: string): string {
  return title.replaceAll('|', '\\|').replaceAll('<', '&lt;');
}

/** A table cell holding `text` as inline code: newlines as `⏎`, pipes escaped, fenced with enough backticks. */
function codeCell(text: string): string {
  const shown = text.replaceAll('\n', '⏎').replaceAll('|', '\\|');
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/**
 * When a stream releases the example's call, measured: fed in 4-character chunks with prose
 * after it, the call comes before its close (once its body has ended: its JSON closed, or its
 * own close written inside a section), at its close; for a grammar with no close of its own, when text that
 * cannot continue it follows; or only at the end of the text.
 */
export function streamedAt(grammar: string): 'before its close' | 'at its close' | 'when text follows' | 'at the end' {
  const example = exampleOf(grammar);
  const stream = createStreamParser({ tools: ['look'] });
  const has = (events: readonly { type: string }[], type: string) => events.some((e) => e.type === type);
  const last = Math.ceil(example.length / 4) - 1;
  let started = Infinity;
  let early = false;
  for (let i = 0; i * 4 < example.length; i++) {
    const events = stream.push(example.slice(i * 4, i * 4 + 4));
    if (has(events, 'call_start')) started = Math.min(started, i);
    if (has(events, 'call_end')) early = true;
  }
  const followed = has(stream.push('\nAfter the call.'), 'call_end');
  stream.end();
  if (started < last) return 'before its close';
  return early ? 'at its close' : followed ? 'when text follows' : 'at the end';
}

export function fieldTable(): string {
  const lines = ['| grammar | models | kind | streamed | example (`⏎` is a newline) |', '| --- | --- | --- | --- | --- |'];
  for (const spec of GRAMMARS) {
    lines.push(
      `| \`${spec.grammar}\` | ${titleCell(spec.title)} | ${FAMILY_WORDS[spec.family] ?? spec.family} | ${streamedAt(spec.grammar)} | ${codeCell(exampleOf(spec.grammar))} |`,
    );
  }
  return lines.join('\n');
}
