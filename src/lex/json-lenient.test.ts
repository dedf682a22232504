import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLenientJsonAt } from './json-lenient.js';
import { readJsonValueAt } from './json-stream.js';

const read = (text: string, at = 0) => readLenientJsonAt(text, at);

describe('readLenientJsonAt', () => {
  it('ignores a trailing comma before a close', () => {
    expect(read('{"a": [1, 2,], "b": {"c": 3,},}')).toMatchObject({ ok: true, value: { a: [1, 2], b: { c: 3 } } });
  });

  it('reads a Python-quoted dict with True, False and None', () => {
    expect(read(`{'a': 'it\\'s "x"', 'b': True, 'c': [False, None], "d": 'é'}`)).toMatchObject({
      ok: true,
      value: { a: `it's "x"`, b: true, c: [false, null], d: 'é' },
    });
  });

  it('reads at an offset and reports where the value ends', () => {
    const text = `xx {'a': 1} tail`;
    expect(read(text, 2)).toEqual({ ok: true, value: { a: 1 }, start: 3, end: 11 });
  });

  it('tells a value cut off by the end of the text from one that is not JSON', () => {
    expect(read(`{'a': 'x`)).toMatchObject({ ok: false, eof: true });
    expect(read(`{'a': Tr`)).toMatchObject({ ok: false, eof: true });
    expect(read(`{'a': 1,`)).toMatchObject({ ok: false, eof: true });
    expect(read(`{a`)).toMatchObject({ ok: false, eof: true });
    expect(read(`{1: 1}`)).toMatchObject({ ok: false, eof: false });
    expect(read(`{'a': NaN}`)).toMatchObject({ ok: false, eof: false });
    expect(read(`{'a': 1,, 'b': 2}`)).toMatchObject({ ok: false, eof: false });
    expect(read(`[1 2]`)).toMatchObject({ ok: false, eof: false });
  });

  it('reads keys written without quotes, as JavaScript writes them (an identifier only)', () => {
    expect(read(`{name: 'f', arguments: {city: 'Seoul', $n: 1}}`)).toMatchObject({ ok: true, value: { name: 'f', arguments: { city: 'Seoul', $n: 1 } } });
    expect(read(`{a b: 1}`)).toMatchObject({ ok: false, eof: false });
    expect(read(`{a: 1, a: 2}`)).toMatchObject({ ok: false, eof: false });
  });

  it('reads comments inside a container as blanks, and a comment or lone slash anywhere else as what it is', () => {
    expect(read('{"name": "f", // the tool\n  "arguments": {"limit": 5 /* at most */, "q": "a // b"}}')).toMatchObject({ ok: true, value: { name: 'f', arguments: { limit: 5, q: 'a // b' } } });
    expect(read('[1, // one\n 2 // two\n]')).toMatchObject({ ok: true, value: [1, 2] });
    expect(read('{"a" /* key */ : 1}')).toMatchObject({ ok: true, value: { a: 1 } });
    // The text ends inside a comment: the value was cut off there.
    expect(read('{"a": 1 // still')).toMatchObject({ ok: false, eof: true });
    expect(read('{"a": 1 /* still')).toMatchObject({ ok: false, eof: true });
    expect(read('{"a": 1 /')).toMatchObject({ ok: false, eof: true });
    // A slash that opens no comment is the error it was; before the value, a comment is not JSON.
    expect(read('{"a": 1 / 2}')).toMatchObject({ ok: false, eof: false });
    expect(read('// c\n{"a": 1}')).toMatchObject({ ok: false, eof: false });
  });

  it('reads a raw line break or tab inside a string as itself, other control characters not', () => {
    expect(read('{"content": "def f():\n\treturn 1\r\n"}')).toMatchObject({ ok: true, value: { content: 'def f():\n\treturn 1\r\n' } });
    expect(read('{"a": "x\u0001y"}')).toMatchObject({ ok: false, eof: false });
    expect(read('{"a": "x\u0000"}')).toMatchObject({ ok: false, eof: false });
    // Still cut off when the string never closes.
    expect(read('{"a": "line one\nline two')).toMatchObject({ ok: false, eof: true });
  });

  it('reads objects written as list items without commas (one reading), and nothing else so', () => {
    expect(read('[{"a": 1} {"b": 2}\n{"c": 3}]')).toMatchObject({ ok: true, value: [{ a: 1 }, { b: 2 }, { c: 3 }] });
    expect(read('[{"a": 1}{"b": 2}]')).toMatchObject({ ok: true, value: [{ a: 1 }, { b: 2 }] });
    // Only an object after an object: a scalar or list item still needs its comma, and so does an object member.
    expect(read('[1 {"b": 2}]')).toMatchObject({ ok: false, eof: false });
    expect(read('[[1] {"b": 2}]')).toMatchObject({ ok: false, eof: false });
    expect(read('[{"a": 1} 2]')).toMatchObject({ ok: false, eof: false });
    expect(read('{"a": {"x": 1} {"b": 2}}')).toMatchObject({ ok: false, eof: false });
  });

  it('reads a backslash before a character no escape names as itself (Windows paths, regular expressions), Python\'s own escapes not', () => {
    expect(readLenientJsonAt(String.raw`{"code": "dir C:\Users\Pictures", "re": "\d+\.\s"}`, 0)).toMatchObject({ ok: true, value: { code: 'dir C:\\Users\\Pictures', re: '\\d+\\.\\s' } });
    // JSON's escapes keep their meaning beside the repaired ones.
    expect(readLenientJsonAt(String.raw`{"a": "x\ty\q"}`, 0)).toMatchObject({ ok: true, value: { a: 'x\ty\\q' } });
    // Python reads these (BEL, VT, octal, hex, a 32-bit code point, a named character): two readings.
    for (const escape of [String.raw`\a`, String.raw`\v`, String.raw`\0`, String.raw`\x41`, String.raw`\U0001F600`, String.raw`\N{DASH}`]) {
      expect(readLenientJsonAt(`{"a": "${escape}"}`, 0)).toMatchObject({ ok: false, eof: false });
    }
    // Not hex enough to be Python's: the backslash stands for itself.
    expect(readLenientJsonAt(String.raw`{"a": "\x4g \Users"}`, 0)).toMatchObject({ ok: true, value: { a: '\\x4g \\Users' } });
  });

  it('refuses a key written twice: the first and the last value are both readings', () => {
    expect(read(`{'a': 1, 'a': 2}`)).toMatchObject({ ok: false, eof: false, error: expect.stringContaining("'a'") as unknown });
  });

  it('makes __proto__ an own key, never a prototype', () => {
    const result = read(`{'__proto__': {'x': 1}}`);
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('caps nesting', () => {
    expect(read('['.repeat(200) + ']'.repeat(200))).toMatchObject({ ok: false, eof: false, error: 'nested too deeply' });
  });

  it('agrees with the strict reader on strict JSON: JSON.parse, integers beyond 2^53 kept as digits (inside a container: a bare number at the end may still grow)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify({ v: value });
        const result = read(text);
        const strict = readJsonValueAt(text, 0);
        expect(result.ok).toBe(true);
        expect(strict.ok).toBe(true);
        expect(result.ok && result.value).toEqual(strict.ok && strict.value);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on fragments', () => {
    const pieces = ['{', '}', '[', ']', ',', ':', "'", '"', '\\', 'True', 'None', 'tru', '1', '-', '.', 'e', ' ', 'a', '\\u12', '\n'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const result = read(parts.join(''));
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });
});

describe('readLenientJsonAt: integers beyond 2^53', () => {
  it('keeps their digits as strings, as the strict reader does', () => {
    const read = readLenientJsonAt("{'id': 1234567890123456789, 'n': 5,}", 0);
    expect(read.ok && read.value).toEqual({ id: '1234567890123456789', n: 5 });
  });
});

