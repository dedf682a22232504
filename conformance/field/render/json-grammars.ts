/**
 * Renderers of the grammars that carry arguments as JSON behind their own markers (sections 1,
 * 2, 7): special tokens around a JSON object or a JSON list of call objects.
 */
import { framed, jsonList, nameArguments, nameParameters, spacedJson, type Call, type Renderer } from './values.js';

const args = (call: Call): string => spacedJson(call.arguments);

const DS_CALLS_BEGIN = '<｜tool▁calls▁begin｜>';
const DS_CALLS_END = '<｜tool▁calls▁end｜>';
const DS_CALL_BEGIN = '<｜tool▁call▁begin｜>';
const DS_CALL_END = '<｜tool▁call▁end｜>';
const DS_SEP = '<｜tool▁sep｜>';

const deepseekV3: Renderer = framed({
  open: DS_CALLS_BEGIN,
  close: DS_CALLS_END,
  join: '\n',
  call: (call) => ({ head: `${DS_CALL_BEGIN}function${DS_SEP}${call.name}\n\`\`\`json\n`, body: args(call), tail: `\n\`\`\`${DS_CALL_END}` }),
});

/** Harmony: one commentary message per call, addressed to `functions.NAME`. */
const harmony: Renderer = framed({
  call: (call) => ({
    head: `<|start|>assistant<|channel|>commentary to=functions.${call.name} <|constrain|>json<|message|>`,
    body: args(call),
    tail: '<|call|>',
  }),
});

/** LLM-jp-4.1's Harmony: a space after every special token; parallel calls joined by `<|end|><|start|>assistant`. */
const harmonyLlmJp: Renderer = (calls, opts = {}) =>
  calls
    .map((call, i) => {
      const last = i === calls.length - 1;
      const tail = last ? (opts.unclosed === true ? '' : '<|call|>') : '<|end|>';
      return `<|start|> assistant<|channel|> commentary to=functions.${call.name}<|constrain|> json<|message|> ${args(call)}${tail}`;
    })
    .join('');

const hermesLike = (open: string, close: string, join: string, padding: string): Renderer =>
  framed({ join, call: (call) => ({ head: open + padding, body: spacedJson(nameArguments(call)), tail: padding + close }) });

const commandAction: Renderer = (calls, opts = {}) =>
  `<|START_ACTION|>[${calls
    .map((call, i) => spacedJson({ tool_call_id: String(i), tool_name: call.name, parameters: call.arguments }))
    .join(', ')}]${opts.unclosed === true ? '' : '<|END_ACTION|>'}`;

const mistralV11: Renderer = (calls) => calls.map((call) => `[TOOL_CALLS]${call.name}[ARGS]${args(call)}`).join('');

const noClose = (render: (call: Call, i: number) => string, join: string): Renderer => (calls) => calls.map(render).join(join);

export const JSON_RENDERERS: Record<string, Renderer> = {
  'kimi-k2': framed({
    open: '<|tool_calls_section_begin|>',
    close: '<|tool_calls_section_end|>',
    call: (call, i) => ({ head: `<|tool_call_begin|>functions.${call.name}:${i}<|tool_call_argument_begin|>`, body: args(call), tail: '<|tool_call_end|>' }),
  }),
  'deepseek-v3': deepseekV3,
  cogito: deepseekV3,
  'deepseek-v3.1': framed({
    open: DS_CALLS_BEGIN,
    close: DS_CALLS_END,
    call: (call) => ({ head: `${DS_CALL_BEGIN}${call.name}${DS_SEP}`, body: args(call), tail: DS_CALL_END }),
  }),
  harmony,
  'harmony-llmjp': harmonyLlmJp,
  'llama3-json': (calls) => `<|python_tag|>${calls.map((call) => spacedJson(nameParameters(call))).join('; ')}`,
  granite: jsonList('<|tool_call|>', '', nameArguments),
  hunyuan: jsonList('<tool_calls>', '</tool_calls>', nameArguments),
  'jamba-apriel': jsonList('<tool_calls>', '</tool_calls>', nameArguments),
  'phi4-mini': jsonList('functools', '', nameArguments),
  'firefunction-v2': jsonList(' functools', '', nameArguments),
  apertus: jsonList('<|tools_prefix|>', '<|tools_suffix|>', (call) => ({ [call.name]: call.arguments })),
  'command-r7b': commandAction,
  'command-a': commandAction,
  'functionary-v3.2': noClose((call) => `>>>${call.name}\n${args(call)}`, ''),
  'qwen-agent': noClose((call) => `✿FUNCTION✿: ${call.name}\n✿ARGS✿: ${args(call)}`, '\n'),
  'mistral-v11': mistralV11,
  magistral: mistralV11,
  'tool-request': framed({
    join: '\n',
    call: (call) => ({ head: `[TOOL_REQUEST]\n${call.name} `, body: args(call), tail: '\n[TOOL_REQUEST_END]' }),
  }),
  hermes: hermesLike('<tool_call>', '</tool_call>', '\n', '\n'),
  'hermes-chained': hermesLike('<tool_call>', '</tool_call>', '', ''),
  'qwen2.5-coder': hermesLike('<tools>', '</tools>', '\n', '\n'),
  'granite-4': hermesLike('<tool_call>', '</tool_call>', '\n', '\n'),
  trinity: hermesLike('<tool_call>', '</tool_call>', '\n', '\n'),
  'ernie-4.5': hermesLike('<tool_call>', '</tool_call>', '\n', '\n'),
  longcat: hermesLike('<longcat_tool_call>', '</longcat_tool_call>', '\n', ''),
  'nemotron-nano-v2': jsonList('<TOOLCALL>', '</TOOLCALL>', nameArguments),
  internlm2: framed({
    join: '\n',
    call: (call) => ({ head: '<|action_start|><|plugin|>\n', body: spacedJson(nameParameters(call)), tail: '<|action_end|>' }),
  }),
  'minimax-m1': framed({
    open: '<tool_calls>\n',
    close: '\n</tool_calls>',
    join: '\n',
    call: (call) => ({ head: '', body: spacedJson(nameArguments(call)), tail: '' }),
  }),
  'llama3.1-function': framed({
    join: '',
    call: (call) => ({ head: `<function=${call.name}>`, body: args(call), tail: '</function>' }),
  }),
  // Glaive's data writes the arguments' JSON text in Python's single quotes (escaped where it holds one).
  glaive: noClose((call) => `<functioncall> {"name": ${JSON.stringify(call.name)}, "arguments": '${args(call).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'}`, '\n'),
  'granite-20b-fc': noClose((call) => `<function_call> ${spacedJson(nameArguments(call))}`, '\n'),
  'step-audio-2': framed({
    join: '\n',
    call: (call) => ({ head: `<tool_call>function\n${call.name}\n`, body: args(call), tail: '</tool_call>' }),
  }),
  'gigachat-3': noClose((call) => `<|function_call|>${spacedJson(nameArguments(call))}`, ''),
  'solar-open': framed({
    open: '<|tool_calls|>',
    call: (call, i) => ({
      head: `<|tool_call:begin|>call_${i + 1}<|tool_call:name|>${call.name}<|tool_call:args|>`,
      body: args(call),
      tail: '<|tool_call:end|>',
    }),
  }),
  'plamo-3': framed({
    open: '<|plamo:begin_tool_requests:plamo|>',
    close: '<|plamo:end_tool_requests:plamo|>',
    call: (call) => ({
      head: `<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>${call.name}<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>`,
      body: args(call),
      tail: '<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>',
    }),
  }),
  pangu: jsonList('[unused11]', '[unused12]', nameArguments),
  // The server usually strips `<|im_end|>` as its stop token; the reader takes it when present.
  hyperclovax: jsonList(' -> tool/function_call\n', '', nameArguments),
  inkling: framed({
    call: (call) => ({
      head: `<|message_model|>${call.name}<|content_invoke_tool_json|>`,
      body: spacedJson({ name: call.name, args: call.arguments }),
      tail: '<|end_message|>',
    }),
  }),
  cwm: framed({
    join: '\n',
    call: (call) => ({ head: `<tool: ${call.name}>\n${call.name} `, body: args(call), tail: '\n</tool>' }),
  }),
  rwkv: framed({
    join: '\n\n',
    call: (call) => ({ head: '**Tool Call:**\n```json\n', body: spacedJson(nameArguments(call)), tail: '\n```' }),
  }),
  'glm-5.3-flash': noClose((call) => `<tool_call>${call.name}>${args(call)}`, '\n'),
};
