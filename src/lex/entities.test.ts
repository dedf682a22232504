import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workRatio } from '../../test/support/string-work.js';
import { decodeCharacterReferences, decodeEntities } from './entities.js';

const HTML = { 'amp;': '&', 'lt;': '<', 'gt;': '>', 'quot;': '"', 'apos;': "'", '#39;': "'", '#34;': '"' };

describe('decodeEntities', () => {
  it('decodes strings inside objects and arrays, not keys', () => {
    const value = { content: 'if (a &lt;= b) { xs.map(x =&gt; x) }', nested: ['a &amp;&amp; b'], 'k&amp;': 1 };
    expect(decodeEntities(value, HTML)).toEqual({
      content: 'if (a <= b) { xs.map(x => x) }',
      nested: ['a && b'],
      'k&amp;': 1,
    });
  });

  it('is a single pass: replacements are never re-scanned', () => {
    expect(decodeEntities('&amp;lt; and a bare R&D', HTML)).toBe('&lt; and a bare R&D');
    expect(decodeEntities('&amp', HTML)).toBe('&amp');
    expect(decodeEntities('&&#39;&', HTML)).toBe("&'&");
  });

  it('prefers the longest key whatever the table order', () => {
    expect(decodeEntities('&lt;', { lt: 'L', 'lt;': '<' })).toBe('<');
    expect(decodeEntities('&lt;', { 'lt;': '<', lt: 'L' })).toBe('<');
    expect(decodeEntities('&lt', { 'lt;': '<', lt: 'L' })).toBe('L');
  });

  it('leaves non-strings alone and does not mutate the input', () => {
    const input = { a: 1, b: null, c: true, d: ['&lt;'] };
    const output = decodeEntities(input, HTML);
    expect(output).toEqual({ a: 1, b: null, c: true, d: ['<'] });
    expect(input.d[0]).toBe('&lt;');
    expect(decodeEntities(5, HTML)).toBe(5);
  });

  it('copies own __proto__ keys as own keys', () => {
    const input = JSON.parse('{"__proto__": {"x": "&lt;"}}') as Record<string, unknown>;
    const output = decodeEntities(input, HTML);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ x: '<' });
  });

  it('handles deep nesting without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"&lt;"${']'.repeat(100_000)}`) as unknown;
    let cursor = decodeEntities(deep, HTML) as unknown;
    for (let i = 0; i < 100_000; i++) cursor = (cursor as unknown[])[0];
    expect(cursor).toBe('<');
  });

  it('throws TypeErrors on a bad table', () => {
    expect(() => decodeEntities('x', null as never)).toThrow(TypeError);
    expect(() => decodeEntities('x', { 'lt;': 1 } as never)).toThrow(/lt;/);
  });

  it('matches a naive longest-first decoder', () => {
    const naive = (s: string): string => {
      const keys = Object.keys(HTML).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
      let out = '';
      for (let i = 0; i < s.length; i++) {
        if (s[i] !== '&') {
          out += s[i];
          continue;
        }
        const key = keys.find((k) => s.startsWith(k, i + 1));
        if (key === undefined) out += '&';
        else {
          out += HTML[key as keyof typeof HTML];
          i += key.length;
        }
      }
      return out;
    };
    const piece = fc.constantFrom('&', 'amp;', 'lt;', 'lt', '#39;', 'x', ';', '#');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const s = pieces.join('');
        expect(decodeEntities(s, HTML)).toBe(naive(s));
      }),
    );
  });

  it('does linear work on ampersand runs', () => {
    expect(workRatio((n) => '&am&l&#3'.repeat(n), (s) => decodeEntities(s, HTML))).toBeLessThan(12);
  });
});

describe('decodeCharacterReferences', () => {
  it('decodes named and numeric references in one pass', () => {
    expect(decodeCharacterReferences('it&#x27;s &#60;b&#X3E; &amp; &#128512;', HTML)).toBe("it's <b> & \u{1f600}");
    expect(decodeCharacterReferences('&amp;#39; stays one level', HTML)).toBe('&#39; stays one level');
  });

  it('keeps a reference that names no character as written', () => {
    for (const s of ['&#0;', '&#x110000;', '&#xD800;', '&#;', '&#x;', '&#39', '&#12345678;', '& #39;']) expect(decodeCharacterReferences(s, HTML)).toBe(s);
  });

  it('does linear work on ampersand runs', () => {
    expect(workRatio((n) => '&#3&#x&a&#99999'.repeat(n), (s) => decodeCharacterReferences(s, HTML))).toBeLessThan(12);
  });
});
