/**
 * The `look-alike` family: tool calls a model writes as plain JSON or pythonic values, with no
 * marker (Llama 3 without `<|python_tag|>`, xLAM lists, llama.cpp's generic envelopes, Llama 4
 * lists without tokens, Command R+'s `Action: ```json` list), bare or in a ```` ```json ````
 * fence. Read last, and only at a line start.
 */
import { JSON_FENCE, PYTHON_LIST_FENCE } from './fences.js';
import type { LookalikeGrammar } from './types.js';

/** Command R+ (plain-text tool use): `Action: ```json` then a list of `{"tool_name", "parameters"}`. */
const FENCE_LABELS = ['Action:'];

export const LOOKALIKE: LookalikeGrammar = {
  id: 'look-alike',
  family: 'look-alike',
  openers: [
    '{',
    '[',
    ...JSON_FENCE.open,
    ...PYTHON_LIST_FENCE.open.map((open) => `${open}\n[`),
    // Command R+ writes the fence on the label's line or on the next one.
    ...FENCE_LABELS.flatMap((label) => JSON_FENCE.open.flatMap((open) => [`${label} ${open}`, `${label}\n${open}`])),
  ],
  markers: [],
  openAt: 'line-start',
  // `tool_name` is Command's (R+, R7B): `{"tool_name": …, "parameters": {…}}`. `tool` and
  // `tool_input` are the prompt format LangChain's OllamaFunctions (and ollama-rs) ask for;
  // `function` as a string, llama-cpp-agent's (`{"function": "f", "arguments": {…}}`). `action`
  // and `action_input`: LangChain's structured-chat agents (their closing `"Final Answer"` carries
  // a sentence, not arguments, so it never reads as a call).
  nameKeys: ['name', 'tool_name', 'tool', 'function', 'action'],
  // `tool_arguments`: smolagents' JSON agents write `{"tool_name", "tool_arguments"}`.
  argumentKeys: ['arguments', 'parameters', 'tool_arguments', 'tool_input', 'action_input'],
  // An Anthropic `tool_use` block (`{"type": "tool_use", "id", "name", "input"}`), which models
  // trained on such transcripts write as text.
  dataArgumentKeys: ['input'],
  // A call's outcome or its time beside its name and arguments: a record of a call that ran
  // (a job queue's entry, a log line, a Hermes `<tool_response>` echoed with its `content`).
  resultKeys: ['status', 'result', 'results', 'output', 'outputs', 'error', 'exit_code', 'exitCode', 'returncode', 'stdout', 'stderr', 'response', 'observation', 'return_value', 'content', 'duration', 'duration_ms', 'elapsed', 'ts', 'timestamp', 'started_at', 'finished_at', 'completed_at'],
  toolUseType: 'tool_use',
  carrierKey: 'function',
  wrapperKey: 'tool_call',
  listKey: 'tool_calls',
  responseKey: 'response',
  chainSeparators: [';', ','],
  fence: JSON_FENCE,
  listFence: PYTHON_LIST_FENCE,
  fenceLabels: FENCE_LABELS,
  codeLeads: ['=', '(', "'", '"', '`'],
  codeLeadWords: ['return', 'yield', 'await', 'print'],
  quoteLeads: ['>'],
  bulletLeads: ['-', '*', '+'],
  envelopeKeys: ['role', 'content'],
};

export const LOOKALIKE_GRAMMARS: readonly LookalikeGrammar[] = [LOOKALIKE];
