/**
 * ASCII case folding on char codes, for protocol spellings (all ASCII letters, digits and `_`).
 * Folding the text with `toLowerCase` would allocate a copy of every string it checks; the only
 * non-ASCII characters whose lower case is ASCII are U+212A (to `k`) and U+0130 (to `i` plus
 * U+0307), and no spelling these helpers are given contains a `k` or ends before a combining mark.
 */
import { Code } from '../lex/codes.js';

/** The code with `A`-`Z` mapped to `a`-`z`; every other code unchanged. */
export function foldAscii(code: number): number {
  return code >= Code.UpperA && code <= Code.UpperZ ? code + 0x20 : code;
}

/** ASCII case-insensitive `text.startsWith(lowerWord, at)`; `lowerWord` is already lower case. */
export function startsWithFolded(text: string, at: number, lowerWord: string): boolean {
  if (at < 0 || at + lowerWord.length > text.length) return false;
  for (let k = 0; k < lowerWord.length; k++) {
    if (foldAscii(text.charCodeAt(at + k)) !== lowerWord.charCodeAt(k)) return false;
  }
  return true;
}
