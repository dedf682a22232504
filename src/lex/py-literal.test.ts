import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderPy, renderPyCall, seededPick } from '../../test/support/py-render.js';
import { readPyCallAt, readPyCallListAt } from './py-call.js';
import { PY_NESTING_LIMIT, readPyKwargsAt, readPyValueAt } from './py-literal.js';

const value = (text: string) => {
  const read = readPyValueAt(`[${text}]`, 0);
  return read.ok ? (read.value as unknown[])[0] : read;
};

describe('readPyValueAt', () => {
  it('reads strings in either quote with escapes, triple quotes, prefixes and concatenation', () => {
    expect(value(`'it\\'s'`)).toBe("it's");
    expect(value(`"a\\"b\\\\c\\n\\t\\x41\\u00e9\\U0001F600\\101"`)).toBe('a"b\\c\n\tAé😀A');
    expect(value(`'''one\ntwo ' '' done'''`)).toBe("one\ntwo ' '' done");
    expect(value(`r'C:\\path\\n'`)).toBe('C:\\path\\n');
    expect(value(`'a' "b" 'c'`)).toBe('abc');
    expect(value(`'keeps \\q unknown escapes'`)).toBe('keeps \\q unknown escapes');
  });

  it('reads numbers, constants and containers, tuples as arrays', () => {
    expect(value('-12')).toBe(-12);
    expect(value('1_000')).toBe(1000);
    expect(value('0x1F')).toBe(31);
    expect(value('2.5e-3')).toBe(0.0025);
    expect(value('.5')).toBe(0.5);
    expect(value('True')).toBe(true);
    expect(value('None')).toBeNull();
    expect(value('false')).toBe(false);
    expect(value('null')).toBeNull();
    expect(value("{'a': [1, (2, 3), (4,), ()], 1: {'b': None},}")).toEqual({ a: [1, [2, 3], [4], []], 1: { b: null } });
    expect(value('(5)')).toBe(5);
  });

  it('makes __proto__ an ordinary own key', () => {
    const read = value("{'__proto__': {'polluted': True}}") as Record<string, unknown>;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.hasOwn(read, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('tells text cut off by its end from text that is not a literal', () => {
    for (const cut of ["['abc", '[1, 2', "{'a': ", '[Tru', "['a\\", "['\\u00", '[1.', '[1e', "'''abc''", '[-']) {
      expect(readPyValueAt(cut, 0)).toMatchObject({ ok: false, eof: true });
    }
    for (const bad of ['[x]', '[1 2]', "{'a' 1}", "['a\nb']", '[1abc]', '[1.2.3]', "{[1]: 2}", '[,]', '["\\xZZ"]', '[+]']) {
      expect(readPyValueAt(bad, 0)).toMatchObject({ ok: false, eof: false });
    }
  });

  it('caps nesting without overflowing the stack, even 100000 deep', () => {
    expect(readPyValueAt('['.repeat(PY_NESTING_LIMIT) + ']'.repeat(PY_NESTING_LIMIT), 0).ok).toBe(true);
    expect(readPyValueAt('['.repeat(PY_NESTING_LIMIT + 1) + ']'.repeat(PY_NESTING_LIMIT + 1), 0)).toMatchObject({ ok: false, eof: false });
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(readPyValueAt(deep, 0)).toMatchObject({ ok: false, eof: false, error: expect.stringContaining('nested deeper') });
    expect(readPyKwargsAt(`a=${'{'.repeat(100_000)}`, 0)).toMatchObject({ ok: false, eof: false });
  });
});

describe('pythonic calls', () => {
  it('reads keyword arguments and refuses positional or repeated ones', () => {
    expect(readPyKwargsAt("a=1, b='x')", 0)).toEqual({ ok: true, value: { a: 1, b: 'x' }, end: 11 });
    expect(readPyKwargsAt(')', 0)).toEqual({ ok: true, value: {}, end: 1 });
    expect(readPyKwargsAt("'x')", 0)).toMatchObject({ ok: false, eof: false });
    expect(readPyKwargsAt('a=1, a=2)', 0)).toMatchObject({ ok: false, error: expect.stringContaining('repeated') });
  });

  it('reads a call with a dotted name and a list of calls with their spans', () => {
    expect(readPyCallAt("brave_search.call(query='x')", 0)).toMatchObject({ ok: true, call: { name: 'brave_search.call', arguments: { query: 'x' }, start: 0, end: 28 } });
    const text = "[f(a=1), g(b='x'),]";
    const read = readPyCallListAt(text, 0);
    expect(read).toMatchObject({ ok: true, end: text.length });
    if (read.ok) expect(read.calls.map((c) => [c.name, c.arguments, text.slice(c.start, c.end)])).toEqual([['f', { a: 1 }, 'f(a=1)'], ['g', { b: 'x' }, "g(b='x')"]]);
    expect(readPyCallListAt('[]', 0)).toEqual({ ok: true, calls: [], end: 2 });
    expect(readPyCallListAt('[f(a=1) g()]', 0)).toMatchObject({ ok: false, eof: false });
    expect(readPyCallListAt("[f(a='x", 0)).toMatchObject({ ok: false, eof: true, name: 'f' });
  });
});

describe('Python literal properties', () => {
  const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constant('__proto__'));
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.string({ maxLength: 12 }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
    ),
  }));

  it('reads back every literal the renderer writes, in any spelling', () => {
    fc.assert(
      fc.property(tree, fc.integer(), fc.boolean(), (literal, seed, jsonConstants) => {
        const text = `[${renderPy(literal, { pick: seededPick(seed), jsonConstants })}]`;
        const read = readPyValueAt(text, 0);
        expect(read).toEqual({ ok: true, value: [literal], end: text.length });
      }),
      { numRuns: 500 },
    );
  });

  it('reads back rendered calls', () => {
    const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(ident, fc.dictionary(ident, tree, { maxKeys: 3 })), { maxLength: 4 }), fc.integer(), (calls, seed) => {
        const style = { pick: seededPick(seed) };
        const text = `[${calls.map(([name, args]) => renderPyCall(name, args, style)).join(', ')}]`;
        const read = readPyCallListAt(text, 0);
        expect(read.ok && read.calls.map((c) => [c.name, c.arguments])).toEqual(calls);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on random fragments of pythonic text', () => {
    const piece = fc.constantFrom('[', ']', '(', ')', '{', '}', ',', ':', '=', "'", '"', "'''", '\\', '\\x', '\\u12', 'f', 'a=', 'True', 'Non', '1', '-', '.', 'e', '0x', ' ', '\n', 'r"');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(3), (pieces, start) => {
        const text = pieces.join('');
        for (const read of [readPyValueAt(text, start), readPyKwargsAt(text, start), readPyCallAt(text, start), readPyCallListAt(text, start)]) {
          expect(typeof read.ok).toBe('boolean');
        }
      }),
      { numRuns: 2000 },
    );
  });
});
