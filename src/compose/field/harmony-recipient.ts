/**
 * A Harmony recipient as servers print it once the message tokens are stripped or run
 * together: `functions.get_weather json{…}`, `functions.get_weatherjson{…}` (the constraint word
 * glued to the name), `functions.shelljson<|message|>`.
 */
import { HARMONY } from '../../dialects/field/harmony.js';
import type { ToolRegistry } from '../../dialects/registry.js';
import { isIdentPart } from '../../lex/ident.js';
import { admitName } from './admit.js';
import { skipSpace } from './cursor.js';

/** The constraint word gpt-oss writes after a recipient (`<|constrain|>json`, or bare). */
const CONSTRAINT_WORD = 'json';

/** The registry admits `name`, a namespace before it (`functions.`) taken as admission takes it. */
function registered(registry: ToolRegistry, name: string): boolean {
  return admitName(name, registry, 'marked').ok;
}

/**
 * `recipient` without a constraint word run into its end (llama.cpp strips it): with a registry,
 * where the name without it is registered and the name with it is not; with none, only where
 * the JSON body follows at once (`to=functions.fs_readjson{`), the one place the word can stand.
 */
export function withoutGluedConstraint(recipient: string, registry: ToolRegistry | null, bodyFollows: boolean): string {
  if (!recipient.endsWith(CONSTRAINT_WORD)) return recipient;
  const bare = recipient.slice(0, recipient.length - CONSTRAINT_WORD.length);
  if (bare === '' || bare.endsWith('.')) return recipient;
  if (registry === null) return bodyFollows ? bare : recipient;
  return !registered(registry, recipient) && registered(registry, bare) ? bare : recipient;
}

const HEADER_TAIL = [HARMONY.constrain, CONSTRAINT_WORD, HARMONY.message];

/** The text ends inside one of the header's tail literals begun at `pos` (`…get_weather js`): more text may complete it. */
function cutInTail(text: string, pos: number): boolean {
  if (pos >= text.length) return false;
  const rest = text.slice(pos);
  return HEADER_TAIL.some((literal) => rest.length < literal.length && literal.startsWith(rest));
}

/**
 * Past what may stand between a stripped header's recipient and its body: blanks,
 * `<|constrain|>`, `json`, `<|message|>`. The text's end where it ends inside one of them, so a
 * stream holds the call instead of taking the header for words.
 */
export function pastStrippedHeader(text: string, from: number): number {
  let pos = skipSpace(text, from);
  if (text.startsWith(HARMONY.constrain, pos)) pos = skipSpace(text, pos + HARMONY.constrain.length);
  if (text.startsWith(CONSTRAINT_WORD, pos) && !isIdentPart(text.charCodeAt(pos + CONSTRAINT_WORD.length))) pos = skipSpace(text, pos + CONSTRAINT_WORD.length);
  if (text.startsWith(HARMONY.message, pos)) pos = skipSpace(text, pos + HARMONY.message.length);
  return cutInTail(text, pos) ? text.length : pos;
}

/** A bare constraint word after a header's channel (`commentary to=f json<|message|>`): letters only, never the body glued to it. */
export function isConstraintWord(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (!isIdentPart(word.charCodeAt(i))) return false;
  return word !== '';
}
