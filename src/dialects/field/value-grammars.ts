/**
 * Field grammars of the `value-grammar` family: calls whose arguments are Python literals or
 * Gemma's value grammar, between a model's special tokens.
 */
import { PYTHON_LIST_FENCE } from './fences.js';
import type { ValueGrammar } from './types.js';

/**
 * A pythonic body between a tag another grammar shares (its JSON body belongs to the JSON
 * family), the close required. `listOnly`: only a `[…]` list is this grammar's.
 */
function taggedPyCalls(id: string, open: string, close: string, extra: { readonly listOnly?: true; readonly fence?: ValueGrammar['fence'] } = {}): ValueGrammar {
  return {
    id,
    family: 'value-grammar',
    openers: [open],
    markers: [open, close],
    body: extra.listOnly === true ? { form: 'py-calls', listOnly: true } : { form: 'py-calls' },
    close: [close],
    closeRequired: true,
    sharedOpener: true,
    ...(extra.fence === undefined ? {} : { fence: extra.fence }),
    trailers: [],
  };
}

/** Llama 4: `<|python_start|>[f(a=1), g(b='x')]<|python_end|>`. */
export const LLAMA4_PYTHONIC = taggedPyCalls('llama4-pythonic', '<|python_start|>', '<|python_end|>');

/**
 * LFM2 (and openPangu's LFM2-style form) with a pythonic body. MiniCPM 3 / 4 write the same
 * token around calls one per line in a ```` ```python ```` fence.
 */
export const LFM2_PYTHONIC = taggedPyCalls('lfm2-pythonic', '<|tool_call_start|>', '<|tool_call_end|>', { fence: PYTHON_LIST_FENCE });

/**
 * A pythonic list inside Hermes's `<tool_call>` (spec section 1's body sniff: `[ident(` is
 * pythonic); `<tool_call>look({…})` is the reference grammar's call, so only a list is this one's.
 */
export const HERMES_PYTHONIC = taggedPyCalls('hermes-pythonic', '<tool_call>', '</tool_call>', { listOnly: true });

/** Olmo 3: `<function_calls>` holding one `ident(…)` call per line, no brackets; `<invoke>` bodies are XML markup. */
export const OLMO3_PYTHONIC = taggedPyCalls('olmo3-pythonic', '<function_calls>', '</function_calls>');

/**
 * Nemotron with a pythonic list in its tag, `<TOOLCALL>[f(a=1), g(b='x')]</TOOLCALL>`, as the
 * Berkeley leaderboard's prompt asks Llama-3.1-Nemotron to write it.
 */
export const NEMOTRON_PYTHONIC = taggedPyCalls('nemotron-pythonic', '<TOOLCALL>', '</TOOLCALL>', { listOnly: true });

/**
 * Llama 3.2's custom tools as a pythonic list after the tag, `<|python_tag|>[f(a=1), g(b='x')]`
 * (Meta's decoder reads custom calls with or without the tag); a JSON body belongs to the JSON
 * family and other code to the interpreter.
 */
export const LLAMA3_PYTHONIC: ValueGrammar = {
  id: 'llama3-pythonic',
  family: 'value-grammar',
  openers: ['<|python_tag|>'],
  markers: ['<|python_tag|>', '<|eom_id|>', '<|eot_id|>'],
  body: { form: 'py-calls', listOnly: true },
  close: ['<|eom_id|>', '<|eot_id|>'],
  closeRequired: false,
  sharedOpener: true,
  trailers: [],
};

/** Llama 3.x built-in tools: `<|python_tag|>brave_search.call(query="…")`; a JSON body belongs to the JSON family. */
export const LLAMA3_BUILTIN: ValueGrammar = {
  id: 'llama3-builtin',
  family: 'value-grammar',
  openers: ['<|python_tag|>'],
  markers: ['<|python_tag|>', '<|eom_id|>', '<|eot_id|>'],
  body: { form: 'py-method-call', method: 'call', separator: ';' },
  close: ['<|eom_id|>', '<|eot_id|>'],
  closeRequired: false,
  sharedOpener: true,
  trailers: [],
};

const GEMMA_CALL_PREFIX = 'call:';
/** Gemma 4's `<|tool_call>call:` as multimodal outputs split it: `<call>NAME{…}`. */
const GEMMA_CALL_TAG = '<call>';

/** `call:`, and the `:call:` some Gemma 4 outputs write after `<|tool_call>`. */
const GEMMA_CALL_PREFIXES = [`:${GEMMA_CALL_PREFIX}`, GEMMA_CALL_PREFIX];

/** Gemma 4: `<|tool_call>call:NAME{k:<|"|>v<|"|>,…}<tool_call|>`, repeated. */
export const GEMMA4: ValueGrammar = {
  id: 'gemma4',
  family: 'value-grammar',
  openers: ['<|tool_call>'],
  markers: ['<|tool_call>', '<tool_call|>', '<|"|>', '<turn|>', '<|tool_response>'],
  body: { form: 'gemma-calls', callPrefixes: GEMMA_CALL_PREFIXES, stringDelimiter: '<|"|>' },
  // Some Gemma 4 outputs end a call with the end of turn instead (vLLM's gemma4 utils accept it).
  close: ['<tool_call|>', '<turn|>'],
  closeRequired: true,
  sharedOpener: false,
  trailers: ['<turn|>', '<|tool_response>'],
};

/**
 * Gemma 4's bare call after its thinking channel: `<channel|>call:NAME{…}`, the `<|tool_call>`
 * opener skipped (vLLM's Gemma 4 utilities fall back to reading a bare `call:NAME{…}`). Only
 * right after the channel's close, where nothing but a call can follow, is the bare form read;
 * its end markers are optional.
 */
export const GEMMA4_AFTER_THOUGHT: ValueGrammar = {
  ...GEMMA4,
  id: 'gemma4-after-thought',
  openers: [`<channel|>${GEMMA_CALL_PREFIX}`],
  markers: ['<channel|>', ...GEMMA4.markers],
  closeRequired: false,
};

/**
 * Gemma 4's bare call with its `<|tool_call>` opener left out, at the start of a line:
 * `call:NAME{k:<|"|>v<|"|>}`, or `<call>NAME{…}` (the opener's token split apart, as multimodal
 * outputs show it); vLLM's Gemma 4 utilities read both. The string delimiter `<|"|>` is Gemma's
 * special token, so a body that writes it is this grammar's whatever the name; a body without
 * one needs a registered name. A mention in a sentence, or a body that does not read, is prose.
 */
export const GEMMA4_BARE: ValueGrammar = {
  ...GEMMA4,
  id: 'gemma4-bare',
  openers: [GEMMA_CALL_PREFIX, GEMMA_CALL_TAG],
  markers: [GEMMA_CALL_TAG, ...GEMMA4.markers],
  body: { form: 'gemma-calls', callPrefixes: [GEMMA_CALL_PREFIX, GEMMA_CALL_TAG], stringDelimiter: '<|"|>', bare: true },
  closeRequired: false,
};

/** FunctionGemma: `<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>`. */
export const FUNCTION_GEMMA: ValueGrammar = {
  id: 'function-gemma',
  family: 'value-grammar',
  openers: ['<start_function_call>'],
  markers: ['<start_function_call>', '<end_function_call>', '<escape>', '<start_function_response>', '<end_of_turn>'],
  body: { form: 'gemma-calls', callPrefixes: [GEMMA_CALL_PREFIX], stringDelimiter: '<escape>' },
  close: ['<end_function_call>'],
  closeRequired: true,
  sharedOpener: false,
  // The model stops at the opener of the function's response (its template's stop sequence).
  trailers: ['<start_function_response>', '<end_of_turn>'],
};

/**
 * FunctionGemma's call with its `<start_function_call>` opener left out, on a line of its own:
 * `call:NAME{k:<escape>v<escape>}` (mlx-lm reads it so). Only a body that writes `<escape>` is
 * this grammar's; one that does not is left to Gemma 4's bare record, which shares `call:`.
 */
export const FUNCTION_GEMMA_BARE: ValueGrammar = {
  ...FUNCTION_GEMMA,
  id: 'function-gemma-bare',
  openers: [GEMMA_CALL_PREFIX],
  body: { form: 'gemma-calls', callPrefixes: [GEMMA_CALL_PREFIX], stringDelimiter: '<escape>', bare: true, delimiterRequired: true },
  closeRequired: false,
};

// FunctionGemma's bare record before Gemma 4's: the two share `call:`, and only the first
// requires its delimiter, so each reads the bodies written with its own.
export const VALUE_GRAMMARS: readonly ValueGrammar[] = [LLAMA4_PYTHONIC, LFM2_PYTHONIC, HERMES_PYTHONIC, OLMO3_PYTHONIC, NEMOTRON_PYTHONIC, LLAMA3_PYTHONIC, LLAMA3_BUILTIN, GEMMA4, GEMMA4_AFTER_THOUGHT, FUNCTION_GEMMA_BARE, GEMMA4_BARE, FUNCTION_GEMMA];
