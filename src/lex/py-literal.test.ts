import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderPy, renderPyCall, seededPick } from '../../test/support/py-render.js';
import { readPyCallAt, readPyCallListAt } from './py-call.js';
import { PY_NESTING_LIMIT, PyQuotesAhead, readPyKwargsAt, readPyValueAt, type PyLeniency } from './py-literal.js';
import { asRead } from '../../test/support/exact-integers.js';

/** The leniency of a grammar with no close: strings' ends are looked for up to the end. */
const lenientFor = (text: string): PyLeniency => ({ ahead: new PyQuotesAhead(text), limit: () => text.length });
/** The leniency of a grammar whose close is `close`. */
const closedBy = (text: string, close: string): PyLeniency => ({
  ahead: new PyQuotesAhead(text),
  limit: (from) => {
    const at = text.indexOf(close, from);
    return at < 0 ? text.length : at;
  },
});
const lenientCall = (text: string) => readPyCallListAt(text, 0, lenientFor(text));

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
    expect(readPyCallListAt('[]', 0)).toEqual({ ok: true, calls: [], failures: [], end: 2, unclosed: false });
    expect(readPyCallListAt('[f(a=1) g()]', 0)).toMatchObject({ ok: false, eof: false });
    expect(readPyCallListAt("[f(a='x", 0)).toMatchObject({ ok: false, eof: true, name: 'f' });
  });
});

describe('sets, keys and literals JSON has no value for', () => {
  it('reads a set as a list, each scalar once, and keeps {} a dict', () => {
    expect(value("{'urgent', 'bug', 'urgent'}")).toEqual(['urgent', 'bug']);
    expect(value('{1, (2, 3), 1}')).toEqual([1, [2, 3]]);
    expect(value("{'only'}")).toEqual(['only']);
    expect(value('{}')).toEqual({});
    expect(readPyValueAt("[{'a': 1, 'b'}]", 0)).toMatchObject({ ok: false, eof: false });
  });

  it('writes dict keys as json.dumps does', () => {
    expect(value("{1: 'a', 2.5: 'b', None: 'c', True: 'd'}")).toEqual({ 1: 'a', '2.5': 'b', null: 'c', true: 'd' });
    expect(readPyValueAt("[{(1, 2): 'a'}]", 0)).toMatchObject({ ok: false, eof: false });
  });

  it('refuses a bytes literal rather than reading it as a string', () => {
    expect(readPyValueAt("[b'raw']", 0)).toMatchObject({ ok: false, eof: false, error: expect.stringContaining('bytes') });
    expect(readPyKwargsAt("a=B\"x\")", 0)).toMatchObject({ ok: false, eof: false });
  });

  it('takes Unicode identifiers as keywords', () => {
    expect(readPyKwargsAt("città='Roma', größe=2)", 0)).toMatchObject({ ok: true, value: { città: 'Roma', größe: 2 } });
  });
});

describe('lenient strings (between a grammar own markers)', () => {
  const lenient = (text: string) => readPyKwargsAt(text, 0, lenientFor(text));

  it('keeps a raw line break inside a string; the strict read refuses it', () => {
    expect(lenient("command='cat > f.py << EOF\nimport csv\nEOF')")).toMatchObject({ ok: true, value: { command: 'cat > f.py << EOF\nimport csv\nEOF' } });
    expect(readPyKwargsAt("a='x\ny')", 0)).toMatchObject({ ok: false, eof: false });
  });

  it('reads an unescaped quote of the string own style as literal when one later quote can end it', () => {
    expect(lenient("command='sed -n '360,450p' f.py')")).toMatchObject({ ok: true, value: { command: "sed -n '360,450p' f.py" } });
    expect(lenient("subject='Let's go', n=2)")).toMatchObject({ ok: true, value: { subject: "Let's go", n: 2 } });
    expect(lenient('q="say "hi" now")')).toMatchObject({ ok: true, value: { q: 'say "hi" now' } });
    // The first quote that could end it is followed by `))`, which no frame open at the string takes.
    expect(lenient(`c='python3 -c "f(x, s='\\\\,'))"')`)).toMatchObject({ ok: true, value: { c: `python3 -c "f(x, s='\\,'))"` } });
    expect(lenient("m={'it's': 1})")).toMatchObject({ ok: true, value: { m: { "it's": 1 } } });
  });

  it('refuses a quote with two readings, and one with none', () => {
    // `'x 'y'` could end at `y'` (then `, b=…`) or swallow `', b='z` up to `z'`.
    expect(lenient("a='x 'y', b='z')")).toMatchObject({ ok: false, eof: false, error: expect.stringContaining('more than one way') });
    expect(lenient("a='x'y z)")).toMatchObject({ ok: false, eof: false });
  });

  it('leaves valid Python as the strict read reads it: concatenation, escapes, quotes of the other style', () => {
    for (const text of ["a='x' 'y')", "a='it\\'s', b=\"it's\")", "a='', b='''q'q''')", "a=['x', 'y'], b={'k': 'v'})"]) {
      expect(lenient(text)).toEqual(readPyKwargsAt(text, 0));
    }
  });

  it('never reads a string past the call it is in', () => {
    const text = "[f(a='it's'), g(b='x')]";
    const read = lenientCall(text);
    expect(read.ok && read.calls.map((c) => [c.name, c.arguments])).toEqual([['f', { a: "it's" }], ['g', { b: 'x' }]]);
  });

  it('looks for a string end only before the grammar close', () => {
    const text = "[f(a='x'y')]<|python_end|> it's', b=1)]";
    expect(readPyCallListAt(text, 0, closedBy(text, '<|python_end|>'))).toMatchObject({ ok: true, calls: [{ name: 'f', arguments: { a: "x'y" } }] });
  });
});

describe('lenient call lists', () => {
  it('keeps the siblings of a call that does not read, the failure spanning that call', () => {
    const text = "[calc(x=1e999), get_weather(city='LA'), f(a=x)]";
    const read = lenientCall(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(read.failures.map((f) => [f.name, text.slice(f.start, f.end)])).toEqual([['calc', 'calc(x=1e999)'], ['f', 'f(a=x)']]);
  });

  it('ends a failed call at a `)` outside the lists it opened, never inside a nested one', () => {
    // A bracket the failed call opened before its reading stopped closes inside its own text.
    const inner = "[f(a=[1, b'x']), g(b=2)]";
    const read = lenientCall(inner);
    expect(read).toMatchObject({ ok: true, calls: [{ name: 'g' }] });
    if (read.ok) expect(read.failures.map((f) => inner.slice(f.start, f.end))).toEqual(["f(a=[1, b'x'])"]);
    // Prose and a second list after a failed call are not its arguments: the list does not read.
    expect(lenientCall('[f({"a": 1}) Sure: [g(a=1), h(b=2)]')).toMatchObject({ ok: false });
  });

  it('reads complete calls whose `]` is missing, at the end or at the close', () => {
    expect(lenientCall("[f(a=1), g(b='x')")).toMatchObject({ ok: true, unclosed: true, calls: [{ name: 'f' }, { name: 'g' }] });
    const closed = '[f(a=1)<|python_end|>';
    expect(readPyCallListAt(closed, 0, closedBy(closed, '<|python_end|>'))).toMatchObject({ ok: true, unclosed: true, end: 7 });
    expect(readPyCallListAt("[f(a=1), g(b='x')", 0)).toMatchObject({ ok: false, eof: true });
  });

  it('stops at a call cut off by the end, with the calls before it', () => {
    expect(lenientCall("[f(a=1), g(b='x")).toMatchObject({ ok: false, eof: true, name: 'g', calls: [{ name: 'f' }], from: 9 });
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
        expect(read).toEqual({ ok: true, value: asRead([literal]), end: text.length });
      }),
      { numRuns: 500 },
    );
  });

  it('reads every literal the strict read reads the same way when lenient', () => {
    fc.assert(
      fc.property(tree, fc.integer(), (literal, seed) => {
        const text = `[${renderPy(literal, { pick: seededPick(seed) })}]`;
        expect(readPyValueAt(text, 0, lenientFor(text))).toEqual(readPyValueAt(text, 0));
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
        expect(read.ok && read.calls.map((c) => [c.name, c.arguments])).toEqual(asRead(calls));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on random fragments of pythonic text', () => {
    const piece = fc.constantFrom('[', ']', '(', ')', '{', '}', ',', ':', '=', "'", '"', "'''", '\\', '\\x', '\\u12', 'f', 'a=', 'True', 'Non', '1', '-', '.', 'e', '0x', ' ', '\n', 'r"');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(3), (pieces, start) => {
        const text = pieces.join('');
        const lenient = lenientFor(text);
        const reads = [readPyValueAt(text, start), readPyKwargsAt(text, start), readPyCallAt(text, start), readPyCallListAt(text, start)];
        reads.push(readPyValueAt(text, start, lenient), readPyKwargsAt(text, start, lenient), readPyCallAt(text, start, lenient), readPyCallListAt(text, start, lenient));
        for (const read of reads) {
          expect(typeof read.ok).toBe('boolean');
        }
        // Leniency only reads what the strict read refuses.
        for (let i = 0; i < 4; i++) if (reads[i]!.ok) expect(reads[i + 4]).toEqual(reads[i]);
      }),
      { numRuns: 2000 },
    );
  });
});
