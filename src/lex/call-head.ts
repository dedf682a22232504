/**
 * `callHead`: the leading call head of a unit body (docs/design.md, "Call head").
 *
 * The scanner reports it on every body-carrying unit so the composer can branch with a map
 * lookup instead of a regex per unit. It says nothing about whether the name is a real tool.
 *
 *     "\n  edit{ a: 1 }"   ->  {name: "edit", sep: "{"}
 *          ^ leading Unicode whitespace (newlines included) is skipped first
 *     "look ({})"          ->  {name: "look", sep: "("}   spaces/tabs may precede the separator
 *     "look\n({})"         ->  null                       a newline may not
 */
import { Code, isUnicodeWhitespace } from './codes.js';
import { identLength } from './ident.js';

export interface CallHead {
  readonly name: string;
  readonly sep: '(' | '{';
}

/** The call head of `text[from, to)`, or null when it does not open with `ident(` or `ident{`. */
export function callHead(text: string, from = 0, to = text.length): CallHead | null {
  let at = from;
  while (at < to && isUnicodeWhitespace(text.charCodeAt(at))) at++;
  const nameLength = identLength(text, at);
  if (nameLength === 0 || at + nameLength >= to) return null;
  let after = at + nameLength;
  while (after < to) {
    const code = text.charCodeAt(after);
    if (code !== Code.Space && code !== Code.Tab) break;
    after++;
  }
  if (after >= to) return null;
  const code = text.charCodeAt(after);
  if (code === Code.LeftParen) return { name: text.slice(at, at + nameLength), sep: '(' };
  if (code === Code.LeftBrace) return { name: text.slice(at, at + nameLength), sep: '{' };
  return null;
}
