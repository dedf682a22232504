import { describe, expect, it } from 'vitest';
import { stripThinkingTags } from './thinking.js';

describe('stripThinkingTags (spec section 5)', () => {
  const table: [string, string][] = [
    ['<think>deliberating</think>\n<tool_call>look({})</tool_call>', '\n<tool_call>look({})</tool_call>'],
    ['<think>unclosed\nx', 'unclosed\nx'],
    ['</think>x', 'x'],
    ['<think>a<think>b</think>c</think>d', 'cd'],
    ["don't <think>secret</think> can't", "don't <think>secret</think> can't"],
    ['<tool_call>edit({ content: "<think>x</think>" })</tool_call>', '<tool_call>edit({ content: "<think>x</think>" })</tool_call>'],
    ['run({ c: <<EOF\n<think>kept</think>\nEOF })<think>gone</think>', 'run({ c: <<EOF\n<think>kept</think>\nEOF })'],
    ['<thinking>x</thinking><THINK>y</THINK><think >z', '<thinking>x</thinking><THINK>y</THINK><think >z'],
    ['a "unterminated <think>b</think> c', 'a "unterminated  c'],
    ['<think>x "quoted </think>" y', '" y'],
    ['plain', 'plain'],
  ];
  for (const [input, expected] of table) {
    it(JSON.stringify(input), () => expect(stripThinkingTags(input)).toBe(expected));
  }

  it('returns the very same string when nothing is stripped', () => {
    const text = "it's <b>fine</b>";
    expect(stripThinkingTags(text)).toBe(text);
  });
});
