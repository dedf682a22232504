import { describe, expect, it } from 'vitest';
import { normalizeTools } from './registry.js';

describe('registry parameters keep their whole schema', () => {
  it('keeps anyOf, type arrays and nested properties beside the one type name', () => {
    const limit = { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'max' };
    const filters = { type: 'object', properties: { hot: { type: 'boolean' } } };
    const registry = normalizeTools([{ name: 'f', parameters: { type: 'object', properties: { limit, filters, days: { type: ['integer', 'null'] } } } }])!;
    const params = registry.byName.get('f')!.paramsByName;
    expect(params.get('limit')!.schema).toEqual(limit);
    expect(params.get('limit')!.type).toBeNull();
    expect(params.get('filters')!.schema).toEqual(filters);
    expect(params.get('days')!.type).toBe('integer');
    expect(params.get('days')!.schema).toEqual({ type: ['integer', 'null'] });
  });

  it('has no schema for a parameter declared without one', () => {
    const registry = normalizeTools([{ name: 'f', parameters: { type: 'object', properties: { x: null } } }])!;
    expect(registry.byName.get('f')!.paramsByName.get('x')!.schema).toBeNull();
  });
});

describe('parameters written as any JSON Schema', () => {
  const fn = (parameters: unknown) => normalizeTools([{ type: 'function', function: { name: 'f', parameters } }])!.byName.get('f')!;

  it('follows a top-level $ref to a local definition (zod-to-json-schema with a name)', () => {
    const parameters = { $ref: '#/definitions/f', definitions: { f: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } }, $schema: 'http://json-schema.org/draft-07/schema#' };
    const tool = fn(parameters);
    expect(tool.params.map((p) => [p.name, p.type, p.required])).toEqual([
      ['city', 'string', true],
      ['days', 'integer', false],
    ]);
    expect(tool.schema).toBe(parameters);
  });

  it('takes the properties of anyOf and oneOf branches, none of them required, and allOf parts with their required lists', () => {
    const anyOf = fn({ anyOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'boolean' } } }] });
    expect(anyOf.params.map((p) => [p.name, p.type, p.required])).toEqual([
      ['a', 'integer', false],
      ['b', 'boolean', false],
    ]);
    const allOf = fn({ allOf: [{ $ref: '#/$defs/base' }, { properties: { extra: { type: 'number' } } }], $defs: { base: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } });
    expect(allOf.params.map((p) => [p.name, p.required])).toEqual([
      ['id', true],
      ['extra', false],
    ]);
  });

  it('reads a schema of keywords only (`additionalProperties: false`) as one with no parameters, and a boolean property schema as untyped', () => {
    expect(fn({ additionalProperties: false }).params).toEqual([]);
    expect(fn({ type: ['object', 'null'], properties: { x: true } }).params).toEqual([{ name: 'x', type: null, required: false, schema: null }]);
  });

  it('still reads the reference per-parameter form, and a $ref to no definition gives no parameters', () => {
    expect(fn({ city: { type: 'string', required: true } }).params.map((p) => [p.name, p.required])).toEqual([['city', true]]);
    // Parameters the reference form names like schema keywords are still parameters.
    expect(fn({ title: { type: 'string', required: true }, description: { type: 'string' } }).params.map((p) => [p.name, p.required])).toEqual([
      ['title', true],
      ['description', false],
    ]);
    expect(fn({ $ref: '#/nowhere' }).params).toEqual([]);
  });
});

describe('schemas from the APIs gateways pass registries through from', () => {
  const GEMINI = { name: 'get_weather', parameters: { type: 'OBJECT', properties: { location: { type: 'STRING' }, days: { type: 'INTEGER' }, note: { type: 'STRING', nullable: true }, unit: { type: 'STRING', enum: ['c', 'f'], nullable: true }, tags: { type: 'ARRAY', items: { type: 'STRING' } } }, required: ['location'] } };

  it("reads Gemini's and OpenAPI's capital types and `nullable` as JSON Schema, enum values and all other data untouched", () => {
    const tool = normalizeTools([GEMINI])!.byName.get('get_weather')!;
    expect(tool.params.map((p) => [p.name, p.type, p.required])).toEqual([
      ['location', 'string', true],
      ['days', 'integer', false],
      ['note', 'string', false],
      ['unit', 'string', false],
      ['tags', 'array', false],
    ]);
    expect(tool.paramsByName.get('note')!.schema).toEqual({ type: ['string', 'null'] });
    expect(tool.paramsByName.get('unit')!.schema).toEqual({ type: ['string', 'null'], enum: ['c', 'f', null] });
    expect(tool.paramsByName.get('tags')!.schema).toEqual({ type: 'array', items: { type: 'string' } });
    // The caller's object is not changed.
    expect(GEMINI.parameters.properties.days.type).toBe('INTEGER');
  });

  it('unwraps a Gemini Tool (`functionDeclarations`, `function_declarations`) into its functions', () => {
    const registry = normalizeTools([{ functionDeclarations: [GEMINI, { name: 'search' }] }, { function_declarations: [{ name: 'run' }] }])!;
    expect(registry.tools.map((t) => t.name)).toEqual(['get_weather', 'search', 'run']);
  });

  it("takes MCP's `inputSchema` and Gemini's `parametersJsonSchema` as the arguments' schema", () => {
    const schema = { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'] };
    for (const key of ['inputSchema', 'parametersJsonSchema']) {
      const tool = normalizeTools([{ name: 'read', [key]: schema }])!.byName.get('read')!;
      expect(tool.params.map((p) => [p.name, p.type, p.required])).toEqual([['paths', 'array', true]]);
      expect(tool.schema).toBe(schema);
    }
  });

  it('reads a draft-04 or draft-06 `$schema` as draft-07 and a 2019-09 one as the default draft', () => {
    const properties = { days: { type: 'integer' } };
    expect(normalizeTools([{ name: 'f', parameters: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties } }])!.byName.get('f')!.schema!.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(normalizeTools([{ name: 'f', parameters: { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties } }])!.byName.get('f')!.schema).toEqual({ type: 'object', properties });
  });
});
