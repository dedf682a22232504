import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse.js';
import { dropEntry, emptyList, listOf } from './site-free.js';

describe('site-free records and lists', () => {
  it('make fresh lists, each its own', () => {
    const a = emptyList<number>();
    const b = emptyList<number>();
    a.push(1);
    expect(a).toEqual([1]);
    expect(b).toEqual([]);
    const one = listOf('x');
    const two = listOf('y');
    one.push('z');
    expect(one).toEqual(['x', 'z']);
    expect(two).toEqual(['y']);
  });

  it('make a drop entry the plain object a literal makes: prototype, keys in order, JSON', () => {
    const entry = dropEntry('Let me look.', 'salvaged_as_prose');
    const literal = { text: 'Let me look.', reason: 'salvaged_as_prose' };
    expect(Object.getPrototypeOf(entry)).toBe(Object.prototype);
    expect(entry.constructor).toBe(Object);
    expect(Object.keys(entry)).toEqual(Object.keys(literal));
    expect(JSON.stringify(entry)).toBe(JSON.stringify(literal));
    expect(entry).toStrictEqual(literal);
    expect(structuredClone(entry)).toStrictEqual(literal);
  });

  it('leave a parse result of plain objects', () => {
    const text = 'Let me look.\n<tool_call>\n<function=look>\n<parameter=path>\na.ts\n</parameter>\n</function>\n</tool_call>';
    const result = parseToolCalls(text, { tools: ['look'] });
    expect(result.dropped).toStrictEqual([{ text: 'Let me look.', reason: 'salvaged_as_prose' }]);
    expect(result.calls).toStrictEqual([{ id: 'tc_0', name: 'look', arguments: { path: 'a.ts' } }]);
  });
});
