/**
 * Registries gateways pass through from other APIs (Gemini, MCP, OpenAPI 3.0), end to end: the
 * raw-text values typed by the schema, and the schema checked, as with plain JSON Schema.
 */
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../src/index.js';

const qwen = (name: string, args: Record<string, string>): string =>
  `<tool_call>\n<function=${name}>\n${Object.entries(args)
    .map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`)
    .join('')}</function>\n</tool_call>`;

describe('registry forms from other APIs', () => {
  const gemini = [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { location: { type: 'STRING' }, days: { type: 'INTEGER' }, unit: { type: 'STRING', enum: ['celsius', 'fahrenheit'] }, note: { type: 'STRING', nullable: true } }, required: ['location'] } }] }];

  it('Gemini declarations: values typed, no violation for a valid call, a real enum failure for an invalid one', () => {
    const ok = parseToolCalls(qwen('get_weather', { location: 'Paris', days: '5', note: 'null' }), { tools: gemini });
    expect(ok.calls.map((c) => c.arguments)).toEqual([{ location: 'Paris', days: 5, note: null }]);
    expect(ok.protocol_violations).toEqual([]);
    const bad = parseToolCalls(qwen('get_weather', { location: 'Paris', unit: 'kelvin' }), { tools: gemini });
    expect(bad.protocol_violations.map((v) => v.message)).toEqual([expect.stringContaining('/unit must be equal to one of the allowed values')]);
  });

  it("MCP's `inputSchema` types and checks the arguments", () => {
    const mcp = [{ name: 'read_multiple_files', inputSchema: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'], additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' } }];
    expect(parseToolCalls(qwen('read_multiple_files', { paths: '["/a.txt", "/b.txt"]' }), { tools: mcp }).calls[0]!.arguments).toEqual({ paths: ['/a.txt', '/b.txt'] });
    const bad = parseToolCalls(qwen('read_multiple_files', { path: '/a.txt' }), { tools: mcp });
    expect(bad.protocol_violations.map((v) => v.kind)).toEqual(['invalid_arguments']);
  });

  it('a draft-04 schema is checked, not reported as one that could not be compiled', () => {
    const tools = [{ name: 'get_forecast', parameters: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'] } }];
    expect(parseToolCalls(qwen('get_forecast', { city: 'Oslo', days: '3' }), { tools }).protocol_violations).toEqual([]);
    expect(parseToolCalls(qwen('get_forecast', { city: 'Oslo', days: '0' }), { tools }).protocol_violations.map((v) => v.message)).toEqual([expect.stringContaining('/days must be >= 1')]);
  });
});
