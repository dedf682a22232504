/**
 * Every field grammar, in detection order (unique special tokens first, then shared tags whose
 * body decides, then look-alikes). The order matters only where grammars share an opener.
 */
import { deepFreeze } from '../freeze.js';
import { HARMONY_GRAMMARS } from './harmony.js';
import { LOOKALIKE_GRAMMARS } from './look-alikes.js';
import { TOKEN_SECTION_GRAMMARS } from './token-sections.js';
import { VALUE_GRAMMARS } from './value-grammars.js';
import type { FieldGrammar } from './types.js';

export type { CallHeadForm, FieldFamily, FieldGrammar, FieldGrammarBase, HarmonyGrammar, LookalikeGrammar, TokenSectionGrammar, ValueBody, ValueGrammar } from './types.js';

export const FIELD_GRAMMARS: readonly FieldGrammar[] = deepFreeze([...TOKEN_SECTION_GRAMMARS, ...HARMONY_GRAMMARS, ...VALUE_GRAMMARS, ...LOOKALIKE_GRAMMARS]);
