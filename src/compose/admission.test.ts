/**
 * The unknown-name matrix: every lane that can credit a call, written with a name the registry
 * does not hold, under every `tool_format` and both profiles. `gateway` never yields the call
 * (it is an error and an `unknown_tool` drop, never prose); the same text with a registered
 * name does yield it, so the matrix cannot pass by reading nothing.
 */
import { describe, expect, it } from 'vitest';
import { CALL_LANES } from '../../test/support/call-lanes.js';
import { parseToolCalls } from './parse.js';

const tools = [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

const LANES = CALL_LANES;

const FORMATS = ['text', 'json', 'native', '', 'something-else'];
const UNKNOWN = ['rm_rf', 'ledger', 'load_skill', 'bash'];

describe('unknown-name matrix', () => {
  for (const [lane, template] of Object.entries(LANES)) {
    for (const format of FORMATS) {
      for (const name of UNKNOWN) {
        it(`${lane}, tool_format ${JSON.stringify(format)}, '${name}': gateway never yields it`, () => {
          const text = template.replaceAll('NAME', name);
          const result = parseToolCalls(text, { tools, tool_format: format, profile: 'gateway' });
          expect(result.calls).toEqual([]);
          // Never silent: an error, a drop or a violation accounts for the text.
          expect(result.tool_parse_errors.length + result.dropped.length + result.protocol_violations.length).toBeGreaterThan(0);
          // The default profile is the gateway.
          expect(parseToolCalls(text, { tools, tool_format: format }).calls).toEqual([]);
        });
      }
    }
  }

  for (const [lane, template] of Object.entries(LANES)) {
    it(`${lane}: harn, every tool_format and name, keeps the reference runtime and is never silent`, () => {
      for (const format of FORMATS) {
        for (const name of UNKNOWN) {
          const result = parseToolCalls(template.replaceAll('NAME', name), { tools, tool_format: format, profile: 'harn' });
          // The reference dispatches what it reads (its dispatch owns refusal) or reports it.
          expect(result.calls.length + result.tool_parse_errors.length + result.dropped.length + result.protocol_violations.length, `${format} ${name}`).toBeGreaterThan(0);
          expect(result.reasoning, 'harn has no reasoning field').toBeUndefined();
        }
      }
    });
  }

  // Harmony frames are stepped over, their calls not read yet (a field-grammar reader will).
  const READ_TODAY = Object.entries(LANES).filter(([lane]) => lane !== 'harmony frame');
  for (const [lane, template] of READ_TODAY) {
    it(`${lane}: the same text with a registered name is a call (the matrix reads the lane)`, () => {
      expect(parseToolCalls(template.replaceAll('NAME', 'look'), { tools, tool_format: 'text' }).calls.map((c) => c.name)).toEqual(['look']);
    });
  }

  it('harn keeps the reference runtime: implicit tools and alias folding still run', () => {
    const harn = parseToolCalls('<tool_call>ledger({"note": "x"})</tool_call>', { tools: ['look'], profile: 'harn' });
    expect(harn.calls.map((c) => c.name)).toEqual(['ledger']);
    const folded = parseToolCalls('bash({"script": "rm -rf build"})', { tools: ['run'], profile: 'harn' });
    expect(folded.calls).toEqual([{ id: 'tc_0', name: 'run', arguments: { command: 'rm -rf build' } }]);
    // ...and the JSON lane dispatches unregistered names as read, as the reference does.
    expect(parseToolCalls(LANES['tool fence (JSON lane)']!.replace('NAME', 'rm_rf'), { tools, tool_format: 'json', profile: 'harn' }).calls.map((c) => c.name)).toEqual(['rm_rf']);
  });

  it('gateway: an alias is not folded and names no call; the error and drop say so', () => {
    const result = parseToolCalls('bash({"script": "rm -rf build"})', { tools: ['run'] });
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors.join('\n')).toContain("'bash'");
  });

  it('gateway: an unknown name in a tagged JSON object is an error and an unknown_tool drop', () => {
    const result = parseToolCalls(LANES['tagged JSON object']!.replace('NAME', 'rm_rf'), { tools, tool_format: 'text' });
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors.some((e) => e.startsWith("Unknown tool 'rm_rf'"))).toBe(true);
    expect(result.dropped.map((d) => d.reason)).toContain('unknown_tool');
    expect(result.canonical_text).not.toContain('rm_rf');
    // "Unknown tool" messages list the registered tools only: no implicit tools are advertised.
    expect(result.tool_parse_errors.join('\n')).not.toMatch(/ledger|load_skill/);
  });

  it('gateway: a functions. prefix is stripped when the rest is registered, reported otherwise', () => {
    const known = parseToolCalls('<tool_call>functions.look({"path": "a"})</tool_call>', { tools });
    expect(known.calls).toEqual([{ id: 'tc_0', name: 'look', arguments: { path: 'a' } }]);
    const unknown = parseToolCalls('<tool_call>functions.rm_rf({"path": "a"})</tool_call>', { tools });
    expect(unknown.calls).toEqual([]);
    expect(unknown.prose).toBe('');
    expect(unknown.tool_parse_errors.join('\n')).toContain('functions.rm_rf');
    expect(unknown.dropped.map((d) => d.reason)).toEqual(['unknown_tool']);
  });
});

describe('gateway without a registry', () => {
  it('a call inside a grammar\'s own markers is a call whatever its name', () => {
    expect(parseToolCalls('<tool_call>get_weather({"city": "Paris"})</tool_call>').calls).toEqual([
      { id: 'tc_0', name: 'get_weather', arguments: { city: 'Paris' } },
    ]);
    expect(parseToolCalls('```tool\n{"name": "get_weather", "args": {"city": "Paris"}}\n```', { tool_format: 'json' }).calls.map((c) => c.name)).toEqual(['get_weather']);
  });

  it('a response that is nothing but one JSON call object or list is a call (Llama 3 / Ollama)', () => {
    expect(parseToolCalls('{"name": "get_weather", "parameters": {"city": "Paris"}}').calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(parseToolCalls('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]').calls.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('the stray sniffer runs only against registered names: bare calls in prose stay prose', () => {
    const result = parseToolCalls('I would call get_weather({"city": "Paris"}) here.\nget_weather({"city": "Paris"})');
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([]);
    // A JSON call beside prose is not a whole payload.
    expect(parseToolCalls('Here: {"name": "get_weather", "arguments": {"city": "Paris"}}').calls).toEqual([]);
  });
});
