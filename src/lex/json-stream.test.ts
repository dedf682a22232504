import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workRatio } from '../../test/support/string-work.js';
import { JSON_NESTING_LIMIT, readJsonStream, readJsonValueAt } from './json-stream.js';

describe('readJsonStream', () => {
  it('reads consecutive values with their offsets', () => {
    expect(readJsonStream('{"a": 1} {"b": 2}')).toEqual({
      values: [
        { value: { a: 1 }, start: 0, end: 8 },
        { value: { b: 2 }, start: 9, end: 17 },
      ],
      end: 17,
      eof: false,
    });
  });

  it('reports a value cut off by the end of input as eof, without an error', () => {
    expect(readJsonStream('{"a": 1')).toEqual({ values: [], end: 0, eof: true });
    for (const cut of ['[1,', '"abc', '"a\\', '"\\u00', 'tru', '-', '1.', '1e', '1e+', '{"a"', '{"a":', '"\\ud83d', '"\\ud83d\\']) {
      expect(readJsonStream(`[0] ${cut}`)).toMatchObject({ values: [{ value: [0] }], end: 3, eof: true });
    }
  });

  it('stops at invalid input, keeping the values before it', () => {
    const result = readJsonStream('{"a": 1} nope');
    expect(result).toMatchObject({ values: [{ value: { a: 1 }, start: 0, end: 8 }], end: 8, eof: false });
    expect(result.error).toMatch(/`null` at line 1 column 11/);
  });

  it.each([
    ['[1,]', 'trailing comma'],
    ['{"a":1,}', 'trailing comma'],
    ['{a:1}', 'key'],
    ['01', 'leading zero'],
    ['"\u0001"', 'control'],
    ['"\\x"', 'escape'],
    ['"\\udc00"', 'surrogate'],
    ['"\\ud800x"', 'surrogate'],
    ['1e999', 'range'],
    ['-1.5E+400', 'range'],
    ['9'.repeat(309), 'range'],
    [`${'9'.repeat(309)}.5`, 'range'],
    ['[1 2]', '`,` or `]`'],
    ['{"a" 1}', '`:`'],
    ['nul1', '`null`'],
    ['1x', 'after a value'],
    ['truex', 'after a value'],
  ])('%j is an error (%s)', (text, fragment) => {
    const result = readJsonStream(text);
    expect(result.eof).toBe(false);
    expect(result.error).toContain(fragment);
  });

  it('reads a number as finite up to the largest double, however it is written', () => {
    for (const text of ['9'.repeat(308), `-${'9'.repeat(308)}.25`, '1.7976931348623157e308', '1e-400', '0.000001']) {
      expect(readJsonStream(text)).toEqual({ values: [{ value: JSON.parse(text), start: 0, end: text.length }], end: text.length, eof: false });
    }
  });

  it('lets delimited values abut anything and checks scalars are delimited', () => {
    expect(readJsonStream('{}[]"s"1 2').values.map((v) => v.value)).toEqual([{}, [], 's', 1, 2]);
    expect(readJsonStream('1[2]').values.map((v) => v.value)).toEqual([1, [2]]);
    expect(readJsonStream('"a"x')).toMatchObject({ values: [{ value: 'a' }], end: 3, eof: false });
  });

  it('returns nothing for empty or whitespace-only text', () => {
    expect(readJsonStream('')).toEqual({ values: [], end: 0, eof: false });
    expect(readJsonStream(' \n\t\r ')).toEqual({ values: [], end: 0, eof: false });
  });

  it('reports line and column on later lines', () => {
    expect(readJsonStream('{"a": 1}\n\n  ?').error).toMatch(/line 3 column 3/);
  });

  it('keeps __proto__ as an own key', () => {
    const [first] = readJsonStream('{"__proto__": {"x": 1}}').values;
    const value = first?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('stops at the nesting limit with an error', () => {
    const ok = `${'['.repeat(JSON_NESTING_LIMIT)}${']'.repeat(JSON_NESTING_LIMIT)}`;
    expect(readJsonStream(ok).values).toHaveLength(1);
    const deep = readJsonStream(`${'['.repeat(1_000_000)}`);
    expect(deep).toMatchObject({ values: [], eof: false });
    expect(deep.error).toContain('nesting');
  });

  it('agrees with JSON.parse on single values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.constantFrom('', ' ', '\n'), (json, space) => {
        const text = JSON.stringify(json, null, space);
        expect(readJsonStream(text)).toEqual({
          values: [{ value: JSON.parse(text), start: 0, end: text.length }],
          end: text.length,
          eof: false,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws; offsets stay ordered and within bounds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const result = readJsonStream(text);
        let previous = 0;
        for (const { start, end } of result.values) {
          expect(start).toBeGreaterThanOrEqual(previous);
          expect(end).toBeGreaterThan(start);
          previous = end;
        }
        expect(result.end).toBe(previous);
        expect(result.end).toBeLessThanOrEqual(text.length);
        if (result.error !== undefined) expect(result.eof).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('does linear work', () => {
    expect(workRatio((n) => '{"a": [1, "x\\"y"]} '.repeat(n), readJsonStream)).toBeLessThan(12);
    expect(workRatio((n) => `["${'\\u0041'.repeat(n)}`, readJsonStream)).toBeLessThan(12);
    expect(workRatio((n) => `${'[1,'.repeat(Math.min(n, 100))}${'2,'.repeat(n)}`, readJsonStream)).toBeLessThan(12);
  });
});

describe('readJsonValueAt: integers beyond 2^53', () => {
  it('keeps their digits as strings, where JSON.parse would round them', () => {
    const read = readJsonValueAt('{"id": 1234567890123456789, "neg": -9007199254740993, "list": [18446744073709551615, 7]}', 0);
    expect(read.ok && read.value).toEqual({ id: '1234567890123456789', neg: '-9007199254740993', list: ['18446744073709551615', 7] });
  });

  it('leaves safe integers, fractions and exponents as numbers', () => {
    const read = readJsonValueAt('[9007199254740991, -9007199254740991, 1234567890.5, 1e20]', 0);
    expect(read.ok && read.value).toEqual([9007199254740991, -9007199254740991, 1234567890.5, 1e20]);
  });

  it('forgets the integers of one value when it reads the next', () => {
    const text = '{"a": 12345678901234567890} {"b": 1}';
    const first = readJsonValueAt(text, 0);
    const second = readJsonValueAt(text, first.ok ? first.end : 0);
    expect(second.ok && second.value).toEqual({ b: 1 });
  });
});

