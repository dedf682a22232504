import { describe, expect, it } from 'vitest';
import { isJsSpace, isUnicodeWhitespace } from './codes.js';

describe('whitespace classes', () => {
  it("isJsSpace is JavaScript's \\s (what trim removes) for every UTF-16 unit", () => {
    const differing: number[] = [];
    for (let code = 0; code <= 0xffff; code++) if (isJsSpace(code) !== /\s/.test(String.fromCharCode(code))) differing.push(code);
    expect(differing).toEqual([]);
  });

  it("isUnicodeWhitespace is Rust's is_whitespace: U+0085 is one, U+FEFF is not, unlike isJsSpace", () => {
    expect([isUnicodeWhitespace(0x85), isJsSpace(0x85)]).toEqual([true, false]);
    expect([isUnicodeWhitespace(0xfeff), isJsSpace(0xfeff)]).toEqual([false, true]);
    expect([isUnicodeWhitespace(0x20), isJsSpace(0x20), isUnicodeWhitespace(0x41), isJsSpace(0x41)]).toEqual([true, true, false, false]);
  });
});
