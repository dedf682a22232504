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
