/**
 * The README's dialect table says only what is true: each row's example stands in the table
 * verbatim and parses as the row says (`tools: ["look", "edit"]`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseToolCalls, type ParseOptions } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const table = readme.slice(readme.indexOf('## Supported dialects'), readme.indexOf('Every violation kind, drop reason'));
const tools = ['look', 'edit'];
const LOOK = [['look', { path: 'a.rs' }]];

/** [example as written in the table, options, expected [name, arguments] pairs]. */
const ROWS: [string, ParseOptions, unknown[]][] = [
  ['<tool_call>look({"path": "a.rs"})</tool_call>', {}, LOOK],
  ['<tool_call>edit({"path": "a"', {}, []],
  ['<function=look><parameter=path>a.rs</parameter></function>', {}, LOOK],
  ['<invoke name="look"><parameter name="path">a.rs</parameter></invoke>', {}, LOOK],
  ['<look({"path": "a.rs"})>', {}, LOOK],
  ['[[CALL]look({"path": "a.rs"})', {}, LOOK],
  ['<|start|>assistant<|channel|>commentary to=functions.look<|message|>{"path": "a.rs"}<|call|>', {}, LOOK],
  ['<|start|>assistant<|channel|>commentary to=functions.look<|message|>{"path": "a.rs"}<|call|>', { profile: 'harn' }, []],
  ['<think>hmm</think><tool_call>look({"path": "a.rs"})</tool_call>', {}, LOOK],
  ['look({"path": "a.rs"})', {}, LOOK],
  ['look(path="a.rs")', {}, LOOK],
  ['look(path="a.rs")', { profile: 'harn' }, []],
  ['tool_code: look({"path": "a.rs"})', {}, LOOK],
  ['<tool_calls>[{"name": "look", "arguments": {"path": "a.rs"}}]</tool_calls>', {}, LOOK],
  ['[{"type": "function", "function": {"name": "look", "arguments": "{\\"path\\": \\"a.rs\\"}"}}]', {}, LOOK],
  ['{"name": "look", "arguments": {"path": "a.rs"}}', {}, LOOK],
  ['{"tool": "look", "path": "a.rs"}', { tool_format: 'json' }, LOOK],
  ['{"tool": "look", "path": "a.rs"}', {}, []],
  ['[TOOL_CALLS][{"name": "look", "arguments": {"path": "a.rs"}}]', {}, LOOK],
  ['[TOOL_CALLS]look[ARGS]{"path": "a.rs"}', {}, LOOK],
  ['<｜DSML｜invoke name="look"><｜DSML｜parameter name="path" string="true">a.rs</｜DSML｜parameter></｜DSML｜invoke>', {}, LOOK],
  ['<tool_call>functions.look({"path": "a.rs"})</tool_call>', {}, LOOK],
  ['<tool_call>functions.look({"path": "a.rs"})</tool_call>', { profile: 'harn' }, []],
];

describe('README dialect table', () => {
  for (const [example, options, expected] of ROWS) {
    it(`${example} ${JSON.stringify(options)}`, () => {
      // Table cells escape nothing but backslashes inside JSON strings, which stay as written.
      expect(table).toContain(example);
      const result = parseToolCalls(example, { tools, ...options });
      expect(result.calls.map((c) => [c.name, c.arguments])).toEqual(expected);
    });
  }

  it("<tool_use> with Anthropic's input key: the arguments come back under input, as the row says", () => {
    expect(table).toContain('<tool_use>{"name": "look", "input": {…}}</tool_use>');
    const result = parseToolCalls('<tool_use>{"name": "look", "input": {"path": "a.rs"}}</tool_use>', { tools });
    expect(result.calls.map((c) => c.arguments)).toEqual([{ input: { path: 'a.rs' } }]);
  });

  it('entities: harn decodes them in a JSON body of a <tool_call> block only; gateway in Anthropic XML only', () => {
    expect(table).toContain('{"path": "a &amp; b"}');
    const body = '<tool_call>{"name": "look", "arguments": {"path": "a &amp; b"}}</tool_call>';
    expect(parseToolCalls(body, { tools, profile: 'harn' }).calls[0]?.arguments).toEqual({ path: 'a & b' });
    expect(parseToolCalls(body, { tools }).calls[0]?.arguments).toEqual({ path: 'a &amp; b' });
    const xml = '<function_calls><invoke name="look"><parameter name="path">a &amp; b</parameter></invoke></function_calls>';
    expect(parseToolCalls(xml, { tools }).calls[0]?.arguments).toEqual({ path: 'a & b' });
    expect(parseToolCalls('<tool_call>look({"path": "a &amp; b"})</tool_call>', { tools }).calls[0]?.arguments).toEqual({ path: 'a &amp; b' });
    expect(parseToolCalls('<function=look><parameter=path>a &amp; b</parameter></function>', { tools }).calls[0]?.arguments).toEqual({ path: 'a &amp; b' });
  });

  it('the profile table names both profiles', () => {
    expect(readme).toMatch(/\| +\| `gateway` \(default\) \| `harn`/);
  });
});
