import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readGemmaObjectAt } from './gemma-value.js';
import { asRead } from '../../test/support/exact-integers.js';

const G4 = '<|"|>';
const FG = '<escape>';

/** A test renderer of the Gemma value grammar: strings delimited (or JSON-quoted), keys bare. */
function render(value: unknown, delimiter: string, quoteJson: boolean): string {
  if (typeof value === 'string') return quoteJson ? JSON.stringify(value) : `${delimiter}${value}${delimiter}`;
  if (Array.isArray(value)) return `[${value.map((v) => render(v, delimiter, quoteJson)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}:${render(v, delimiter, quoteJson)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('readGemmaObjectAt', () => {
  it('reads delimited strings verbatim, JSON strings unescaped, numbers, words and nesting', () => {
    const text = `{city:${G4}Paris, "the" {city}\\n${G4},days:3,units:"m\\u00b3",tags:[${G4}a${G4},true,null],opt:{deep:-1.5e2}} tail`;
    expect(readGemmaObjectAt(text, 0, G4)).toEqual({
      ok: true,
      value: { city: 'Paris, "the" {city}\\n', days: 3, units: 'm³', tags: ['a', true, null], opt: { deep: -150 } },
      end: text.length - ' tail'.length,
    });
    expect(readGemmaObjectAt(`{ a : ${FG}x<|"|>y${FG} , b : [ ] }`, 0, FG)).toMatchObject({ ok: true, value: { a: 'x<|"|>y', b: [] } });
    expect(readGemmaObjectAt('{}', 0, G4)).toEqual({ ok: true, value: {}, end: 2 });
  });

  it('makes __proto__ an ordinary own key', () => {
    const read = readGemmaObjectAt('{__proto__:{polluted:true}}', 0, G4);
    expect(read.ok && Object.hasOwn(read.value, '__proto__')).toBe(true);
    expect(read.ok && Object.getPrototypeOf(read.value)).toBe(Object.prototype);
  });

  it('tells a cut-off text from one that is not the grammar', () => {
    for (const cut of [`{a:${G4}Par`, '{a:1', '{a:[1,', '{a', `{a:<|"`, '{a:"x', '{a:{b:2}']) expect(readGemmaObjectAt(cut, 0, G4)).toMatchObject({ ok: false, eof: true });
    for (const bad of ['{a 1}', '{:1}', '{a:1]', '[1]', '{a:<tool_call|>', '{a:[<x]}']) expect(readGemmaObjectAt(bad, 0, G4)).toMatchObject({ ok: false, eof: false });
  });

  it('reads bare values as the field reads them: words, null and boolean spellings, loose numbers', () => {
    const text = '{city:San Francisco,path:/tmp/a b.txt,a:nil,b:None,c:NULL,d:null,e:True,f:False,g:108.,h:.5,i:+2,j:1e999,k:}';
    expect(readGemmaObjectAt(text, 0, G4)).toMatchObject({
      ok: true,
      value: { city: 'San Francisco', path: '/tmp/a b.txt', a: null, b: null, c: null, d: null, e: true, f: false, g: 108, h: 0.5, i: 2, j: '1e999', k: '' },
    });
    expect(readGemmaObjectAt(`{tags:[a b,${G4}c${G4},3]}`, 0, G4)).toMatchObject({ ok: true, value: { tags: ['a b', 'c', 3] } });
  });

  it('reads entries with the comma between them missing', () => {
    expect(readGemmaObjectAt(`{city:${FG}NYC${FG}units:${FG}celsius${FG}n:{x:1}list:[${FG}a${FG}${FG}b${FG}]}`, 0, FG)).toMatchObject({
      ok: true,
      value: { city: 'NYC', units: 'celsius', n: { x: 1 }, list: ['a', 'b'] },
    });
  });

  it('caps nesting at any depth without overflowing the stack', () => {
    expect(readGemmaObjectAt(`{a:${'['.repeat(100_000)}`, 0, G4)).toMatchObject({ ok: false, eof: false, error: expect.stringContaining('nested deeper') });
  });

  it('reads back what the renderer writes, in either string form', () => {
    const key = fc.oneof(fc.stringMatching(/^[a-zA-Z_][\w.-]{0,8}$/), fc.constant('__proto__'));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
        fc.string({ maxLength: 12 }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('tree'), { maxLength: 3 }),
        fc.dictionary(key, tie('tree'), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, tree, { maxKeys: 4 }), fc.constantFrom(G4, FG), fc.boolean(), (args, delimiter, quoteJson) => {
        // A delimited string cannot hold its own delimiter.
        fc.pre(quoteJson || !JSON.stringify(args).includes(delimiter));
        const text = render(args, delimiter, quoteJson);
        expect(readGemmaObjectAt(text, 0, delimiter)).toEqual({ ok: true, value: asRead(args), end: text.length });
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on random fragments', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', ':', ',', G4, FG, '<|', '<', '"', '\\', 'a', 'a:', 'a:[', '1', '-', 'true', ' ', '\n', 'nul');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        expect(typeof readGemmaObjectAt(`{${pieces.join('')}`, 0, G4).ok).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
    // An array that a brace closes, or a marker where a value is due, is an error, not a loop.
    for (const bad of ['{a:[}', '{a:[1}', '{a:[<]}', '{a:[,<x]}']) expect(readGemmaObjectAt(bad, 0, G4)).toMatchObject({ ok: false, eof: false });
  });
});
