import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse.js';

const TOOLS = [
  { name: 'run', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
  { name: 'verify', parameters: { type: 'object', properties: {} } },
];
const RESULT_KEYS = ['calls', 'canonical_text', 'done_marker', 'dropped', 'prose', 'protocol_violations', 'recovered_from_stray_count', 'tool_parse_errors', 'user_response'];

describe('parseToolCalls: the boundary', () => {
  it('returns exactly the contract keys', () => {
    // The gateway profile (the default) adds `reasoning`; harn returns the reference's keys.
    const gatewayKeys = [...RESULT_KEYS, 'reasoning'].sort();
    expect(Object.keys(parseToolCalls('hello')).sort()).toEqual(gatewayKeys);
    expect(Object.keys(parseToolCalls('hello', { tool_format: 'json' })).sort()).toEqual(gatewayKeys);
    expect(Object.keys(parseToolCalls('hello', { tool_format: 'adaptive' })).sort()).toEqual(gatewayKeys);
    expect(Object.keys(parseToolCalls('hello', { profile: 'harn' })).sort()).toEqual(RESULT_KEYS);
    expect(Object.keys(parseToolCalls('hello', { profile: 'harn', tool_format: 'adaptive' })).sort()).toEqual(RESULT_KEYS);
  });

  it('stamps consecutive ids from call_id_start in document order', () => {
    const text = '<tool_call>run({ command: "a" })</tool_call>\n<tool_call>run({ command: "b" })</tool_call>\nrun({ command: "c" })';
    const r = parseToolCalls(text, { tools: TOOLS, call_id_start: 7 });
    expect(r.calls.map((c) => [c.id, c.arguments.command])).toEqual([['tc_7', 'a'], ['tc_8', 'b'], ['tc_9', 'c']]);
    expect(parseToolCalls(text, { tools: TOOLS }).calls.map((c) => c.id)).toEqual(['tc_0', 'tc_1', 'tc_2']);
  });

  it('names missing required arguments of a call with empty arguments, once, and keeps the call', () => {
    const r = parseToolCalls('<tool_call>run({})</tool_call>\n<tool_call>run({})</tool_call>\n<tool_call>verify({})</tool_call>', { tools: TOOLS });
    expect(r.calls.map((c) => c.name)).toEqual(['run', 'run', 'verify']);
    expect(r.tool_parse_errors).toHaveLength(1);
    expect(r.tool_parse_errors[0]).toContain('run');
    expect(r.tool_parse_errors[0]).toContain('command');
  });

  it('refuses adaptive with an error and the trimmed text as prose', () => {
    const r = parseToolCalls('  <tool_call>run({ command: "a" })</tool_call>  ', { tools: TOOLS, tool_format: 'adaptive' });
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors).toHaveLength(1);
    expect(r.tool_parse_errors[0]).toContain('adaptive');
    expect(r.prose).toBe('<tool_call>run({ command: "a" })</tool_call>');
  });

  it.each(['text', '', 'native', 'something-new'])('tool_format %j reads the tagged lane', (format) => {
    const r = parseToolCalls('<tool_call>run({ command: "a" })</tool_call>', { tools: TOOLS, tool_format: format });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ command: 'a' }]);
    expect(r.protocol_violations).toEqual([]);
  });

  it('json reads the JSON lane', () => {
    const r = parseToolCalls('```tool\n{"name": "run", "args": {"command": "a"}}\n```', { tools: TOOLS, tool_format: 'json' });
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([['run', { command: 'a' }]]);
  });

  it('throws TypeError on programmer misuse only', () => {
    expect(() => parseToolCalls(42 as unknown as string)).toThrow(TypeError);
    expect(() => parseToolCalls('x', { tool_format: 3 as unknown as string })).toThrow(/tool_format/);
    expect(() => parseToolCalls('x', { call_id_start: -1 })).toThrow(/call_id_start/);
    expect(() => parseToolCalls('x', { call_id_start: 1.5 })).toThrow(/call_id_start/);
    expect(() => parseToolCalls('x', 'json' as never)).toThrow(/options/);
  });

  it('keeps __proto__ as an own argument key without touching prototypes', () => {
    const r = parseToolCalls('<tool_call>run({"__proto__": {"x": 1}, "command": "a"})</tool_call>', { tools: TOOLS });
    const args = r.calls[0]?.arguments as Record<string, unknown>;
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect((args as { x?: unknown }).x).toBeUndefined();
    expect(r.canonical_text).toContain('"__proto__": {');
  });

  it('never throws on hostile text', () => {
    for (const text of ['', '<', '</', '<tool_call>', '<tool_call><tool_call>', '```tool\n', '[TOOL_CALLS]', '<｜DSML｜', '<|message|>tool_call to=x', '<function=', '\u0000\uffff']) {
      expect(() => parseToolCalls(text, { tools: TOOLS })).not.toThrow();
    }
  });
});

describe('parseToolCalls: gateway prose keeps the response\'s order and words', () => {
  const tools = ['run', 'write_file'];
  it('keeps an unreadable ```tool block where the model wrote it, not after the text below it', () => {
    const text = 'Then:\n```tool\n{ "name": "write_file", "args": { "path": "a.txt", "content": "<<END:5" } }\n<<END:5\nbefore\nEND\n```';
    const gateway = parseToolCalls(text, { tools });
    expect(gateway.calls).toEqual([]);
    expect(gateway.prose.startsWith('Then:')).toBe(true);
    expect(gateway.prose.indexOf('```tool')).toBeLessThan(gateway.prose.indexOf('before'));
    const fenceDrop = (r: { dropped: readonly { text: string; reason: string }[] }) => r.dropped.findIndex((d) => d.reason === 'fenced_narration' && d.text.includes('```tool'));
    const laterDrop = (r: { dropped: readonly { text: string }[] }) => r.dropped.findIndex((d) => d.text.includes('before'));
    expect(fenceDrop(gateway)).toBeGreaterThanOrEqual(0);
    expect(fenceDrop(gateway)).toBeLessThan(laterDrop(gateway));
    // The reference sets the block after the rest of the turn.
    const harn = parseToolCalls(text, { tools, profile: 'harn' });
    expect(fenceDrop(harn)).toBeGreaterThan(laterDrop(harn));
  });

  it('keeps the lines above a bare call that does not read as prose, after another grammar\'s block', () => {
    const text = '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>run\n```json\n{"command": "ls"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>Then:\nrun({ command: "x \\uD83D y" })';
    const result = parseToolCalls(text, { tools });
    expect(result.calls.map((c) => c.name)).toEqual(['run']);
    expect(result.prose).toBe('Then:');
    expect(result.tool_parse_errors).toHaveLength(1);
  });
});

describe('a bare call a method chain goes on from', () => {
  const program = '```js\nsearch({ query: "weather in Paris", limit: 5 })\n  .then((results) => console.log(results));\n```';

  it('is the program\'s text under gateway: no call, the block kept as written', () => {
    const r = parseToolCalls(program, { tools: ['search'], profile: 'gateway' });
    expect(r.calls).toEqual([]);
    expect(r.prose).toBe(program);
  });

  it('leaves a call whose next line begins otherwise a call', () => {
    const r = parseToolCalls('search({ query: "x" })\n.5 is the weight.', { tools: ['search'], profile: 'gateway' });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ query: 'x' }]);
  });
});
