/**
 * A Markdown code fence around a JSON body (`CodeFence`): where its body starts after the
 * opening line, and where its closing line ends. Both look only at the lines they read.
 */
import type { CodeFence } from '../../dialects/field/index.js';
import { TURN_END } from '../../dialects/field/turn-end.js';
import { Code } from '../../lex/codes.js';
import { matchAt, skipSpace } from './cursor.js';

/** Past spaces, tabs and carriage returns: the rest of a fence line. */
function lineRest(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === Code.Space || text.charCodeAt(i) === Code.Tab || text.charCodeAt(i) === Code.CarriageReturn) i++;
  return i;
}

/** The first character of the body after a fence's opening line at `at` (its info word, then the line's end), or -1. */
export function fenceBodyAt(text: string, at: number, fence: CodeFence): number {
  const open = matchAt(text, at, fence.open);
  if (open === null) return -1;
  const end = lineRest(text, at + open.length);
  return text.charCodeAt(end) === Code.LineFeed ? skipSpace(text, end + 1) : -1;
}

/** The fence's closing line after a body ending at `from`: where it starts and ends, or null when none follows. */
export function fenceCloseAfter(text: string, from: number, fence: CodeFence): { readonly at: number; readonly end: number } | null {
  const at = skipSpace(text, from);
  if (!text.startsWith(fence.close, at)) return null;
  const end = lineRest(text, at + fence.close.length);
  if (end >= text.length || text.charCodeAt(end) === Code.LineFeed) return { at, end };
  // The turn's end token written on the closing line (Command R+'s template: "```<|END_OF_TURN_TOKEN|>"):
  // the line ends there, the token left for the turn-end reader.
  return matchAt(text, end, TURN_END_TOKENS) !== null ? { at, end } : null;
}

const TURN_END_TOKENS: readonly string[] = [...TURN_END.tokens, ...TURN_END.trailingTokens];

/**
 * Whether the text ends inside the fence's closing marker after a body ending at `from` (a
 * response cut after two of its three backticks): the close had begun.
 */
export function fenceCloseCut(text: string, from: number, fence: CodeFence): boolean {
  const at = skipSpace(text, from);
  return at < text.length && text.length - at < fence.close.length && fence.close.startsWith(text.slice(at));
}
