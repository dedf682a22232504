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

/** A header the rule refuses that is a word alone on its line with markup on a later line: the tag ends at the line break. */
function unterminated(header: string): { name: string; lineBreak: number } | null {
  const match = /^[ \t]*([A-Za-z0-9_$.:-]+)[ \t]*\r?\n[^]*</.exec(header);
  return match === null ? null : { name: match[1]!, lineBreak: header.indexOf('\n') };
}

describe('readOpenTag, a header that is the name', () => {
  it('trims the blanks JavaScript trims and refuses an empty name, a `<` or a line break inside it', () => {
    expect(readOpenTag('<function= look >', 0, FUNCTION_TAG)).toEqual({ ok: true, name: 'look', attributes: new Map(), end: 17, unterminated: false });
    expect(readOpenTag('<function=\ufefflook\u00a0>', 0, FUNCTION_TAG)).toMatchObject({ ok: true, name: 'look' });
    // U+0085 is no JavaScript blank: it stays part of the name.
    expect(readOpenTag('<function=\u0085look>', 0, FUNCTION_TAG)).toMatchObject({ ok: true, name: '\u0085look' });
    expect(readOpenTag('<function=\nlook\n>', 0, FUNCTION_TAG)).toMatchObject({ ok: true, name: 'look' });
    expect(readOpenTag('<function=lo\nok>', 0, FUNCTION_TAG)).toEqual({ ok: false, eof: false });
    // Its `>` left out, the next tag on the next line: the name is the line's word.
    expect(readOpenTag('<function=look\n<parameter=path>', 0, FUNCTION_TAG)).toEqual({ ok: true, name: 'look', attributes: new Map(), end: 14, unterminated: true });
    expect(readOpenTag('<function=look \r\nvalue\n</function>', 0, FUNCTION_TAG)).toMatchObject({ ok: true, name: 'look', end: 16 });
    expect(readOpenTag('<function=lo ok\n<parameter=path>', 0, FUNCTION_TAG)).toEqual({ ok: false, eof: false });
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
        const cut = name === null ? unterminated(header) : null;
        if (name !== null) expect(read).toEqual({ ok: true, name, attributes: new Map(), end: 11 + header.length, unterminated: false });
        else if (cut !== null) expect(read).toEqual({ ok: true, name: cut.name, attributes: new Map(), end: 10 + cut.lineBreak, unterminated: true });
        else expect(read).toEqual({ ok: false, eof: false });
      }),
      { numRuns: 3000 },
    );
  });
});
