/**
 * The `look-alike` family: tool calls a model writes as plain JSON or pythonic values, with no
 * marker (Llama 3 without `<|python_tag|>`, xLAM lists, llama.cpp's generic envelopes, Llama 4
 * lists without tokens). Read last, and only at a line start.
 */
import type { LookalikeGrammar } from './types.js';

export const LOOKALIKE: LookalikeGrammar = {
  id: 'look-alike',
  family: 'look-alike',
  openers: ['{', '['],
  markers: [],
  openAt: 'line-start',
  nameKeys: ['name'],
  argumentKeys: ['arguments', 'parameters'],
  carrierKey: 'function',
  wrapperKey: 'tool_call',
  listKey: 'tool_calls',
  responseKey: 'response',
  chainSeparator: ';',
};

export const LOOKALIKE_GRAMMARS: readonly LookalikeGrammar[] = [LOOKALIKE];
