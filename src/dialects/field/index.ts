/**
 * Every field grammar, in detection order (unique special tokens first, then shared tags whose
 * body decides, then look-alikes). The order matters only where grammars share an opener.
 * Reasoning blocks and answer wrappers come last: where a call grammar uses the same literal,
 * its reader is tried first.
 */
import { deepFreeze } from '../freeze.js';
import { CALL_OBJECT_GRAMMARS } from './call-objects.js';
import { PARAM_MARKUP_GRAMMARS } from './param-markup.js';
import { HARMONY_GRAMMARS } from './harmony.js';
import { LOOKALIKE_GRAMMARS } from './look-alikes.js';
import { REASONING_GRAMMARS } from './reasoning.js';
import { TOKEN_SECTION_GRAMMARS } from './token-sections.js';
import { VALUE_GRAMMARS } from './value-grammars.js';
import type { FieldGrammar } from './types.js';

export type {
  CallHeadForm,
  CallObjectShape,
  CallObjectsGrammar,
  CodeFence,
  FieldFamily,
  FieldGrammar,
  FieldGrammarBase,
  HarmonyGrammar,
  LookalikeGrammar,
  MarkupTag,
  NamedTagArguments,
  PairArguments,
  ParamMarkupGrammar,
  TagArguments,
  TextCallHead,
  TagCallHead,
  ReasoningGrammar,
  TagSuffix,
  TokenSectionGrammar,
  ValueBody,
  ValueGrammar,
  ValueRule,
} from './types.js';
export { NAME_TO_SPACE } from './types.js';

// Look-alikes come after every call grammar with markers of its own; reasoning blocks last, so a
// call grammar that shares one of their literals is tried first.
export const FIELD_GRAMMARS: readonly FieldGrammar[] = deepFreeze([
  ...TOKEN_SECTION_GRAMMARS,
  ...HARMONY_GRAMMARS,
  ...CALL_OBJECT_GRAMMARS,
  ...PARAM_MARKUP_GRAMMARS,
  ...VALUE_GRAMMARS,
  ...LOOKALIKE_GRAMMARS,
  ...REASONING_GRAMMARS,
]);
