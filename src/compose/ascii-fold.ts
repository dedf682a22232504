/**
 * Character classes on char codes. ASCII case folding serves protocol spellings (all ASCII
 * letters, digits and `_`): folding the text with `toLowerCase` would copy every string it
 * checks. The only non-ASCII characters whose lower case is ASCII are U+212A (to `k`) and
 * U+0130 (to `i` plus U+0307); no spelling given to these helpers contains a `k` or ends
 * before a combining mark, so folding ASCII alone is exact.
 */
import { Code, isTrimmedByJs } from '../lex/codes.js';

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

/** `text.trim() === ''` without the copy; most texts answer at their first character. */
export function isBlank(text: string): boolean {
  return isBlankFrom(text, 0);
}

/** `text.slice(from).trim() === ''` without the copies. */
export function isBlankFrom(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) if (!isTrimmedByJs(text.charCodeAt(i))) return false;
  return true;
}
