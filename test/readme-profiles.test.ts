/**
 * The examples of the README's profile table about prose and unreadable bodies stand in it
 * verbatim and parse as it says (gateway, no registry).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const table = readme.slice(readme.indexOf('### Profiles'), readme.indexOf('Known gap: under `gateway`'));

describe('README profile table', () => {
  it('a turn of only violations keeps its words, the marker cut out', () => {
    expect(table).toContain('`Done. </tool_call>` shows `Done.`');
    const result = parseToolCalls('Done. </tool_call>');
    expect(result.prose).toBe('Done.');
    expect(result.protocol_violations.map((v) => v.kind)).toContain('stray_text');
    expect(parseToolCalls('Done. </tool_call>', { profile: 'harn' }).prose).toBe('');
  });

  it('a tag named in a sentence is prose as written, with no violation', () => {
    for (const sentence of [
      'Use the `<tool_call>` tag.',
      'Qwen writes `<function=get_weather><parameter=city>Paris</parameter></function>` there.',
      'Wrap it in a <tool_call> tag.',
      'Every call begins with <tool_call>.',
      'MiniMax writes <invoke name="get_weather"> inside its block.',
      'It uses <arg_key> and <arg_value> tags.',
      'The tags are <tool_call>, <invoke> and <tools>.',
      'Close it with </tool_call> when done.',
    ]) {
      expect(table).toContain(sentence.includes('`<') ? `\`\` ${sentence} \`\`` : `\`${sentence}\``);
      const result = parseToolCalls(sentence);
      expect(result.prose, sentence).toBe(sentence);
      expect(result.protocol_violations, sentence).toEqual([]);
      expect(result.calls, sentence).toEqual([]);
    }
  });

  it('a blockquote line is a quotation, read as written', () => {
    const quoted = '> <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>';
    expect(table).toContain(`\`${quoted}\``);
    const result = parseToolCalls(quoted, { tools: ['get_weather'] });
    expect([result.calls, result.prose, result.tool_parse_errors, result.protocol_violations]).toEqual([[], quoted, [], []]);
  });

  it('a body inside a grammar\'s own markers that no reader takes is an error and a drop', () => {
    for (const written of ['<|tool_call_start|>oops<|tool_call_end|>', '<minimax:tool_call>nothing</minimax:tool_call>', '[TOOL_CALLS] nothing to call here']) {
      if (!written.startsWith('[')) expect(table).toContain(`\`${written}\``);
      const result = parseToolCalls(written);
      expect(result.calls, written).toEqual([]);
      expect(result.prose, written).toBe('');
      expect(result.tool_parse_errors[0], written).toMatch(/^TOOL CALL PARSE ERROR: /);
      expect(result.dropped.map((d) => d.reason), written).toEqual(['unparsed_call_block']);
    }
    expect(table).toContain('a line that `[TOOL_CALLS]` opens with no call on it');
  });

  it('the tags the reference also reads keep its reading', () => {
    const result = parseToolCalls('<tool_call>I will check the weather.</tool_call>');
    expect(result.tool_parse_errors).toEqual([]);
    expect(result.prose).toBe('I will check the weather.');
  });
});
