import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readGemmaObjectAt } from './gemma-value.js';

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
    for (const bad of ['{a:Paris}', '{a 1}', '{a:1 b:2}', '{:1}', '{a:01x}', '[1]']) expect(readGemmaObjectAt(bad, 0, G4)).toMatchObject({ ok: false, eof: false });
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
        expect(readGemmaObjectAt(text, 0, delimiter)).toEqual({ ok: true, value: args, end: text.length });
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on random fragments', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', ':', ',', G4, FG, '<|', '"', '\\', 'a', '1', '-', 'true', ' ', 'nul');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        expect(typeof readGemmaObjectAt(`{${pieces.join('')}`, 0, G4).ok).toBe('boolean');
      }),
      { numRuns: 1500 },
    );
  });
});
