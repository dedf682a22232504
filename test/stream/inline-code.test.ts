/**
 * A marker written as inline code in a sentence (`` Put `<tool_call>…</tool_call>` around it ``)
 * is prose in the one-shot parse once a backtick follows it on its line (field/lane.ts,
 * `inlineCodeMention`). A stream cut right after the marker's close, or inside its body, has
 * not seen that backtick yet: it must neither release the text before the marker as the piece
 * before a region nor announce the marker's calls until the line decides.
 */
import { describe, expect, it } from 'vitest';
import type { ParseOptions } from '../../src/index.js';
import { everyCutFailures } from './invariant.js';

const TOOLS = ['get_weather'];

const TEXTS: readonly (readonly [string, string])[] = [
  ['a Hermes block quoted in a sentence', 'Put `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>` around each JSON call.\nDone.'],
  ['a tag pair with no call in it, then a MiniMax call on the same line', 'Put `<tool_call>...</tool_call>` around each JSON call.<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</minimax:tool_call>'],
  ['a Kimi K2 section quoted in a sentence', 'Use `<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city":"Paris"}<|tool_call_end|><|tool_calls_section_end|>` as shown.\nDone.'],
  ['a Kimi K2 section open and close named apart in a table row, the line going on after the close', 'Tokens:\n| Kimi K2 | `<|tool_calls_section_begin|>` | `<|tool_calls_section_end|>` |\n| Mistral | x |'],
  ['a whole Qwen3-Coder call quoted in a sentence', 'Qwen writes `<tool_call><function=get_weather><parameter=city>Paris</parameter></function></tool_call>` on one line.\nDone.'],
  ['a reasoning close quoted in a sentence (an orphan close only once its line says so)', 'If you see a stray `</think>` in the output, the template opened it.\nDone.'],
  ['a Llama 3.1 function tag quoted in a sentence', 'Put `<function=get_weather>{"city": "Paris"}</function>` there.\nDone.'],
];

const OPTIONS: readonly ParseOptions[] = [{ tools: TOOLS }, { tools: TOOLS, reasoning_started: false }, { reasoning_started: false }];

describe('stream: markers written as inline code', () => {
  for (const [title, text] of TEXTS) {
    it(`keep the one-shot answer at every cut: ${title}`, () => {
      expect(everyCutFailures(text, OPTIONS)).toEqual([]);
    });
  }
});
