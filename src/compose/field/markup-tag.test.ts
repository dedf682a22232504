import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_NAME_MAX } from '../../dialects/field/names.js';
import { searchList } from './cursor.js';
import { readOpenTag, type ListedTag } from './markup-tag.js';

const FUNCTION_TAG: ListedTag = { open: searchList(['<function=']), nameAttribute: null, end: '>', close: ['</function>'] };

/** The name rule `readOpenTag` applies to a header with no attributes, as first written: trim, then refuse an empty name, a `<` or a line break. */
function nameByTrim(header: string): string | null {
  const name = header.trim();
  return name === '' || name.includes('<') || name.includes('\n') ? null : name;
}

describe('readOpenTag, a header that is the name', () => {
  it('trims the blanks JavaScript trims and refuses an empty name, a `<` or a line break inside it', () => {
    expect(readOpenTag('<function= look >', 0, FUNCTION_TAG)).toEqual({ ok: true, name: 'look', attributes: new Map(), end: 17 });
    expect(readOpenTag('<function=\ufefflook\u00a0>', 0, FUNCTION_TAG)).toMatchObject({ ok: true, name: 'look' });
    // U+0085 is no JavaScript blank: it stays part of the name.
    expect(readOpenTag('<function=\u0085look>', 0, FUNCTION_TAG)).toMatchObject({ ok: true, name: '\u0085look' });
    expect(readOpenTag('<function=\nlook\n>', 0, FUNCTION_TAG)).toMatchObject({ ok: true, name: 'look' });
    expect(readOpenTag('<function=lo\nok>', 0, FUNCTION_TAG)).toEqual({ ok: false, eof: false });
    expect(readOpenTag('<function=lo<ok>', 0, FUNCTION_TAG)).toEqual({ ok: false, eof: false });
    expect(readOpenTag('<function= \u2028 >', 0, FUNCTION_TAG)).toEqual({ ok: false, eof: false });
    expect(readOpenTag('<function=lo', 0, FUNCTION_TAG)).toEqual({ ok: false, eof: true });
    expect(readOpenTag(`<function=${'a'.repeat(FIELD_NAME_MAX + 1)}>x`, 0, FUNCTION_TAG)).toEqual({ ok: false, eof: false });
    expect(readOpenTag('<parameter=x>', 0, FUNCTION_TAG)).toBeNull();
  });

  it('reads every header as trimming it and searching the copy would', () => {
    const unit = fc.constantFrom('a', '_', ' ', '\t', '\n', '\r', '<', '\u00a0', '\u0085', '\u2028', '\u3000', '\ufeff', 'é');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        const header = units.join('');
        const read = readOpenTag(`<function=${header}>rest`, 0, FUNCTION_TAG);
        const name = nameByTrim(header);
        expect(read).toEqual(name === null ? { ok: false, eof: false } : { ok: true, name, attributes: new Map(), end: 11 + header.length });
      }),
      { numRuns: 3000 },
    );
  });
});
