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
