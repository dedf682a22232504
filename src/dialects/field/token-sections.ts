/**
 * Field grammars of the `token-section` family: special-token sections whose calls are a name
 * and JSON arguments. Markers are written exactly as the models' decoded output shows them:
 * `｜` is U+FF5C, `▁` is U+2581.
 */
import type { TokenSectionGrammar } from './types.js';

const KIMI_SECTION_OPEN = ['<|tool_calls_section_begin|>', '<|tool_call_section_begin|>'];
const KIMI_SECTION_CLOSE = ['<|tool_calls_section_end|>', '<|tool_call_section_end|>'];
const KIMI_CALL_OPEN = ['<|tool_call_begin|>'];
const KIMI_CALL_CLOSE = ['<|tool_call_end|>'];
const KIMI_ARGS = '<|tool_call_argument_begin|>';

/** Kimi K2: `functions.NAME:IDX` heads, JSON arguments. */
export const KIMI_K2: TokenSectionGrammar = {
  id: 'kimi-k2',
  family: 'token-section',
  openers: [...KIMI_SECTION_OPEN, ...KIMI_CALL_OPEN],
  markers: [...KIMI_SECTION_OPEN, ...KIMI_SECTION_CLOSE, ...KIMI_CALL_OPEN, ...KIMI_CALL_CLOSE, KIMI_ARGS],
  sectionOpen: KIMI_SECTION_OPEN,
  sectionClose: KIMI_SECTION_CLOSE,
  callOpen: KIMI_CALL_OPEN,
  callClose: KIMI_CALL_CLOSE,
  heads: [{ prefix: '', nameEnd: KIMI_ARGS, nameForm: 'kimi-id', args: 'json' }],
};

// DeepSeek writes its markers with U+FF5C; some deployments decode them with an ASCII `|`.
const DEEPSEEK_SECTION_OPEN = ['<｜tool▁calls▁begin｜>', '<｜tool▁calls｜>', '<|tool▁calls▁begin|>'];
const DEEPSEEK_SECTION_CLOSE = ['<｜tool▁calls▁end｜>', '<|tool▁calls▁end|>'];
const DEEPSEEK_CALL_OPEN = ['<｜tool▁call▁begin｜>', '<|tool▁call▁begin|>'];
const DEEPSEEK_CALL_CLOSE = ['<｜tool▁call▁end｜>', '<|tool▁call▁end|>'];
const DEEPSEEK_SEP = ['<｜tool▁sep｜>', '<|tool▁sep|>'];

/**
 * DeepSeek V3 / R1 (`function<sep>NAME` then a ```json fence) and V3.1 (`NAME<sep>{JSON}`):
 * one record, since both open with the same tokens; the head forms tell them apart.
 */
export const DEEPSEEK_V3: TokenSectionGrammar = {
  id: 'deepseek-v3',
  family: 'token-section',
  openers: [...DEEPSEEK_SECTION_OPEN, ...DEEPSEEK_CALL_OPEN],
  markers: [...DEEPSEEK_SECTION_OPEN, ...DEEPSEEK_SECTION_CLOSE, ...DEEPSEEK_CALL_OPEN, ...DEEPSEEK_CALL_CLOSE, ...DEEPSEEK_SEP],
  sectionOpen: DEEPSEEK_SECTION_OPEN,
  sectionClose: DEEPSEEK_SECTION_CLOSE,
  callOpen: DEEPSEEK_CALL_OPEN,
  callClose: DEEPSEEK_CALL_CLOSE,
  heads: [
    ...DEEPSEEK_SEP.map((sep) => ({ prefix: `function${sep}`, nameEnd: '\n', nameForm: 'plain', args: 'json-fence' }) as const),
    ...DEEPSEEK_SEP.map((sep) => ({ prefix: '', nameEnd: sep, nameForm: 'plain', args: 'json' }) as const),
  ],
};

export const TOKEN_SECTION_GRAMMARS: readonly TokenSectionGrammar[] = [KIMI_K2, DEEPSEEK_V3];
