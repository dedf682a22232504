import { Code } from './codes.js';

/** `[A-Za-z_$]`: may start an identifier (ASCII only, as in the reference). */
export function isIdentStart(code: number): boolean {
  return (
    (code >= Code.LowerA && code <= Code.LowerZ) ||
    (code >= Code.UpperA && code <= Code.UpperZ) ||
    code === Code.Underscore ||
    code === Code.Dollar
  );
}

/** `[A-Za-z0-9_$]`: may continue an identifier. */
export function isIdentPart(code: number): boolean {
  return isIdentStart(code) || (code >= Code.Digit0 && code <= Code.Digit9);
}

/**
 * Length of the ASCII identifier `[A-Za-z_$][A-Za-z0-9_$]*` starting at `from`, or 0 when the
 * character at `from` cannot start one (or `from` is at the end). Non-ASCII letters never count.
 */
export function identLength(text: string, from = 0): number {
  if (!isIdentStart(text.charCodeAt(from))) return 0;
  let i = from + 1;
  while (isIdentPart(text.charCodeAt(i))) i++;
  return i - from;
}
