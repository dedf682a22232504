import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCallExpr, parseObjectLiteral, TOOL_CALL_PARSE_ERROR, type CallExprErrorCode } from './call-expr.js';

/** The reference's call-expression table: text -> arguments and consumed. */
const okExamples: [string, Record<string, unknown>, number][] = [
  ['look({ path: "a.rs" }) trailing prose', { path: 'a.rs' }, 22],
  ['look()', {}, 6],
  ['look( )', {}, 7],
  [
    'look({ a: 1, b: [1, 2,], c: { d: null }, e: undefined, f: true, g: -1.5e3, })',
    { a: 1, b: [1, 2], c: { d: null }, e: null, f: true, g: -1500 },
    77,
  ],
  [`look({ 'k': 'v', "q": "w" })`, { k: 'v', q: 'w' }, 28],
  ['look({ path = "a" })', { path: 'a' }, 20],
  ['look({ n: .5, m: -.25 })', { n: 0.5, m: -0.25 }, 24],
  ['look({ s: "a" + "b" + `c` })', { s: 'abc' }, 28],
  ['look({ s: `x ${a + {b}} y` })', { s: 'x ${a + {b}} y' }, 29],
  ['look({ s: "\\d+\\w" })', { s: '\\d+\\w' }, 20],
  ['look({ s: "\\x41\\x4" })', { s: 'A\\x4' }, 22],
  ['look({ s: "\\uD83D\\uDE00" })', { s: '😀' }, 27],
  ['look({ s: "\\u{1F600}" })', { s: '😀' }, 24],
  ['look({ s: "C:\\users\\me" })', { s: 'C:\\users\\me' }, 26],
  ['look({ a: "line\\\ncont" })', { a: 'linecont' }, 25],
  ['look({ a: "\\b\\f\\v" })', { a: '\\b\\f\\v' }, 21],
  ['look({ a: `\\d\\${x}` })', { a: '\\d${x}' }, 22],
  ['look({ content: <<EOF\nline1\nEOF })', { content: 'line1' }, 34],
  ["look({ content: <<'EOF'\nline1\n  EOF, x: 1 })", { content: 'line1', x: 1 }, 44],
  ['look({ content: "<<EOF\nbody\nEOF" })', { content: 'body' }, 35],
  ['look({ content: <<EOF\nbody\n})', { content: 'body' }, 29],
  ['look({ path: "a" }', { path: 'a' }, 18],
  ['look({ // comment\n a: /* c */ 1 })', { a: 1 }, 34],
  ['look({ a: 99999999999999999999 })', { a: 1e20 }, 33],
  ['look({ code: "r#"x"# done" })', { code: 'r#"x"# done' }, 29],
  ['look({ a: "x" "y" })', { a: 'x" "y' }, 20],
];

/** The same table's failures: text -> stable code (the wording is the project's own). */
const errorExamples: [string, CallExprErrorCode][] = [
  ['look({ s: "a" + 1 })', 'concat-non-string'],
  ['look({ s: "\\uD83D y" })', 'invalid-unicode-escape'],
  ['look({ path: "a" } and more', 'missing-close-paren'],
  ['look("x")', 'not-an-object'],
  ['look("x"', 'missing-close-paren'],
  ['look({}, {})', 'missing-close-paren'],
  ['look ({})', 'missing-open-paren'],
  ['look({ 1: 2 })', 'bad-key'],
  ['look({ a })', 'missing-colon'],
  ['look({ a: nil })', 'bad-keyword'],
  ['look({ a: b })', 'unexpected-char'],
  ['look({ a: trueish })', 'object-separator'],
  ['look({ a: 0x10 })', 'object-separator'],
  ['look({ a: 1e999 })', 'non-finite-number'],
  ['look({ a: `unterminated })', 'unterminated-template'],
  ['look({ path: )', 'unexpected-char'],
];

describe('parseCallExpr', () => {
  it.each(okExamples)('%j', (text, args, consumed) => {
    expect(parseCallExpr(text, 'look')).toEqual({ ok: true, arguments: args, consumed });
  });

  it.each(errorExamples)('%j fails with %s', (text, code) => {
    const result = parseCallExpr(text, 'look');
    expect(result).toMatchObject({ ok: false, code });
    if (!result.ok) expect(result.error.startsWith(`${TOOL_CALL_PARSE_ERROR}: \`look`)).toBe(true);
  });

  it('previews the raw argument text in value errors, truncated at 200 code points', () => {
    const result = parseCallExpr('look({ a: b })', 'look');
    expect(result.ok || result.error.endsWith('Raw: { a: b })')).toBe(true);
    const long = parseCallExpr(`look({ a: "${'😀'.repeat(300)}`, 'look');
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.error.endsWith(`Raw: { a: "${'😀'.repeat(194)}\u2026`)).toBe(true);
  });

  it('mentions an object literal when the argument is a scalar', () => {
    const result = parseCallExpr('look("x")', 'look');
    expect(!result.ok && /object literal/.test(result.error)).toBe(true);
  });

  it('makes __proto__ an own key and leaves the prototype alone', () => {
    const result = parseCallExpr('look({ __proto__: { x: 1 }, "constructor": 2 })', 'look');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const args = result.arguments;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.keys(args)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toEqual({ x: 1 });
    expect((args as { x?: unknown }).x).toBeUndefined();
  });

  it('lets a duplicate key take the later value', () => {
    expect(parseCallExpr('look({ a: 1, b: 2, a: 3 })', 'look')).toMatchObject({ ok: true, arguments: { a: 3, b: 2 } });
  });

  it('throws a TypeError on non-string arguments', () => {
    expect(() => parseCallExpr(1 as unknown as string, 'look')).toThrow(TypeError);
    expect(() => parseCallExpr('look()', null as unknown as string)).toThrow(/name/);
  });

  it('never throws on arbitrary text and keeps consumed within bounds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (tail) => {
        const text = `look(${tail}`;
        const result = parseCallExpr(text, 'look');
        if (result.ok) {
          expect(result.consumed).toBeGreaterThanOrEqual(6);
          expect(result.consumed).toBeLessThanOrEqual(text.length);
        } else {
          expect(result.error.startsWith(TOOL_CALL_PARSE_ERROR)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on call-shaped noise', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', '(', ')', ',', ':', '=', '"', "'", '`', '\\', 'a', '1', '.', '-',
      '+', ' ', '\n', '<<', 'EOF', '${', '/*', '//', 'true', 'u', '\\u{', '\\uD83D', '\\x4');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = `look(${pieces.join('')}`;
        const result = parseCallExpr(text, 'look');
        if (result.ok) expect(result.consumed).toBeLessThanOrEqual(text.length);
        else expect(typeof result.error).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseObjectLiteral', () => {
  it('parses the name{...} body and stops after the closing brace', () => {
    expect(parseObjectLiteral('{ path: "a.rs" } and then prose', 'look')).toEqual({
      ok: true,
      value: { path: 'a.rs' },
      consumed: 16,
    });
    expect(parseObjectLiteral('  \n{a:1}', 'look')).toEqual({ ok: true, value: { a: 1 }, consumed: 8 });
  });

  it('reports parse errors and non-objects with the shared prefix', () => {
    const broken = parseObjectLiteral('{ a: }', 'edit');
    expect(broken).toMatchObject({ ok: false, code: 'unexpected-char' });
    if (!broken.ok) expect(broken.error).toMatch(/^TOOL CALL PARSE ERROR: `edit\{\.\.\.\}`.*Raw: \{ a: \}$/);
    expect(parseObjectLiteral('[1]', 'edit')).toMatchObject({ ok: false, code: 'not-an-object' });
  });
});

describe('parseCallExpr: documented differences', () => {
  it('accepts an object followed by an unterminated comment through the implicit `)`', () => {
    expect(parseCallExpr('look({ a: 1 } /* cut', 'look')).toEqual({ ok: true, arguments: { a: 1 }, consumed: 20 });
  });

  it('keeps a backslash and the whole non-ASCII character in the recovery scan', () => {
    expect(parseCallExpr('look({ a: "x\\é" y" })', 'look')).toMatchObject({ ok: true, arguments: { a: 'x\\é" y' } });
  });
});
