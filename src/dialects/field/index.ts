/**
 * Every field grammar, in detection order (unique special tokens first, then shared tags whose
 * body decides, then look-alikes). The order matters only where grammars share an opener.
 */
import { deepFreeze } from '../freeze.js';
import { CALL_OBJECT_GRAMMARS } from './call-objects.js';
import { PARAM_MARKUP_GRAMMARS } from './param-markup.js';
import { TOKEN_SECTION_GRAMMARS } from './token-sections.js';
import type { FieldGrammar } from './types.js';

export type {
  CallHeadForm,
  CallObjectShape,
  CallObjectsGrammar,
  FieldFamily,
  FieldGrammar,
  FieldGrammarBase,
  MarkupTag,
  NamedTagArguments,
  PairArguments,
  ParamMarkupGrammar,
  TagArguments,
  TextCallHead,
  TagCallHead,
  TokenSectionGrammar,
  ValueRule,
} from './types.js';
export { NAME_TO_SPACE } from './types.js';

export const FIELD_GRAMMARS: readonly FieldGrammar[] = deepFreeze([...TOKEN_SECTION_GRAMMARS, ...CALL_OBJECT_GRAMMARS, ...PARAM_MARKUP_GRAMMARS]);
