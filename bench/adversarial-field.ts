/**
 * Adversarial inputs for the field grammars, built from their records so that every new
 * grammar is covered without a new line here: per grammar, every marker repeated (thousands of
 * unclosed openers, section openers with no end, closes with no opener), every opener followed
 * by a cut-off string and by deep nesting, and an opener before a long run of plain text.
 */
import { FIELD_GRAMMARS } from '../src/dialects/field/index.js';

function families(): Record<string, (n: number) => string> {
  const out: Record<string, (n: number) => string> = {};
  for (const grammar of FIELD_GRAMMARS) {
    const markers = grammar.markers.join('');
    const opener = grammar.openers[0]!;
    out[`${grammar.id}: every marker repeated`] = (n) => markers.repeat(n);
    out[`${grammar.id}: unclosed openers`] = (n) => `${opener}f `.repeat(n);
    out[`${grammar.id}: openers with an open string`] = (n) => `${markers}{"a": "x `.repeat(n);
    out[`${grammar.id}: deep nesting`] = (n) => `${markers}{"a": ${'['.repeat(n)}`;
    out[`${grammar.id}: an opener before plain text`] = (n) => `${opener}${'plain words, '.repeat(n)}`;
  }
  return out;
}


/**
 * Shapes specific to reasoning blocks: call markup inside many blocks (the `call_in_reasoning`
 * search), reasoning markers inside one long reference call block (the lane's guard), many
 * orphan-looking closes, and blocks whose call markup lies far after them.
 */
export const REASONING_ADVERSARIAL: Readonly<Record<string, (n: number) => string>> = {
  'reasoning: call markup inside every block': (n) => '<think>x <tool_call>{"name": "f"</think>'.repeat(n),
  'reasoning: markers inside one reference block': (n) => `<tool_call>f({"a": "${'<think>a</think>'.repeat(n)}"})</tool_call>`,
  'reasoning: reference openers between blocks': (n) => '<tool_call> <think>a</think>'.repeat(n),
  'reasoning: closes after plain text': (n) => `${'plain words, '.repeat(n)}${'</think>'.repeat(n)}`,
  'reasoning: blocks, then call markup far away': (n) => `${'<think>a</think>b'.repeat(n)}${'plain '.repeat(n)}<tool_call>`,
};

export const FIELD_ADVERSARIAL: Readonly<Record<string, (n: number) => string>> = { ...families(), ...REASONING_ADVERSARIAL };
