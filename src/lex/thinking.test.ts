import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanHeredoc } from './heredoc.js';
import { skipStringSpan } from './string-span.js';
import { stripThinkingTags } from './thinking.js';

describe('stripThinkingTags', () => {
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

/** The stripping rule (docs/design.md, "Thinking tags") written plainly: no memos, one character at a time. */
function naiveStrip(text: string): string {
  if (!text.includes('<think>') && !text.includes('</think>')) return text;
  let out = '';
  let inThink = false;
  let i = 0;
  while (i < text.length) {
    if (inThink) {
      if (text.startsWith('</think>', i)) {
        i += 8;
        inThink = false;
      } else i++;
      continue;
    }
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = skipStringSpan(text, i);
      if (end !== -1) {
        out += text.slice(i, end);
        i = end;
        continue;
      }
    }
    if (text.startsWith('<<', i)) {
      const heredoc = scanHeredoc(text, i);
      if (heredoc !== null && heredoc.ok) {
        out += text.slice(i, heredoc.end);
        i = heredoc.end;
        continue;
      }
    }
    if (text.startsWith('<think>', i)) {
      i += 7;
      if (text.indexOf('</think>', i) !== -1) inThink = true;
      continue;
    }
    if (text.startsWith('</think>', i)) {
      i += 8;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

describe('stripThinkingTags agrees with the plain algorithm', () => {
  it('on text dense in markers, quotes and heredocs', () => {
    const pieces = ['<think>', '</think>', '"', "'", '`', '\\', '<<EOF\n', 'EOF\n', '<<E:1\n', '})', 'x', '\n', '<', 'don\'t '];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(stripThinkingTags(text)).toBe(naiveStrip(text));
      }),
      { numRuns: 5000 },
    );
  });
});
