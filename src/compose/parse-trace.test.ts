import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse.js';

const TOOLS = ['run', 'look'];

describe('parseToolCalls with trace: true', () => {
  it('returns the same result plus the walk trace, one entry per unit in document order', () => {
    const text = '<tool_call>run({ command: "a" })</tool_call>\nSome prose.\n<tool_call>look({"path": "x"</tool_call>';
    const plain = parseToolCalls(text, { tools: TOOLS });
    const { trace, ...rest } = parseToolCalls(text, { tools: TOOLS, trace: true });
    expect(rest).toEqual(plain);
    expect(trace.map((e) => [e.account, e.outcome])).toEqual([
      ['call', 'call'],
      ['drop', 'salvaged_as_prose'],
      ['drop', 'unparsed_call_block'],
    ]);
    expect(trace[0]!.rung).toBe('fast-path');
    expect(trace[1]!.rung).toBe('salvage');
    expect(text.slice(trace[0]!.start, trace[0]!.end)).toBe('<tool_call>run({ command: "a" })</tool_call>');
    for (let i = 1; i < trace.length; i++) expect(trace[i]!.start).toBeGreaterThanOrEqual(trace[i - 1]!.end);
  });

  it('reads prose between regions as without a trace: a mid-line < stays in its line', () => {
    const text = '<think>Plan.</think>\nUse `Vec<u8>` here.\nIf a < b, swap.\n<tool_call>\n{"name": "run", "arguments": {"command": "ls"}}\n</tool_call>';
    const plain = parseToolCalls(text, { tools: TOOLS });
    const { trace, ...rest } = parseToolCalls(text, { tools: TOOLS, trace: true });
    expect(rest).toEqual(plain);
    expect(plain.prose).toBe('Use `Vec<u8>` here.\nIf a < b, swap.');
    // The run is one text unit, as the walk of it would have entered it.
    expect(trace).toContainEqual({ start: 1, end: 37, account: 'drop', outcome: 'salvaged_as_prose', text: 'Use `Vec<u8>` here.\nIf a < b, swap.', rung: 'salvage' });
  });

  it('shows the rung that recovered a call', () => {
    const { trace, calls } = parseToolCalls('run({ command: "ls" })', { tools: TOOLS, trace: true });
    expect(calls).toHaveLength(1);
    expect(trace).toEqual([{ start: 0, end: 22, account: 'call', outcome: 'call', rung: 'sniff' }]);
  });

  it('adds no key without the option and refuses a non-boolean', () => {
    expect('trace' in parseToolCalls('hi', { tools: TOOLS })).toBe(false);
    expect('trace' in parseToolCalls('hi', { tools: TOOLS, trace: false })).toBe(false);
    expect(() => parseToolCalls('hi', { trace: 'yes' } as never)).toThrow(TypeError);
    expect(() => parseToolCalls('hi', { trace: 'yes' } as never)).toThrow(/options\.trace/);
  });

  it('records nothing for a lane that does not walk units', () => {
    const { trace, calls } = parseToolCalls('{"name": "run", "arguments": {"command": "ls"}}', { tools: TOOLS, tool_format: 'json', trace: true });
    expect(calls).toHaveLength(1);
    expect(trace).toEqual([]);
  });
});
