import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderPyCall, seededPick } from '../../../test/support/py-render.js';
import { composeContext } from '../context.js';
import { parseToolCalls } from '../parse.js';
import { fieldRegions } from './lane.js';

const tools = [{ name: 'look' }, { name: 'run' }];
const gateway = (text: string, withTools: unknown = tools) => parseToolCalls(text, { tools: withTools, profile: 'gateway' });
const pairs = (text: string, withTools: unknown = tools) => gateway(text, withTools).calls.map((c) => [c.name, c.arguments]);

describe('field lane: look-alikes in plain prose', () => {
  it('reads a JSON call object at a line start, with prose around it', () => {
    const result = gateway('Sure:\n{"name": "look", "arguments": {"path": "a"}}\nDone.');
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'a' }]]);
    expect(result.prose).toBe('Sure:\n\nDone.');
    expect(result.tool_parse_errors).toEqual([]);
  });

  it('reads Llama 3 objects chained by semicolons, and xLAM lists', () => {
    expect(pairs('{"name": "look", "parameters": {"path": "a"}}; {"name": "run", "parameters": {"cmd": "ls"}}')).toEqual([['look', { path: 'a' }], ['run', { cmd: 'ls' }]]);
    expect(pairs('[{"name": "look", "arguments": {"path": "a"}}, {"name": "run", "arguments": "{\\"cmd\\": \\"ls\\"}"}]')).toEqual([['look', { path: 'a' }], ['run', { cmd: 'ls' }]]);
  });

  it('drops only the item of an unregistered name from a list or chain, never the calls beside it', () => {
    const look = '{"name": "look", "arguments": {"path": "a"}}';
    const unknown = '{"name": "rm_rf", "arguments": {}}';
    for (const text of [`[${look}, ${unknown}]`, `${look}; ${unknown}`]) {
      const result = gateway(text);
      expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'a' }]]);
      expect(result.tool_parse_errors).toHaveLength(1);
      expect(result.dropped).toEqual([{ text: unknown, reason: 'unknown_tool' }]);
    }
  });

  it('reads a name-keyed object, a pythonic list, and the OpenAI carrier', () => {
    expect(pairs('{"look": {"path": "q"}}')).toEqual([['look', { path: 'q' }]]);
    expect(pairs("[look(path='a'), run(cmd=\"ls\")]")).toEqual([['look', { path: 'a' }], ['run', { cmd: 'ls' }]]);
    expect(pairs('{"type": "function", "function": {"name": "look", "arguments": "{\\"path\\": \\"z\\"}"}}')).toEqual([['look', { path: 'z' }]]);
  });

  it("reads llama.cpp's generic envelopes as the whole response, and in prose for a registered name", () => {
    expect(pairs('{"tool_call": {"name": "look", "arguments": {"path": "x"}}}')).toEqual([['look', { path: 'x' }]]);
    expect(pairs('\n {"tool_calls": [{"name": "run", "arguments": {"cmd": "ls"}, "id": "c1"}]}\n'.trim())).toEqual([['run', { cmd: 'ls' }]]);
    const answer = gateway('{"response": "Hello there."}');
    expect(answer.prose).toBe('Hello there.');
    expect(answer.calls).toEqual([]);
    // In prose the registry admits the envelope's names, as it does a bare call object's; the
    // native sniffer once took the inner object alone and left `{"tool_call": }` in the prose.
    const inProse = gateway('Before.\n{"tool_call": {"name": "look", "arguments": {"path": "x"}}}\nAfter.');
    expect(inProse.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'x' }]]);
    expect(inProse.prose).toBe('Before.\n\nAfter.');
    const list = gateway('Both:\n{"tool_calls": [{"name": "look", "arguments": {"path": "a"}}, {"name": "run", "arguments": {}}]}\nDone.');
    expect(list.calls.map((c) => c.name)).toEqual(['look', 'run']);
    expect(list.prose).toBe('Both:\n\nDone.');
    // An unregistered name in prose is a mention: the envelope stays prose whole, with no error.
    const mention = 'Mention:\n{"tool_call": {"name": "other", "arguments": {"x": 1}}}';
    expect(fieldRegions(mention, composeContext(tools, '', null, 'gateway')).flatMap((r) => r.calls)).toEqual([]);
    const read = gateway(`${mention}\nDone.`);
    expect([read.calls, read.tool_parse_errors, read.protocol_violations]).toEqual([[], [], []]);
    expect(read.prose).toContain('{"tool_call": {"name": "other", "arguments": {"x": 1}}}');
    // With no registry only the whole response is read; in prose it stays text.
    expect(gateway('Before.\n{"tool_call": {"name": "look", "arguments": {"path": "x"}}}', null).calls).toEqual([]);
  });

  it('leaves no wrapper in the prose when a registered call is nested in other JSON (the rest lane sniffs it)', () => {
    for (const nested of ['{"calls": [{"name": "look", "arguments": {"path": "a"}}]}', '{"action": {"name": "look", "arguments": {"path": "a"}}}', '[{"tool_call": {"name": "look", "arguments": {"path": "a"}}}]']) {
      const result = gateway(`Before.\n${nested}\nAfter.`);
      expect(result.calls.map((c) => [c.name, c.arguments]), nested).toEqual([['look', { path: 'a' }]]);
      expect(result.prose, nested).toBe('Before.\n\nAfter.');
    }
  });

  it('with no registry, reads a call only when it is the whole response', () => {
    expect(pairs('{"name": "anything", "arguments": {"x": 1}}', null)).toEqual([['anything', { x: 1 }]]);
    expect(pairs('[any_tool(x=1)]', null)).toEqual([['any_tool', { x: 1 }]]);
    const quoted = gateway('For example:\n{"name": "anything", "arguments": {"x": 1}}', null);
    expect(quoted.calls).toEqual([]);
    expect(quoted.prose).toContain('"anything"');
    expect(quoted.tool_parse_errors).toEqual([]);
  });

  it('reports an unregistered name when the call is the whole response: an error and a drop, not prose', () => {
    for (const text of ['{"name": "rm_rf", "arguments": {"path": "/"}}', '[rm_rf(path="/")]']) {
      const result = gateway(text);
      expect(result.calls).toEqual([]);
      expect(result.tool_parse_errors.some((e) => e.includes("'rm_rf'"))).toBe(true);
      expect(result.dropped.map((d) => d.reason)).toEqual(['unknown_tool']);
      expect(result.prose).toBe('');
    }
  });

  it('leaves a quoted unregistered name, a JSON Schema and an unparsed value as prose, with no error', () => {
    for (const text of [
      'For example:\n{"name": "rm_rf", "arguments": {"path": "/"}}',
      'The tool:\n{"name": "look", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}',
      'Like this:\n[rm_rf(path="/")]',
      '[look(path=some_variable)]',
    ]) {
      const result = gateway(text);
      expect(result.calls).toEqual([]);
      expect(result.tool_parse_errors).toEqual([]);
      expect(result.prose).toContain(text.split('\n').at(-1)!);
    }
  });

  it('turns a registered call cut off by the end of the text into a truncation error and a drop', () => {
    for (const text of ['{"name": "look", "arguments": {"path": "a', "[look(path='a"]) {
      const result = gateway(text);
      expect(result.calls).toEqual([]);
      expect(result.tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL TRUNCATED:.*'look'/)]);
      expect(result.dropped).toEqual([{ text, reason: 'unparsed_call_block' }]);
      expect(result.prose).toBe('');
    }
  });

  it('reads a value in a ```json fence: the fence lines are dropped beside calls, kept with a value that stays prose', () => {
    for (const value of ['[{"name": "look", "arguments": {"path": "a"}}]', '{"name": "look", "arguments": {"path": "a"}}', '{"tool_calls": [{"name": "look", "arguments": {"path": "a"}}]}']) {
      const result = gateway(`Here you go:\n\`\`\`json\n${value}\n\`\`\``);
      expect(result.calls.map((c) => [c.name, c.arguments]), value).toEqual([['look', { path: 'a' }]]);
      expect(result.prose, value).toBe('Here you go:');
      expect(result.dropped.filter((d) => d.reason === 'fenced_narration'), value).toEqual([
        { text: '```json', reason: 'fenced_narration' },
        { text: '```', reason: 'fenced_narration' },
      ]);
    }
    const schema = '```json\n{"name": "look", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}\n```';
    expect(gateway(schema).prose).toBe(schema);
    // A fence the value does not fill is read as before: the value from its own line.
    const more = gateway('```json\n{"name": "look", "arguments": {"path": "a"}}\nnot json\n```');
    expect(more.calls.map((c) => c.name)).toEqual(['look']);
    // A fence the end of the text cut after a complete value: the call, recovered.
    const open = gateway('```json\n{"name": "look", "arguments": {"path": "a"}}\n');
    expect(open.calls.map((c) => c.name)).toEqual(['look']);
    expect(open.protocol_violations.map((v) => v.kind)).toEqual(['recovered_dialect']);
  });

  it('treats a name-keyed JSON Schema as a declaration, never a call', () => {
    const schema = '{"look": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}';
    for (const text of [schema, `Schema:\n${schema}\nOk?`, `\`\`\`json\n${schema}\n\`\`\``]) {
      const result = gateway(text);
      expect(result.calls, text).toEqual([]);
      expect(result.tool_parse_errors, text).toEqual([]);
      expect(result.prose, text).toContain(schema);
    }
  });

  it('repairs what has one reading (trailing commas, Python quotes and literals), as <tool_call> bodies do', () => {
    expect(pairs('{"name": "look", "arguments": {"path": "a",}}')).toEqual([['look', { path: 'a' }]]);
    expect(pairs("{'name': 'look', 'arguments': {'path': 'a', 'all': True}}")).toEqual([['look', { path: 'a', all: true }]]);
    expect(pairs('[{"name": "look", "arguments": {"path": "a"}},]')).toEqual([['look', { path: 'a' }]]);
    expect(pairs("Sure:\n[{'name': 'run', 'arguments': {'cmd': 'ls'}}]")).toEqual([['run', { cmd: 'ls' }]]);
    // Still no call: an unregistered name in prose, a Python-quoted schema, a key written twice.
    expect(pairs("For example:\n{'name': 'rm_rf', 'arguments': {'path': '/'}}")).toEqual([]);
    expect(pairs("The tool:\n{'name': 'look', 'parameters': {'type': 'object', 'properties': {'path': {'type': 'string'}}}}")).toEqual([]);
    expect(pairs("{'name': 'look', 'arguments': {'path': 'a', 'path': 'b'}}")).toEqual([]);
    // A Python-quoted call cut off is truncation, as a JSON one is.
    expect(gateway("{'name': 'look', 'arguments': {'path': 'a").tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL TRUNCATED:.*'look'/)]);
  });

  it('reads objects separated by commas with no brackets, the comma no prose; a comma before prose stays prose', () => {
    const result = gateway('{"name": "look", "arguments": {"path": "a"}}, {"name": "run", "arguments": {"cmd": "ls"}}');
    expect(result.calls.map((c) => c.name)).toEqual(['look', 'run']);
    expect(result.prose).toBe('');
    const sentence = gateway('Sure:\n{"name": "look", "arguments": {"path": "a"}}, and then I read it.');
    expect(sentence.calls.map((c) => c.name)).toEqual(['look']);
    expect(sentence.prose).toContain(', and then I read it.');
  });

  it('reads "arguments": "" and null as no arguments', () => {
    expect(pairs('{"name": "run", "arguments": ""}')).toEqual([['run', {}]]);
    expect(pairs('Sure:\n{"name": "run", "arguments": null}')).toEqual([['run', {}]]);
  });

  it('probes only at a line start: mid-line JSON reads as before', () => {
    const text = 'I would send {"name": "look", "arguments": {"path": "a"}} here.';
    expect(fieldRegions(text, composeContext(tools, '', null, 'gateway'))).toEqual([]);
  });
});

describe('look-alike properties', () => {
  const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
  const args = fc.dictionary(ident, fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 })), { maxKeys: 3 });
  const prose = fc.array(fc.constantFrom('Let', 'me', 'check.', 'Done', 'ok'), { maxLength: 5 }).map((w) => w.join(' '));

  it('reads back random calls in every look-alike shape between prose lines', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('look', 'run'), args), { minLength: 1, maxLength: 3 }), fc.nat(3), prose, prose, fc.integer(), (calls, shape, before, after, seed) => {
        const rendered = [
          () => calls.map(([name, a]) => JSON.stringify({ name, parameters: a })).join('; '),
          () => JSON.stringify(calls.map(([name, a]) => ({ name, arguments: a }))),
          () => `[${calls.map(([name, a]) => renderPyCall(name, a, { pick: seededPick(seed) })).join(', ')}]`,
          () => JSON.stringify(calls.map(([name, a]) => ({ [name]: a }))),
        ][shape]!();
        const result = gateway([before, rendered, after].filter((p) => p !== '').join('\n'));
        expect(result.tool_parse_errors).toEqual([]);
        expect(result.calls.map((c) => [c.name, c.arguments])).toEqual(calls);
        expect(result.prose).toBe([before, after].filter((p) => p !== '').join('\n\n'));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on random fragments of call-shaped JSON and pythonic text', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', '"name"', '"arguments"', '"parameters"', '"tool_calls"', '"look"', ':', ',', ';', '"', 'look(', 'x=1', ')', '\n', ' ', '"type": "object"');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.boolean(), (pieces, withTools) => {
        const result = gateway(pieces.join(''), withTools ? tools : null);
        expect(Array.isArray(result.calls)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
