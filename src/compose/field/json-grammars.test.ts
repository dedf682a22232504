/**
 * Every JSON-argument field grammar (the `call-objects` family and the `token-section` records)
 * through the same cases: one call, several, prose around and glued, end markers missing,
 * arguments cut off, an unregistered name, no registry, and a look-alike that is not a call.
 */
import { describe, expect, it } from 'vitest';
import { JSON_GRAMMAR_CASES, type GrammarCase } from '../../../test/support/field-json-grammars.js';
import { parseToolCalls } from '../parse.js';

const tools = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
];

const gateway = (text: string, withTools: unknown = tools) => parseToolCalls(text, { tools: withTools, profile: 'gateway' });
const pairs = (text: string, withTools: unknown = tools) => gateway(text, withTools).calls.map((c) => [c.name, c.arguments]);

const WEATHER = ['get_weather', '{"city": "Paris"}'] as const;
const SEARCH = ['search', '{"query": "rain, wind"}'] as const;

function markersOf(c: GrammarCase): string[] {
  return c.grammar.markers.filter((m) => m.trim().length > 2);
}

describe.each(JSON_GRAMMAR_CASES.map((c) => [c.grammar.id, c] as const))('%s', (_id, c) => {
  it('reads one call, with nothing left over', () => {
    const result = gateway(c.render([WEATHER]));
    expect(result.calls.map((x) => [x.name, x.arguments])).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(result.tool_parse_errors).toEqual([]);
    expect(result.prose).toBe('');
  });

  it('reads several calls in order', () => {
    expect(pairs(c.render([WEATHER, SEARCH]))).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['search', { query: 'rain, wind' }],
    ]);
  });

  it('keeps the prose before and after, with no marker in it', () => {
    const result = gateway(`Let me check.\n${c.render([WEATHER])}\nThat is all.`);
    expect(result.calls.map((x) => x.name)).toEqual(['get_weather']);
    expect(result.prose).toBe('Let me check.\n\nThat is all.');
    for (const marker of markersOf(c)) expect(result.prose).not.toContain(marker);
  });

  it('reads a call glued to prose on one line', () => {
    const result = gateway(`Checking now.${c.render([WEATHER])}`);
    expect(result.calls.map((x) => x.name)).toEqual(['get_weather']);
    expect(result.prose).toBe('Checking now.');
  });

  if (c.unclosed !== null) {
    const unclosed = c.unclosed;
    it('reads a call whose end markers are missing when its arguments are complete', () => {
      const result = gateway(unclosed(WEATHER));
      expect(result.calls.map((x) => [x.name, x.arguments])).toEqual([['get_weather', { city: 'Paris' }]]);
      expect(result.protocol_violations.map((v) => v.kind)).toContain('recovered_dialect');
    });
  }

  it('turns arguments cut off by the end of the text into a truncation error and a drop', () => {
    const full = c.render([WEATHER]);
    const result = gateway(full.slice(0, full.indexOf('Paris') + 3));
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toHaveLength(1);
    expect(result.tool_parse_errors[0]).toMatch(/^TOOL CALL TRUNCATED:/);
    expect(result.dropped.map((d) => d.reason)).toEqual(['unparsed_call_block']);
    expect(result.prose).toBe('');
  });

  it('refuses an unregistered name with an error and an unknown_tool drop', () => {
    const result = gateway(c.render([['rm_rf', '{"path": "/"}']]));
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toHaveLength(1);
    expect(result.tool_parse_errors[0]).toContain("'rm_rf'");
    expect(result.dropped.map((d) => d.reason)).toEqual(['unknown_tool']);
    expect(result.prose).toBe('');
  });

  it('with no registry, a marked call is a call whatever its name', () => {
    expect(pairs(c.render([['anything_at_all', '{"x": 1}']]), null)).toEqual([['anything_at_all', { x: 1 }]]);
  });

  it('reads no call from a look-alike', () => {
    const result = gateway(c.lookalike);
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([]);
  });
});
