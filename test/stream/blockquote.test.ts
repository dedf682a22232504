/**
 * A Markdown blockquote line is a quotation (field/lane.ts; lex/inline-code.ts masks it): its
 * line begins at a line break, or at the end of the region before it, as a stream's held text
 * after a released region does. The one-shot answer holds at every cut.
 */
import { describe, expect, it } from 'vitest';
import type { ParseOptions } from '../../src/index.js';
import { everyCutFailures } from './invariant.js';

const TEXTS: readonly (readonly [string, string])[] = [
  ['a call quoted over three blockquote lines', '> <tool_call>\n> {"name": "get_weather", "arguments": {"city": "Paris"}}\n> </tool_call>\n\nQuoted from the model card.'],
  ['a blockquote glued to the end of a call', 'Checking.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>> <tool_call>{"name": "get_weather"}</tool_call>\nDone.'],
  ['a blockquote glued to the end of another grammar\'s call, a reasoning block in it', '<|python_tag|>get_weather.call(city="Paris")<|eot_id|>> quoted <think>x</think>\nok'],
  // The invariant sweep's finds, shrunk: the line of the `>` began before the region it follows.
  ['a blockquote glued to a refused block, a close after it (sweep)', '<tool_call>]<]minimax[>[<invoke name=e></tool_call>> <tool_call>{</toolcall>\n</think>'],
  ['a blockquote glued to a turn end, a reasoning open in it (sweep)', ')<|eot|>> <think>\n|<|end|>>'],
];

const OPTIONS: readonly ParseOptions[] = [{ tools: ['get_weather'] }, { tools: ['get_weather'], reasoning_started: false }, {}, { reasoning_started: false }];

describe('stream: blockquote lines', () => {
  for (const [title, text] of TEXTS) {
    it(`keep the one-shot answer at every cut: ${title}`, () => {
      expect(everyCutFailures(text, OPTIONS)).toEqual([]);
    });
  }
});
