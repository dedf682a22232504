/**
 * The `call-objects` reader and the token-section heads whose bodies are call objects: the
 * shapes of section 2 and 7 of the field grammars, the lenient rung, and the bodies that belong
 * to another family (the reader must leave them).
 */
import { describe, expect, it } from 'vitest';
import { composeContext } from '../context.js';
import { parseToolCalls } from '../parse.js';
import { toolShapeFinding } from '../tool-shape.js';
import { fieldRegions } from './lane.js';

const tools = [{ name: 'get_weather' }, { name: 'search' }];
const gateway = (text: string) => parseToolCalls(text, { tools, profile: 'gateway' });
const pairs = (text: string) => gateway(text).calls.map((c) => [c.name, c.arguments]);
const W = '{"name": "get_weather", "arguments": {"city": "Paris"}}';
const S = '{"name": "search", "arguments": {"query": "q"}}';

describe('Hermes <tool_call>', () => {
  it('reads a mid-line chain of complete pairs', () => {
    const result = gateway(`Let me look.<tool_call>${W}</tool_call><tool_call>${S}</tool_call>`);
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather', 'search']);
    expect(result.prose).toBe('Let me look.');
  });

  it('reads several objects in one block, and arguments written as a JSON string', () => {
    expect(pairs(`<tool_call>${W}\n{"name": "search", "arguments": "{\\"query\\": \\"q\\"}"}</tool_call>`)).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['search', { query: 'q' }],
    ]);
  });

  it('repairs what has one reading: trailing commas and a Python-quoted dict', () => {
    expect(pairs(`<tool_call>{"name": "get_weather", "arguments": {"city": "Paris",},}</tool_call>`)).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(pairs(`<tool_call>{'name': 'search', 'arguments': {'query': 'it\\'s', 'exact': True, 'page': None}}</tool_call>`)).toEqual([
      ['search', { query: "it's", exact: true, page: null }],
    ]);
  });

  it('reads a body in a ```json fence, the fence lines dropped as markers of no call', () => {
    const result = gateway(`<tool_call>\n\`\`\`json\n${W}\n\`\`\`\n</tool_call>`);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(result.prose).toBe('');
    expect(result.dropped).toEqual([
      { text: '```json', reason: 'fenced_narration' },
      { text: '```', reason: 'fenced_narration' },
    ]);
    expect(result.tool_parse_errors).toEqual([]);
  });

  it('reads "arguments": "" and null as no arguments', () => {
    expect(pairs('<tool_call>{"name": "search", "arguments": ""}</tool_call>')).toEqual([['search', {}]]);
    expect(pairs('<tool_call>{"name": "search", "arguments": null}</tool_call>')).toEqual([['search', {}]]);
    // A null slot beside a real one is no second reading.
    expect(pairs('<tool_call>{"name": "search", "arguments": null, "parameters": {"query": "q"}}</tool_call>')).toEqual([['search', { query: 'q' }]]);
  });

  it('does not guess between two readings: both arguments and parameters, or a key twice', () => {
    const both = gateway(`<tool_call>{"name": "search", "arguments": {"query": "a"}, "parameters": {"query": "b"}}</tool_call>`);
    expect(both.calls).toEqual([]);
    expect(both.tool_parse_errors[0]).toMatch(/^TOOL CALL PARSE ERROR/);
    const twice = gateway(`<tool_call>{'name': 'search', 'arguments': {'query': 'a', 'query': 'b'}}</tool_call>`);
    expect(twice.calls).toEqual([]);
    expect(twice.tool_parse_errors[0]).toMatch(/^TOOL CALL PARSE ERROR/);
  });

  it('refuses a JSON Schema under parameters: it describes the tool, it does not call it', () => {
    const result = gateway(`<tool_call>{"name": "search", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}</tool_call>`);
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toHaveLength(1);
    expect(result.dropped.map((d) => d.reason)).toEqual(['unparsed_call_block']);
  });

  it('reports an object that is not a call object, and text between the objects and the close', () => {
    const result = gateway(`<tool_call>{"city": "Paris"}</tool_call><tool_call>${W} and more</tool_call>`);
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(result.tool_parse_errors).toHaveLength(2);
    expect(result.prose).toBe('');
  });

  it('leaves a body that is not JSON to the other families', () => {
    const ctx = composeContext(tools, 'tagged', null, 'gateway');
    const bodies: [string, string][] = [
      ['<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>', 'qwen3-coder'],
      ['<tool_call>get_weather\n<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>', 'glm'],
    ];
    for (const [text, owner] of bodies) {
      expect(fieldRegions(text, ctx).map((region) => region.grammar)).toEqual([owner]);
    }
  });

});

describe('lists and their variants', () => {
  it('Nemotron: a missing [ or ] is tolerated', () => {
    expect(pairs(`<TOOLCALL>${W}, ${S}]</TOOLCALL>`).map((p) => p[0])).toEqual(['get_weather', 'search']);
    expect(pairs(`<TOOLCALL>[${W}, ${S}</TOOLCALL>`).map((p) => p[0])).toEqual(['get_weather', 'search']);
  });

  it('MiniMax M1: one object per line inside <tool_calls>', () => {
    expect(pairs(`<tool_calls>\n${W}\n${S}\n</tool_calls>`).map((p) => p[0])).toEqual(['get_weather', 'search']);
  });

  it('Llama 3.x: objects joined by ;', () => {
    expect(pairs(`<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "search", "parameters": {"query": "q"}}`).map((p) => p[0])).toEqual([
      'get_weather',
      'search',
    ]);
  });

  it('LFM2: a pythonic body is not this family but the value grammar\'s', () => {
    const ctx = composeContext(tools, 'tagged', null, 'gateway');
    expect(fieldRegions('<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>', ctx).map((r) => r.grammar)).toEqual(['lfm2-pythonic']);
    expect(pairs(`<|tool_call_start|>[${W}]<|tool_call_end|>`)).toEqual([['get_weather', { city: 'Paris' }]]);
  });

  it('the OpenAI wrapper is read', () => {
    expect(pairs(`<tool_calls>[{"type": "function", "function": {"name": "search", "arguments": "{\\"query\\": \\"q\\"}"}}]</tool_calls>`)).toEqual([['search', { query: 'q' }]]);
  });
});

describe('Mistral', () => {
  it('pre-v11 list, with prose after it', () => {
    const result = gateway(`[TOOL_CALLS] [${W}, ${S}]\nBoth are running.`);
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather', 'search']);
    expect(result.prose).toBe('Both are running.');
  });

  it('a few characters of junk before the list, and a fence around it', () => {
    expect(pairs(`[TOOL_CALLS]json\n[${W}]`).map((p) => p[0])).toEqual(['get_weather']);
    const fenced = gateway(`[TOOL_CALLS]\`\`\`json\n[${W}]\n\`\`\``);
    expect(fenced.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(fenced.prose).toBe('');
  });

  it('a repeated [TOOL_CALLS] marker opens one call', () => {
    expect(pairs('[TOOL_CALLS][TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}')).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(pairs(`[TOOL_CALLS] [TOOL_CALLS] [${W}]`)).toEqual([['get_weather', { city: 'Paris' }]]);
  });

  it('special tokens skipped: NAME{JSON}, after Magistral reasoning', () => {
    expect(pairs('[TOOL_CALLS]get_weather{"city": "Paris"}[TOOL_CALLS]search{"query": "q"}').map((p) => p[0])).toEqual(['get_weather', 'search']);
  });
});

describe('token-section heads with call-object bodies', () => {
  it('Inkling: the header name must match the body', () => {
    const result = gateway('<|message_model|>search<|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Paris"}}<|end_message|>');
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors[0]).toMatch(/^TOOL CALL PARSE ERROR/);
  });

  it('Functionary: all is visible text', () => {
    const result = gateway('>>>all\nLet me check.\n>>>get_weather\n{"city": "Paris"}');
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(result.prose).toBe('Let me check.');
  });

  it('Functionary: an unregistered recipient glued to >>> with JSON arguments meets the registry rule', () => {
    const refused = gateway('>>>rm_rf\n{"path": "/"}');
    expect(refused.calls).toEqual([]);
    expect(refused.tool_parse_errors[0]).toContain("'rm_rf'");
    expect(refused.dropped).toEqual([{ text: '>>>rm_rf\n{"path": "/"}', reason: 'unknown_tool' }]);
    expect(parseToolCalls('>>>rm_rf\n{"path": "/"}', { profile: 'gateway' }).calls.map((c) => [c.name, c.arguments])).toEqual([['rm_rf', { path: '/' }]]);
  });

  it('Functionary: a Python prompt, or an unregistered recipient whose arguments do not read, is not this grammar', () => {
    for (const text of ['>>> d\n{"a": 1}', ">>>d\n{'a': 1}", '>>> print(d)\n{"a": 1}']) {
      for (const withTools of [tools, null]) {
        const result = parseToolCalls(text, { tools: withTools, profile: 'gateway' });
        expect(result.calls).toEqual([]);
        expect(result.tool_parse_errors).toEqual([]);
        expect(result.dropped.filter((d) => d.reason === 'unknown_tool')).toEqual([]);
      }
    }
    expect(gateway('>>> d\n{"a": 1}').prose).toContain('>>> d');
  });

  it('CWM: a rest that is not JSON is the command', () => {
    expect(pairs('<tool: bash>\nsearch rain in Paris\n</tool>')).toEqual([['search', { command: 'rain in Paris' }]]);
  });
});

describe('tool-shape findings for field markers', () => {
  it('dropped text holding a field marker is call syntax under the gateway profile only', () => {
    const drop = [{ text: 'then <|tool_calls_section_begin|> and nothing', reason: 'salvaged_as_prose' as const }];
    expect(toolShapeFinding(drop, { fieldGrammars: true })?.shape).toBe('call_markup');
    expect(toolShapeFinding(drop)).toBeNull();
  });
});

describe('end markers missing where the body cannot tell', () => {
  it('CWM: a command string with no close may have been cut anywhere, so it is a truncation', () => {
    const result = gateway('<tool: bash>\nsearch rain in');
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors[0]).toMatch(/^TOOL CALL TRUNCATED/);
  });

  it('CWM: JSON arguments followed by more text before the end are not read as a lost close', () => {
    expect(gateway('<tool: tool>\nget_weather {"city": "Paris"} and then').calls).toEqual([]);
  });
});

describe('Functionary: the first >>> in the prompt', () => {
  it('a response beginning with a registered recipient and its arguments reads as its first segment', () => {
    expect(pairs('get_weather\n{"city": "Paris"}>>>search\n{"query": "q"}')).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['search', { query: 'q' }],
    ]);
  });

  it('a response beginning with all carries prose', () => {
    const result = gateway('all\nLet me check.>>>get_weather\n{"city": "Paris"}');
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(result.prose).toBe('Let me check.');
  });

  it('an unregistered first line, or no registry, leaves the start to the other lanes', () => {
    const text = 'rm_rf\n{"path": "/"}>>>get_weather\n{"city": "Paris"}';
    expect(gateway(text).calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(gateway(text).tool_parse_errors).toEqual([]);
    expect(parseToolCalls(text, { profile: 'gateway' }).calls.map((c) => c.name)).toEqual(['get_weather']);
  });
});
