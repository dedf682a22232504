/**
 * A call of the reference grammar at an opener the field grammars share: `<tool_call>` followed
 * (after JSON whitespace) by a call head `name({`, the tagged lane's own grammar
 * (docs/design.md, "Call head"). No field grammar that opens with the tag reads such a body,
 * each for a reason of its own record:
 *
 *     <tool_call>\n look({"path": "a"})</tool_call>
 *                   ^ an identifier, then `({`
 *
 *   - JSON call objects (Hermes) start with `{` or `[`;
 *   - parameter markup (Qwen3-Coder, MiniMax) needs its call tag (`<function=`, `<invoke`) or its
 *     tag token; GLM's text head is the text up to a newline or `<arg_key>`, which is blank here
 *     or holds `(`, and a call name holds neither;
 *   - token-section heads need their prefix (`function\n`) or a name up to `>`, which holds `{`
 *     here, and a head name holds no brace.
 *
 * So the lane asks this once per opener instead of trying each reader in turn (each would
 * answer -1 and report nothing). `reference-head.property.test.ts` runs every reader of every
 * grammar sharing such an opener on random bodies of this shape, so a new record that would
 * read one fails there, not silently here.
 */
import { isIdentPart, isIdentStart } from '../../lex/ident.js';
import { referenceBlockTags } from './call-markup.js';
import { skipSpace } from './cursor.js';

const OPEN_PAREN = 0x28;
const OPEN_BRACE = 0x7b;

let openers: ReadonlySet<string> | null = null;

/** The reference grammar's call openers (`<tool_call>` and its spellings). */
export function referenceOpeners(): ReadonlySet<string> {
  return (openers ??= new Set(referenceBlockTags().open));
}

/** Whether the body after `opener`, a reference call opener at `at`, opens with a call head `name({`. */
export function opensReferenceCall(text: string, at: number, opener: string): boolean {
  if (!referenceOpeners().has(opener)) return false;
  let pos = skipSpace(text, at + opener.length);
  if (!isIdentStart(text.charCodeAt(pos))) return false;
  pos++;
  while (isIdentPart(text.charCodeAt(pos))) pos++;
  return text.charCodeAt(pos) === OPEN_PAREN && text.charCodeAt(pos + 1) === OPEN_BRACE;
}
