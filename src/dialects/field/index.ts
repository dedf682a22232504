/**
 * Every field grammar, in detection order (unique special tokens first, then shared tags whose
 * body decides, then look-alikes). The order matters only where grammars share an opener.
 * Reasoning blocks and answer wrappers come last: where a call grammar uses the same literal,
 * its reader is tried first.
 */
import { deepFreeze } from '../freeze.js';
import { REASONING_GRAMMARS } from './reasoning.js';
import { TOKEN_SECTION_GRAMMARS } from './token-sections.js';
import type { FieldGrammar } from './types.js';

export type { CallHeadForm, FieldFamily, FieldGrammar, FieldGrammarBase, ReasoningGrammar, TagSuffix, TokenSectionGrammar } from './types.js';

export const FIELD_GRAMMARS: readonly FieldGrammar[] = deepFreeze([...TOKEN_SECTION_GRAMMARS, ...REASONING_GRAMMARS]);
