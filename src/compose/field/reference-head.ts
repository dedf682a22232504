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
 * answer -1 and report nothing). Likewise a body that opens with `{`, `[` (JSON, Hermes's) or
 * `<` (markup, Qwen3-Coder's `<function=`) is read by none of the token-section grammars
 * sharing the opener: their heads need a prefix (`function\n`) or a name before `>`, and a
 * head name holds no brace, bracket or angle bracket; only those are skipped there. A markup
 * body (`<`) also skips the JSON call-object grammars (Hermes): their bodies open with `{`, `[`
 * or their fence, and none of those fences opens with `<`. `reference-head.property.test.ts`
 * runs every skipped reader on random bodies of each shape, so a new record that would read one
 * fails there, not silently here.
 */
import type { FieldGrammar } from '../../dialects/field/index.js';
import { isIdentPart, isIdentStart } from '../../lex/ident.js';
import { referenceBlockTags } from './call-markup.js';
import { skipSpace } from './cursor.js';
import type { OpenerHit } from './detect.js';

const OPEN_PAREN = 0x28;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const LESS_THAN = 0x3c;

let openers: ReadonlySet<string> | null = null;

/** The reference grammar's call openers (`<tool_call>` and its spellings). */
export function referenceOpeners(): ReadonlySet<string> {
  return (openers ??= new Set(referenceBlockTags().open));
}

/** Whether the body after `opener`, a reference call opener at `at`, opens with a call head `name({`. */
export function opensReferenceCall(text: string, at: number, opener: string): boolean {
  return referenceOpeners().has(opener) && callHeadAt(text, skipSpace(text, at + opener.length));
}

/** Whether a call head `name({` opens at `pos`. */
function callHeadAt(text: string, pos: number): boolean {
  if (!isIdentStart(text.charCodeAt(pos))) return false;
  pos++;
  while (isIdentPart(text.charCodeAt(pos))) pos++;
  return text.charCodeAt(pos) === OPEN_PAREN && text.charCodeAt(pos + 1) === OPEN_BRACE;
}

/** Whether the body after `opener` at `at` opens (after JSON whitespace) with `{`, `[` or `<`. */
export function opensJsonOrMarkup(text: string, at: number, opener: string): boolean {
  return isJsonOrMarkupStart(text.charCodeAt(skipSpace(text, at + opener.length)));
}

function isJsonOrMarkupStart(code: number): boolean {
  return code === OPEN_BRACE || code === OPEN_BRACKET || code === LESS_THAN;
}

/** The grammars sharing an opener that never read a JSON or markup body (see the header). */
export function skippedAtJsonOrMarkup(grammar: FieldGrammar): boolean {
  return grammar.family === 'token-section';
}

/** Whether the body after `opener` at `at` opens (after JSON whitespace) with `<`. */
export function opensMarkup(text: string, at: number, opener: string): boolean {
  return isMarkupStart(text.charCodeAt(skipSpace(text, at + opener.length)));
}

function isMarkupStart(code: number): boolean {
  return code === LESS_THAN;
}

/** The grammars sharing an opener that never read a markup body: those of `skippedAtJsonOrMarkup`, and JSON call objects whose fence (if any) opens with no `<`. */
export function skippedAtMarkup(grammar: FieldGrammar): boolean {
  if (skippedAtJsonOrMarkup(grammar)) return true;
  return grammar.family === 'call-objects' && !(grammar.fence?.open ?? []).some((open) => open.charCodeAt(0) === LESS_THAN);
}

const NO_GRAMMARS: readonly FieldGrammar[] = [];
const FOR_BODIES = new WeakMap<readonly FieldGrammar[], readonly FieldGrammar[]>();
const FOR_MARKUP = new WeakMap<readonly FieldGrammar[], readonly FieldGrammar[]>();

function keptOf(memo: WeakMap<readonly FieldGrammar[], readonly FieldGrammar[]>, grammars: readonly FieldGrammar[], skipped: (grammar: FieldGrammar) => boolean): readonly FieldGrammar[] {
  let kept = memo.get(grammars);
  if (kept === undefined) {
    kept = grammars.filter((grammar) => !skipped(grammar));
    memo.set(grammars, kept);
  }
  return kept;
}

/**
 * The grammars of `hit` worth trying at its opener: none for a reference call at a shared
 * opener, all but the token-section ones for a JSON body there, and all but those and the JSON
 * call-object ones for a markup body, else all (in record order).
 */
export function grammarsToTry(text: string, hit: OpenerHit): readonly FieldGrammar[] {
  if (!referenceOpeners().has(hit.opener)) return hit.grammars;
  // perf: the body's start is found once for the three questions below (each skipped the blanks
  // after the opener again).
  const body = skipSpace(text, hit.index + hit.opener.length);
  if (callHeadAt(text, body)) return NO_GRAMMARS;
  const code = text.charCodeAt(body);
  if (!isJsonOrMarkupStart(code)) return hit.grammars;
  // perf: at 80 KB of Qwen3-Coder calls (`<tool_call>\n<function=…`) the Hermes reader was tried
  // and refused at every call before the Qwen3-Coder one read it.
  if (isMarkupStart(code)) return keptOf(FOR_MARKUP, hit.grammars, skippedAtMarkup);
  return keptOf(FOR_BODIES, hit.grammars, skippedAtJsonOrMarkup);
}
