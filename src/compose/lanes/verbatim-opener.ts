/**
 * Verbatim heredoc openers of the JSON grammar: `<<TAG:N` (counted: N body lines, then a line
 * that is exactly TAG) and `<<TAG` (uncounted: the body runs to the first line that is exactly
 * TAG). The same spelling is the argument value that declares a body and the trailing line that
 * opens it (the vocabulary's `verbatim_counted_*` entries; docs/design.md, "Verbatim binding").
 */
import { Code } from '../../lex/codes.js';

export interface VerbatimOpener {
  tag: string;
  /** The digits after `:` for a counted opener; null for an uncounted one. */
  count: string | null;
}

function isTagStart(code: number): boolean {
  return (code >= Code.UpperA && code <= Code.UpperZ) || (code >= Code.LowerA && code <= Code.LowerZ) || code === Code.Underscore;
}

function isTagPart(code: number): boolean {
  return isTagStart(code) || (code >= Code.Digit0 && code <= Code.Digit9) || code === Code.Dot || code === Code.Dash;
}

/** Reads `text` as a whole opener (no surrounding whitespace); null when it is anything else. */
export function parseVerbatimOpener(text: string): VerbatimOpener | null {
  //   <<TAG:12
  //   ^ start, must be `<<` then an identifier
  if (text.length < 3 || text.charCodeAt(0) !== Code.LessThan || text.charCodeAt(1) !== Code.LessThan) return null;
  if (!isTagStart(text.charCodeAt(2))) return null;
  let i = 3;
  while (i < text.length && isTagPart(text.charCodeAt(i))) i++;
  const tag = text.slice(2, i);
  if (i === text.length) return { tag, count: null };
  if (text.charCodeAt(i) !== Code.Colon || i + 1 === text.length) return null;
  const digitsAt = i + 1;
  for (let j = digitsAt; j < text.length; j++) {
    const code = text.charCodeAt(j);
    if (code < Code.Digit0 || code > Code.Digit9) return null;
  }
  return { tag, count: text.slice(digitsAt) };
}
