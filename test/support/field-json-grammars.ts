/**
 * Renderers for the JSON-argument field grammars (the `call-objects` family and the
 * `token-section` records), built from each record's own markers, for the table tests and the
 * round-trip property. `args` is JSON text (an object).
 */
import { CALL_OBJECT_GRAMMARS } from '../../src/dialects/field/call-objects.js';
import * as sections from '../../src/dialects/field/token-sections.js';
import type { CallObjectsGrammar, FieldGrammar } from '../../src/dialects/field/index.js';

export type Call = readonly [name: string, args: string];

export interface GrammarCase {
  readonly grammar: FieldGrammar;
  /** Several calls, written the grammar's way (one call when the grammar carries one per block). */
  readonly render: (calls: readonly Call[]) => string;
  /** One call with its end markers missing, or null when the grammar closes nothing. */
  readonly unclosed: ((call: Call) => string) | null;
  /** Text that uses the grammar's opener (or its look) and is not a call. */
  readonly lookalike: string;
  /** The close search is raw text (CWM): marker text inside argument strings would end it. */
  readonly rawClose?: boolean;
}

const objectCall = ([name, args]: Call) => `{"name": ${JSON.stringify(name)}, "arguments": ${args}}`;

function objects(grammar: CallObjectsGrammar, item: (call: Call) => string, list: boolean, lookalike: string, perBlock = false): GrammarCase {
  const open = grammar.openers[0]!;
  const close = grammar.close[0] ?? '';
  const body = (calls: readonly Call[]) => (list ? `[${calls.map(item).join(', ')}]` : calls.map(item).join('\n'));
  return {
    grammar,
    render: (calls) => (perBlock ? calls.map((c) => `${open}${body([c])}${close}`).join('\n') : `${open}${body(calls)}${close}`),
    unclosed: close === '' || grammar.closeOptional === true ? null : (call) => `${open}${body([call])}`,
    lookalike,
  };
}

const byId = (id: string) => CALL_OBJECT_GRAMMARS.find((g) => g.id === id)!;

export const CALL_OBJECT_CASES: readonly GrammarCase[] = [
  objects(byId('hermes'), objectCall, false, 'I put each call in a <tool_call> tag.', true),
  objects(byId('granite'), objectCall, true, 'The <|tool_call|> token starts a list.'),
  objects(byId('tool-calls-json'), objectCall, true, 'Wrap them in <tool_calls> please.'),
  objects(byId('phi-4-mini'), objectCall, true, 'Use functools.reduce here.'),
  objects(byId('apertus'), ([name, args]) => `{${JSON.stringify(name)}: ${args}}`, true, 'Then <|tools_prefix|> opens the list.'),
  objects(byId('command-r'), ([name, args]) => `{"tool_call_id": "0", "tool_name": ${JSON.stringify(name)}, "parameters": ${args}}`, true, 'Actions go in <|START_ACTION|> blocks.'),
  objects(byId('nemotron'), objectCall, true, 'The <TOOLCALL> tag is used.'),
  objects(byId('llama-3-json'), ([name, args]) => `{"name": ${JSON.stringify(name)}, "parameters": ${args}}`, false, 'After <|python_tag|> comes code.'),
  objects(byId('pangu'), objectCall, true, 'The [unused11] token.'),
  objects(byId('lfm2-json'), objectCall, true, 'The <|tool_call_start|> token opens an LFM2 call list.'),
  objects(byId('longcat'), objectCall, false, 'The <longcat_tool_call> tag.', true),
  objects(byId('granite-20b-fc'), objectCall, false, 'The <function_call> tag.', true),
  objects(byId('dots-json'), objectCall, false, 'The <dots_function_call> tag.', true),
];

const q = JSON.stringify;

export const TOKEN_SECTION_CASES: readonly GrammarCase[] = [
  {
    grammar: sections.MISTRAL,
    render: (calls) => calls.map(([n, a]) => `[TOOL_CALLS]${n}[ARGS]${a}`).join(''),
    unclosed: null,
    lookalike: 'It wrote get_weather[ARGS]{"city": "Paris"} without the marker.',
  },
  {
    grammar: sections.TOOL_REQUEST,
    render: (calls) => calls.map(([n, a]) => `[TOOL_REQUEST]\n${n} ${a}\n[TOOL_REQUEST_END]`).join('\n'),
    unclosed: ([n, a]) => `[TOOL_REQUEST]\n${n} ${a}`,
    lookalike: 'A [TOOL_REQUEST_END] token alone.',
  },
  {
    grammar: sections.SOLAR_OPEN,
    render: (calls) => `<|tool_calls|>${calls.map(([n, a], i) => `<|tool_call:begin|>call_${i}<|tool_call:name|>${n}<|tool_call:args|>${a}<|tool_call:end|>`).join('')}`,
    unclosed: ([n, a]) => `<|tool_calls|><|tool_call:begin|>call_0<|tool_call:name|>${n}<|tool_call:args|>${a}`,
    lookalike: 'Solar writes <|tool_call:name|> inside its calls.',
  },
  {
    grammar: sections.PLAMO_3,
    render: (calls) =>
      `<|plamo:begin_tool_requests:plamo|>${calls
        .map(([n, a]) => `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>${n}<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>${a}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>`)
        .join('')}<|plamo:end_tool_requests:plamo|>`,
    unclosed: ([n, a]) => `<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>${n}<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>${a}`,
    lookalike: 'PLaMo ends with <|plamo:end_tool_requests:plamo|> only.',
  },
  {
    grammar: sections.INTERNLM2,
    render: (calls) => calls.map(([n, a]) => `<|action_start|><|plugin|>{"name": ${q(n)}, "parameters": ${a}}<|action_end|>`).join('\n'),
    unclosed: ([n, a]) => `<|action_start|><|plugin|>{"name": ${q(n)}, "parameters": ${a}}`,
    lookalike: 'A plugin call ends with <|action_end|>.',
  },
  {
    grammar: sections.INKLING,
    render: (calls) => calls.map(([n, a]) => `<|message_model|>${n}<|content_invoke_tool_json|>{"name": ${q(n)}, "args": ${a}}<|end_message|>`).join(''),
    unclosed: ([n, a]) => `<|message_model|>${n}<|content_invoke_tool_json|>{"name": ${q(n)}, "args": ${a}}`,
    lookalike: 'The reply <|message_model|>Hello there, friend.<|end_message|> is a message.',
  },
  {
    grammar: sections.LLAMA_31_FUNCTION,
    render: (calls) => `<|python_tag|>${calls.map(([n, a]) => `<function=${n}>${a}</function>`).join('')}`,
    unclosed: ([n, a]) => `<function=${n}>${a}`,
    lookalike: 'Write <function=NAME> and then the arguments.',
  },
  {
    grammar: sections.STEP_AUDIO_2,
    render: (calls) => calls.map(([n, a]) => `<tool_call>function\n${n}\n${a}</tool_call>`).join(''),
    unclosed: ([n, a]) => `<tool_call>function\n${n}\n${a}`,
    lookalike: 'The word function follows the <tool_call> tag there.',
  },
  {
    grammar: sections.GLM_53_FLASH,
    render: (calls) => calls.map(([n, a]) => `<tool_call>${n}>${a}`).join('\n'),
    unclosed: null,
    lookalike: 'Compare <tool_call>a > b</tool_call> here.',
  },
  {
    grammar: sections.GIGACHAT_3,
    render: (calls) => calls.map(([n, a], i) => `${i === 0 ? '<|function_call|>' : 'function call<|role_sep|>\n'}${objectCall([n, a])}<|message_sep|>`).join(''),
    unclosed: null,
    lookalike: 'A message ends with <|message_sep|> in GigaChat.',
  },
  {
    grammar: sections.CWM,
    render: (calls) => calls.map(([n, a]) => `<tool: tool>\n${n} ${a}\n</tool>`).join('\n'),
    unclosed: ([n, a]) => `<tool: tool>\n${n} ${a}`,
    lookalike: 'The tag <tool: x> needs a close.',
    rawClose: true,
  },
  {
    grammar: sections.FUNCTIONARY_V32,
    render: (calls) => calls.map(([n, a]) => `>>>${n}\n${a}`).join('\n'),
    unclosed: null,
    lookalike: '>>> print("hi")\nhi',
  },
  {
    grammar: sections.RWKV,
    render: (calls) => calls.map((c) => `**Tool Call:**\n\`\`\`json\n${objectCall(c)}\n\`\`\``).join('\n'),
    unclosed: (c) => `**Tool Call:**\n\`\`\`json\n${objectCall(c)}`,
    lookalike: '**Tool Call:** none was needed.',
  },
];

export const JSON_GRAMMAR_CASES: readonly GrammarCase[] = [...TOKEN_SECTION_CASES, ...CALL_OBJECT_CASES];
