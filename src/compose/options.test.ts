import { describe, expect, it } from 'vitest';
import { normalizeTools } from '../dialects/registry.js';
import { parseToolCalls } from './parse.js';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2 },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        unit: { enum: ['c', 'f'] },
        where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
        kind: { const: 'forecast' },
      },
      required: ['city'],
      additionalProperties: false,
    },
  },
};
const tools = [weather];
const call = (args: string) => `<tool_call>get_weather(${args})</tool_call>`;

describe('validate', () => {
  it('report (the default) keeps the call and names the call id and each JSON Pointer', () => {
    const result = parseToolCalls(call('{"days": "3", "extra": 1}'), { tools, call_id_start: 4 });
    expect(result.calls.map((c) => c.id)).toEqual(['tc_4']);
    const [v] = result.protocol_violations.filter((x) => x.kind === 'invalid_arguments');
    expect(v?.call_id).toBe('tc_4');
    expect(v?.failures?.map((f) => f.pointer).sort()).toEqual(['/city', '/days', '/extra']);
    expect(v?.message).toContain('tc_4');
  });

  it.each([
    ['{"city": "P"}', '/city'],
    ['{"city": "Paris", "days": 30}', '/days'],
    ['{"city": "Paris", "unit": "k"}', '/unit'],
    ['{"city": "Paris", "kind": "now"}', '/kind'],
    ['{"city": "Paris", "where": {}}', '/where/lat'],
    ['{"city": "Paris", "where": {"lat": "x"}}', '/where/lat'],
    ['{"city": "Paris", "tags": ["a", 2]}', '/tags/1'],
    ['{"city": "Paris", "tags": ["a", "b", "c"]}', '/tags'],
  ])('%s fails at %s', (args, pointer) => {
    const v = parseToolCalls(call(args), { tools }).protocol_violations.find((x) => x.kind === 'invalid_arguments');
    expect(v?.failures?.map((f) => f.pointer)).toEqual([pointer]);
  });

  it('valid arguments raise nothing', () => {
    const result = parseToolCalls(call('{"city": "Paris", "days": 3, "unit": "c", "where": {"lat": 1.5}, "tags": ["a"], "kind": "forecast"}'), { tools });
    expect(result.protocol_violations).toEqual([]);
    expect(result.calls).toHaveLength(1);
  });

  it('reject turns the call into an error and an invalid_arguments drop, ids stay consecutive', () => {
    const text = `${call('{"days": 3}')}\n${call('{"city": "Paris"}')}`;
    const result = parseToolCalls(text, { tools, validate: 'reject' });
    expect(result.calls).toEqual([{ id: 'tc_0', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(result.tool_parse_errors.some((e) => e.includes('/city'))).toBe(true);
    expect(result.dropped.map((d) => d.reason)).toEqual(['invalid_arguments']);
  });

  it('off checks nothing, and harn does not check by default', () => {
    expect(parseToolCalls(call('{"days": "3"}'), { tools, validate: 'off' }).protocol_violations).toEqual([]);
    expect(parseToolCalls(call('{"days": "3"}'), { tools, profile: 'harn' }).protocol_violations).toEqual([]);
    expect(parseToolCalls(call('{"days": "3"}'), { tools, profile: 'harn', validate: 'report' }).protocol_violations.map((v) => v.kind)).toEqual(['invalid_arguments']);
  });

  it('reads draft-07 schemas by $schema, and Anthropic input_schema', () => {
    const draft07 = [{ name: 't', input_schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer', exclusiveMinimum: 0 } } } }];
    const v = parseToolCalls('<tool_call>t({"n": 0})</tool_call>', { tools: draft07 }).protocol_violations;
    expect(v.map((x) => x.failures?.[0]?.pointer)).toEqual(['/n']);
  });

  it('an uncompilable schema is one violation per parse and tool, never a throw', () => {
    const bad = [{ name: 't', parameters: { type: 'object', properties: { n: { type: 'no-such-type' } } } }];
    const result = parseToolCalls('<tool_call>t({"n": 1})</tool_call>\n<tool_call>t({"n": 2})</tool_call>', { tools: bad });
    expect(result.calls).toHaveLength(2);
    expect(result.protocol_violations.filter((v) => v.kind === 'invalid_arguments')).toHaveLength(1);
    expect(result.protocol_violations[0]?.message).toContain("'t'");
  });

  it('a registry object is normalised once: the same raw array gives the same registry', () => {
    expect(normalizeTools(tools)).toBe(normalizeTools(tools));
    expect(normalizeTools(tools)?.byName.get('get_weather')?.schema).toBe(weather.function.parameters);
  });

  it('refuses an unknown mode', () => {
    expect(() => parseToolCalls('', { validate: 'strict' as never })).toThrow(/options.validate must be one of report, reject, off/);
  });
});

describe('shape', () => {
  const text = 'Checking.\n<tool_call>get_weather({"city": "Paris"})</tool_call>';

  it('openai: an assistant message with JSON-text arguments, diagnostics beside it', () => {
    const result = parseToolCalls(text, { tools, shape: 'openai' });
    expect(result).toEqual({
      message: { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'tc_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      finish_reason: 'tool_calls',
      diagnostics: { tool_parse_errors: [], protocol_violations: [], dropped: [{ text: 'Checking.', reason: 'salvaged_as_prose' }], recovered_from_stray_count: 0 },
    });
    const callOnly = parseToolCalls('<tool_call>get_weather({"city": "Paris"})</tool_call>', { tools, shape: 'openai' });
    expect(callOnly.message.content).toBeNull();
    const none = parseToolCalls('Just prose.', { tools, shape: 'openai' });
    expect(none.finish_reason).toBe('stop');
    expect(none.message).toEqual({ role: 'assistant', content: 'Just prose.' });
  });

  it('anthropic: text and tool_use blocks with input objects', () => {
    const result = parseToolCalls(text, { tools, shape: 'anthropic' });
    expect(result.message).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'tc_0', name: 'get_weather', input: { city: 'Paris' } }] });
    expect(result.stop_reason).toBe('tool_use');
    expect(parseToolCalls('Just prose.', { shape: 'anthropic' }).stop_reason).toBe('end_turn');
  });

  it('include keeps only the named fields, and names diagnostics under a message shape', () => {
    expect(Object.keys(parseToolCalls(text, { tools, include: ['calls', 'tool_parse_errors'] }))).toEqual(['calls', 'tool_parse_errors']);
    expect(parseToolCalls(text, { tools, shape: 'openai', include: ['tool_parse_errors'] }).diagnostics).toEqual({ tool_parse_errors: [] });
    expect(() => parseToolCalls(text, { include: ['calls', 'nope'] as never })).toThrow(TypeError);
    expect(() => parseToolCalls(text, { shape: 'xml' as never })).toThrow(/options.shape/);
  });
});
