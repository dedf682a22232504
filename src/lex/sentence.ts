/**
 * Whether a line of text reads as a sentence of prose rather than a line of code: the test a
 * reader uses where a marker may open raw code or may have been followed by words instead
 * (Llama 3.1's `<|python_tag|>Sure, I can help with that.`).
 *
 * A sentence here: an upper-case letter first, at least three words separated by single spaces,
 * each word letters (any script), digits, apostrophes or hyphens with at most one of `,;:.!?`
 * after it, and the last one ending with `.`, `!`, `?` or `:`. No Python line reads so: its
 * keywords are lower case, a statement never ends with those marks, and an expression holds
 * an operator, a bracket or a quote. A line in a script with no case (Chinese) is never one.
 */
const WORD = /^[\p{L}\p{N}'’-]+[,;:.!?]?$/u;
const UPPER_FIRST = /^\p{Lu}/u;
const ENDS = /[.!?:]$/;

export function isSentenceLine(line: string): boolean {
  const text = line.trim();
  if (!UPPER_FIRST.test(text) || !ENDS.test(text)) return false;
  const words = text.split(' ');
  if (words.length < 3) return false;
  for (const word of words) if (!WORD.test(word)) return false;
  return true;
}
