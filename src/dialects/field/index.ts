/**
 * Every field grammar, in detection order (unique special tokens first, then shared tags whose
 * body decides, then look-alikes). The order matters only where grammars share an opener.
 * Reasoning blocks and answer wrappers come last: where a call grammar uses the same literal,
 * its reader is tried first.
 */
import { deepFreeze } from '../freeze.js';
import { CALL_OBJECT_GRAMMARS } from './call-objects.js';
import { GLM, PARAM_MARKUP_GRAMMARS, QWEN3_CODER } from './param-markup.js';
import { HARMONY_GRAMMARS } from './harmony.js';
import { LOOKALIKE_GRAMMARS } from './look-alikes.js';
import { REASONING_GRAMMARS } from './reasoning.js';
import { TOKEN_SECTION_FALLBACK_GRAMMARS, TOKEN_SECTION_GRAMMARS } from './token-sections.js';
import { TURN_END_GRAMMARS } from './turn-end.js';
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
  TurnEndGrammar,
  ValueBody,
  ValueGrammar,
  ValueRule,
} from './types.js';
export { NAME_TO_SPACE } from './types.js';

// Bodies that take any text (raw code after a shared opener) come after every grammar that reads
// a shaped body at the same opener. Look-alikes come after every call grammar with markers of its own; reasoning blocks after
// them, so a call grammar that shares one of their literals is tried first; turn ends last,
// since a grammar that owns one of those tokens reads it inside its own region.
export const FIELD_GRAMMARS: readonly FieldGrammar[] = deepFreeze([
  ...TOKEN_SECTION_GRAMMARS,
  ...HARMONY_GRAMMARS,
  ...CALL_OBJECT_GRAMMARS,
  ...PARAM_MARKUP_GRAMMARS,
  ...VALUE_GRAMMARS,
  ...TOKEN_SECTION_FALLBACK_GRAMMARS,
  ...LOOKALIKE_GRAMMARS,
  ...REASONING_GRAMMARS,
  ...TURN_END_GRAMMARS,
]);

/** A call grammar's opener written as a special token (`<|…`, `｜`, `[TOOL_CALLS]`), which opens nothing but calls. */
function isCallToken(opener: string): boolean {
  // A namespaced tag (`<minimax:tool_call>`, `<seed:tool_call>`) is its model's special token too.
  return opener.startsWith('<|') || opener.includes('｜') || /^\[[A-Z_]+\]$/.test(opener) || /^<[a-z]+:[a-z_]+>$/.test(opener);
}

/** Token openers that also open code or messages, which reasoning may quote: not ends of it. */
const OPENS_MORE_THAN_CALLS: ReadonlySet<string> = new Set(['<|python_tag|>', '<|start|>to=', '<|start|>assistant to=', '<|message_model|>']);

/**
 * What ends a reasoning block never closed besides an answer's open (`<think>x<|tool_calls_section_begin|>…`:
 * the model went on to call, as vLLM's and llama.cpp's readers take it): every call grammar's
 * opener written as a special token, and Qwen3-Coder's `<tool_call>` with its `<function=` head.
 */
/**
 * Call heads that also end a reasoning block never closed, where the opener alone is not enough
 * (`<tool_call>` opens Hermes JSON bodies too, which reasoning may quote): GLM's `<tool_call>` +
 * tool name + its first `<arg_key>` (Ling 3 writes its call before closing the block it was
 * thinking in; llama.cpp reads the call).
 */
export const CALL_HEADS_ENDING_REASONING: readonly { readonly open: string; readonly keyOpen: string }[] = Object.freeze([
  Object.freeze({ open: GLM.openers[0]!, keyOpen: GLM.args.kind === 'pairs' ? GLM.args.keyOpen : '<arg_key>' }),
]);

export const CALL_OPENS_ENDING_REASONING: readonly string[] = Object.freeze([
  `${QWEN3_CODER.openers[0]}\n${QWEN3_CODER.openers[1]}`,
  // Glued (Qwen3.5 writes `<tool_call><function=` on one line; Ollama's Qwen3.5 parser reads it).
  `${QWEN3_CODER.openers[0]}${QWEN3_CODER.openers[1]}`,
  ...new Set(
    FIELD_GRAMMARS.filter((g) => g.family !== 'reasoning' && g.family !== 'look-alike' && g.family !== 'turn-end' && g.family !== 'harmony').flatMap((g) =>
      g.openers.filter((opener) => isCallToken(opener) && !OPENS_MORE_THAN_CALLS.has(opener)),
    ),
  ),
]);

