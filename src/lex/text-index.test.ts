import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUnicodeWhitespace } from './codes.js';
import { lineCol } from './position.js';
import { TextIndex } from './text-index.js';

describe('TextIndex fences', () => {
  it('pairs non-overlapping ``` markers anywhere, by parity', () => {
    const index = new TextIndex('```\nin\n```\nout');
    expect(index.fenceMarkers).toEqual([0, 7]);
    expect(index.insideFence(0)).toBe(false);
    expect(index.insideFence(4)).toBe(true);
    expect(index.insideFence(7)).toBe(true);
    expect(index.insideFence(11)).toBe(false);
  });

  it('fences nothing after an unbalanced trailing marker; six backticks are a pair', () => {
    expect(new TextIndex('```\nx').insideFence(4)).toBe(false);
    const six = new TextIndex('``````\nx\n```\n');
    expect(six.fenceMarkers).toEqual([0, 3, 9]);
    expect(six.insideFence(7)).toBe(false);
  });
});

describe('TextIndex fences queried in any order', () => {
  it('answers by the parity of the markers before the offset', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('```', '`', 'x', '\n'), { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 30 }), (parts, picks) => {
        const text = parts.join('');
        const shared = new TextIndex(text);
        const offsets = [...picks.map((p) => p % (text.length + 1)), ...Array.from({ length: text.length + 1 }, (_, i) => i)];
        for (const offset of offsets) {
          const before = shared.fenceMarkers.filter((marker) => marker < offset).length;
          expect(shared.insideFence(offset)).toBe(before % 2 === 1 && before < shared.fenceMarkers.length);
        }
      }),
    );
  });
});

describe('TextIndex line-leading', () => {
  it('accepts space, tab and CR but not FF before the offset', () => {
    const index = new TextIndex('a\n \t\r<x\n\f<y');
    expect(index.isLineLeading(5)).toBe(true);
    expect(index.isLineLeading(9)).toBe(false);
    expect(index.isLineLeading(0)).toBe(true);
    expect(index.isLineLeading(1)).toBe(false);
  });

  it('the Unicode variant also accepts FF, VT and no-break space', () => {
    const index = new TextIndex('x\n\f\u000b\u00a0<y');
    expect(index.isLineLeadingUnicode(5)).toBe(true);
    expect(index.isLineLeading(5)).toBe(false);
    expect(index.firstNonWhitespace(1)).toBe(5);
  });

  it('finds line bounds', () => {
    const index = new TextIndex('ab\ncd\n');
    expect(index.lineStart(4)).toBe(3);
    expect(index.lineEnd(3)).toBe(5);
    expect(index.lineEnd(6)).toBe(6);
    expect(index.lineCount).toBe(3);
  });
});

describe('TextIndex line-leading read backwards', () => {
  /** The definition: every character from the line start to the offset is blank. */
  function leadingByDefinition(text: string, offset: number, blank: (code: number) => boolean): boolean {
    const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    for (let at = lineStart; at < offset; at++) if (!blank(text.charCodeAt(at))) return false;
    return true;
  }
  const blankOnLine = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0d;

  it('agrees with the definition at every offset', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(' ', '\t', '\r', '\n', '\f', '\u00a0', '\u2028', '<', 'x'), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const index = new TextIndex(text);
        for (let offset = 0; offset <= text.length; offset++) {
          expect(index.isLineLeading(offset)).toBe(leadingByDefinition(text, offset, blankOnLine));
          expect(index.isLineLeadingUnicode(offset)).toBe(leadingByDefinition(text, offset, (c) => c !== 0x0a && isUnicodeWhitespace(c)));
        }
      }),
    );
  });
});

describe('lineCol', () => {
  it('counts from 1', () => {
    expect(lineCol('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineCol('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineCol('ab\n', 3)).toEqual({ line: 2, column: 1 });
  });

  it('rejects offsets outside the text', () => {
    expect(() => lineCol('ab', 3)).toThrow(TypeError);
  });
});
