import { describe, expect, it } from 'vitest';
import { jsonElseText, localRef, resolveSchema, schemaTypes, typeRawValue, typesNamed } from './typing.js';
import { stripValue } from './raw-value.js';

describe('typing raw-text values by JSON Schema', () => {
  it('keeps the text for a string, a missing type or no schema, and never guesses numbers', () => {
    expect(typeRawValue('42', { type: 'string' })).toEqual({ value: '42', expected: null });
    expect(typeRawValue('42', {})).toEqual({ value: '42', expected: null });
    expect(typeRawValue('42', null)).toEqual({ value: '42', expected: null });
    expect(typeRawValue('true', undefined)).toEqual({ value: 'true', expected: null });
  });

  it('reads integers and numbers, and keeps a value that does not parse as text with what was expected', () => {
    expect(typeRawValue(' 42 ', { type: 'integer' }).value).toBe(42);
    expect(typeRawValue('-1.5e2', { type: 'number' }).value).toBe(-150);
    expect(typeRawValue('1.5', { type: 'integer' })).toEqual({ value: '1.5', expected: ['integer'] });
    expect(typeRawValue('five', { type: 'number' })).toEqual({ value: 'five', expected: ['number'] });
    expect(typeRawValue('0x10', { type: 'integer' }).expected).toEqual(['integer']);
  });

  it('reads an object or array encoded once more as a string (a template that wrote json.dumps(str(value)))', () => {
    expect(typeRawValue('"{\'key\': \'value\', \'n\': 1}"', { type: 'object' }).value).toEqual({ key: 'value', n: 1 });
    expect(typeRawValue('"[1, 2]"', { type: 'array' }).value).toEqual([1, 2]);
    // Once only, and a string stays a string where the schema wants one.
    expect(typeRawValue('"\\"{}\\""', { type: 'object' }).expected).toEqual(['object']);
    expect(typeRawValue('"{}"', { type: 'string' }).value).toBe('"{}"');
  });

  it('takes the types of an enum or const with no type from the values it lists', () => {
    expect(typeRawValue('2', { enum: [1, 2, 3] })).toEqual({ value: 2, expected: null });
    expect(typeRawValue('2.5', { enum: [0.5, 2.5] }).value).toBe(2.5);
    expect(typeRawValue('true', { const: true }).value).toBe(true);
    expect(typeRawValue('fast', { enum: ['fast', 1] })).toEqual({ value: 'fast', expected: null });
    expect(typeRawValue('1', { enum: ['1', '2'] }).value).toBe('1');
    // A declared type wins over the values listed.
    expect(typeRawValue('2', { type: 'string', enum: [1, 2] }).value).toBe('2');
    expect(schemaTypes({ enum: [null, 'a', 3] })).toEqual(['null', 'string', 'integer']);
  });

  it('reads booleans case-insensitively and nothing else as a boolean', () => {
    expect(typeRawValue('TRUE', { type: 'boolean' }).value).toBe(true);
    expect(typeRawValue('False', { type: 'boolean' }).value).toBe(false);
    expect(typeRawValue('yes', { type: 'boolean' })).toEqual({ value: 'yes', expected: ['boolean'] });
  });

  it('reads objects and arrays as JSON of that kind, and keeps other text', () => {
    expect(typeRawValue('{"a": [1, 2]}', { type: 'object' }).value).toEqual({ a: [1, 2] });
    expect(typeRawValue('[1, "x"]', { type: 'array' }).value).toEqual([1, 'x']);
    expect(typeRawValue('[1]', { type: 'object' })).toEqual({ value: '[1]', expected: ['object'] });
    expect(typeRawValue('{a: 1}', { type: 'object' }).value).toBe('{a: 1}');
  });

  it('falls back on JSON escaped into a string body for objects and arrays, and keeps text that is not one', () => {
    expect(typeRawValue(String.raw`[{\"id\": \"7\", \"path\": \"C:\\\\tmp\"}]`, { type: 'array' }).value).toEqual([{ id: '7', path: 'C:\\tmp' }]);
    expect(typeRawValue(String.raw`{\"a\": 1}`, { type: ['object', 'null'] }).value).toEqual({ a: 1 });
    expect(typeRawValue(String.raw`{\"a\": 1}`, { type: 'array' }).expected).toEqual(['array']);
    expect(typeRawValue(String.raw`say \"hi\"`, { type: 'object' })).toEqual({ value: String.raw`say \"hi\"`, expected: ['object'] });
  });

  it('falls back on a Python literal for objects and arrays (spec section 4)', () => {
    const todos = `[\n {"content": "Buy milk", "status": 'pending'},\n {"content": "Call Ann", "status": "done"}\n]`;
    expect(typeRawValue(todos, { type: 'array' }).value).toEqual([
      { content: 'Buy milk', status: 'pending' },
      { content: 'Call Ann', status: 'done' },
    ]);
    expect(typeRawValue("{'a': True, 'b': None, 'c': (1, 2)}", { type: 'object' }).value).toEqual({ a: true, b: null, c: [1, 2] });
    expect(typeRawValue("['x', 'y']", { type: ['array', 'null'] }).value).toEqual(['x', 'y']);
    expect(typeRawValue("{'a': 1}", { type: 'array' })).toEqual({ value: "{'a': 1}", expected: ['array'] });
    expect(typeRawValue('{a: 1}', { type: 'object' }).expected).toEqual(['object']);
  });

  it('reads numbers as Python int() and float() do: leading zeros, a sign, .5, underscores', () => {
    expect(typeRawValue('007', { type: 'integer' }).value).toBe(7);
    expect(typeRawValue('018956', { type: 'integer' }).value).toBe(18956);
    expect(typeRawValue('+7', { type: 'number' }).value).toBe(7);
    expect(typeRawValue('.5', { type: 'number' }).value).toBe(0.5);
    expect(typeRawValue('5.', { type: 'number' }).value).toBe(5);
    expect(typeRawValue('1_000', { type: 'integer' }).value).toBe(1000);
    expect(typeRawValue('-0.5', { type: 'integer' }).expected).toEqual(['integer']);
    for (const text of ['inf', 'nan', '1.2.3', '_1', '.', '+']) expect(typeRawValue(text, { type: 'number' }).expected).toEqual(['number']);
  });

  it('takes the Python type names for `type`: int, float, bool, dict, list, str', () => {
    expect(typeRawValue('3', { type: 'int' }).value).toBe(3);
    expect(typeRawValue('3.14', { type: 'float' }).value).toBe(3.14);
    expect(typeRawValue('True', { type: 'bool' }).value).toBe(true);
    expect(typeRawValue('{"a": 1}', { type: 'dict' }).value).toEqual({ a: 1 });
    expect(typeRawValue('[1]', { type: 'list' }).value).toEqual([1]);
    expect(typeRawValue('7', { type: 'str' }).value).toBe('7');
    expect(schemaTypes({ type: ['int', 'null'] })).toEqual(['integer', 'null']);
  });

  it('follows local $refs and allOf, bounded and safe against cycles', () => {
    const root = {
      type: 'object',
      properties: { n: { $ref: '#/$defs/Count' }, m: { $ref: '#/definitions/Mode' }, w: { allOf: [{ $ref: '#/$defs/Count' }] }, loop: { $ref: '#/$defs/A' } },
      $defs: { Count: { type: 'integer' }, A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } },
      definitions: { Mode: { anyOf: [{ type: 'boolean' }, { type: 'string' }] } },
    };
    const props = root.properties;
    expect(typeRawValue('42', props.n, undefined, root).value).toBe(42);
    expect(typeRawValue('false', props.m, undefined, root).value).toBe(false);
    expect(typeRawValue('5', props.w, undefined, root).value).toBe(5);
    expect(typeRawValue('5', props.loop, undefined, root)).toEqual({ value: '5', expected: null });
    // Without the root a $ref says nothing: the text is kept.
    expect(typeRawValue('42', props.n).value).toBe('42');
    expect(resolveSchema({ allOf: [{ $ref: '#/$defs/Count' }] }, root)).toEqual({ type: 'integer' });
    expect(localRef('#/$defs/Missing', root)).toBeUndefined();
    expect(localRef('other.json#/x', root)).toBeUndefined();
  });

  it('reads unions in order, non-string alternatives first, then string', () => {
    expect(typeRawValue('null', { type: ['integer', 'null'] })).toEqual({ value: null, expected: null });
    expect(typeRawValue('None', { anyOf: [{ type: 'integer' }, { type: 'null' }] }).value).toBeNull();
    expect(typeRawValue('7', { oneOf: [{ type: 'string' }, { type: 'integer' }] }).value).toBe(7);
    expect(typeRawValue('seven', { oneOf: [{ type: 'string' }, { type: 'integer' }] })).toEqual({ value: 'seven', expected: null });
    expect(typeRawValue('x', { type: ['integer', 'null'] }).expected).toEqual(['integer', 'null']);
  });

  it('lists the types of nested alternatives once each, in written order', () => {
    expect(schemaTypes({ anyOf: [{ type: ['integer', 'null'] }, { oneOf: [{ type: 'string' }, { type: 'integer' }] }] })).toEqual(['integer', 'null', 'string']);
    expect(schemaTypes({ type: 'widget' })).toEqual([]);
  });

  it('takes null words from the grammar', () => {
    expect(typeRawValue('NULL', { type: ['null', 'string'] }, ['null', 'Null', 'NULL']).value).toBeNull();
    expect(typeRawValue('None', { type: ['null', 'string'] }, ['null', 'Null', 'NULL']).value).toBe('None');
  });

  it('reads JSON else text, and names in-band types with their aliases', () => {
    expect(jsonElseText('{"a": 1}')).toEqual({ a: 1 });
    expect(jsonElseText('plain words')).toBe('plain words');
    expect(typesNamed('int')).toEqual(['integer']);
    expect(typesNamed('Widget')).toBeNull();
  });
});

describe('the raw-value whitespace rule', () => {
  it('strips a single-line value and only the framing newlines of a multi-line one', () => {
    expect(stripValue('  Paris \t')).toBe('Paris');
    expect(stripValue('\ndef f():\n    return 1\n  ')).toBe('def f():\n    return 1');
    expect(stripValue('\n  indented\nlines\n')).toBe('  indented\nlines');
    expect(stripValue('a\n b')).toBe('a\n b');
    expect(stripValue('\n    return None  \n')).toBe('    return None');
    expect(stripValue('\n      John Doe\n    ')).toBe('John Doe');
  });
});
