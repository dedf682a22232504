/**
 * The field grammars, as data: what the case generator (conformance/tools/build-field-cases.ts)
 * and the round-trip properties need to know about each one besides its renderer.
 */
import type { Family, Section } from './lib/case.js';

/**
 * How a grammar carries argument values:
 * - `quoted`: JSON, Python literals or Gemma values; strings are delimited, so a string may hold
 *   the grammar's own markers.
 * - `schema`: raw text typed by the tool's JSON Schema (spec section 4); no schema keeps text.
 * - `inband`: raw text typed by an attribute the grammar writes (`type=`, `string=`).
 * - `json-else-raw`: each value parsed as JSON, else kept as text.
 */
export type ValueKind = 'quoted' | 'schema' | 'inband' | 'json-else-raw';

export interface Wrapper {
  open: string;
  close: string;
}

export interface GrammarSpec {
  grammar: string;
  title: string;
  family: Family;
  section: Section;
  values: ValueKind;
  /** Marker strings that must never reach prose. */
  markers: string[];
  /** A quoted grammar's own call closer, placed inside a string argument (default: the first marker). */
  ownCloser?: string;
  /** The grammar's reasoning block (section 8); default `<think>…</think>`. */
  reasoning?: Wrapper;
  /** How the grammar carries prose next to calls (Harmony's preamble, Kimi K3's response block). */
  answer?: Wrapper;
  /** `false`: the grammar has no end, so text after a call would belong to it. */
  trailingProse?: boolean;
  /** `false`: one call per response. */
  multi?: boolean;
  /** `false`: a call quoted inside the reasoning block cannot be written (Harmony's channels; Solar's `<|tool_calls|>` ends its reasoning). */
  quoteInReasoning?: boolean;
  /** `true`: calls inside reasoning are calls (Trinity). */
  callsInReasoning?: boolean;
}

const THINK_DS: Wrapper = { open: '<think>', close: '</think>' };

export const GRAMMARS: GrammarSpec[] = [
  // Section 1: unique special tokens.
  { grammar: 'kimi-k2', title: 'Kimi K2', family: 'special-token-json', section: '1', values: 'quoted', markers: ['<|tool_call_end|>', '<|tool_calls_section_begin|>', '<|tool_call_begin|>', '<|tool_call_argument_begin|>', '<|tool_calls_section_end|>', 'functions.'] },
  { grammar: 'deepseek-v3', title: 'DeepSeek V3 / R1', family: 'special-token-json', section: '1', values: 'quoted', markers: ['<｜tool▁call▁end｜>', '<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', '<｜tool▁sep｜>', '<｜tool▁calls▁end｜>', '```json'] },
  { grammar: 'deepseek-v3.1', title: 'DeepSeek V3.1', family: 'special-token-json', section: '1', values: 'quoted', markers: ['<｜tool▁call▁end｜>', '<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', '<｜tool▁sep｜>', '<｜tool▁calls▁end｜>'] },
  { grammar: 'deepseek-v3.2', title: 'DeepSeek V3.2 DSML', family: 'raw-parameter-markup', section: '1', values: 'inband', markers: ['｜DSML｜', 'function_calls>', 'invoke name=', 'parameter name='] },
  { grammar: 'step-3', title: 'Step-3', family: 'raw-parameter-markup', section: '1', values: 'schema', markers: ['<｜tool_calls_begin｜>', '<｜tool_call_begin｜>', '<｜tool_sep｜>', 'steptml:', '<｜tool_call_end｜>', '<｜tool_calls_end｜>'] },
  { grammar: 'minimax-m2', title: 'MiniMax M2', family: 'raw-parameter-markup', section: '1', values: 'schema', markers: ['minimax:tool_call>', '<invoke name=', '</invoke>', '<parameter name=', '</parameter>'] },
  {
    grammar: 'harmony', title: 'Harmony (gpt-oss)', family: 'special-token-json', section: '1', values: 'quoted',
    markers: ['<|call|>', '<|start|>', '<|channel|>', '<|message|>', '<|constrain|>', '<|end|>', 'commentary', 'to=functions.'],
    reasoning: { open: '<|start|>assistant<|channel|>analysis<|message|>', close: '<|end|>' },
    answer: { open: '<|start|>assistant<|channel|>commentary<|message|>', close: '<|end|>' },
    trailingProse: false, quoteInReasoning: false,
  },
  {
    grammar: 'gemma-4',
    title: 'Gemma 4',
    family: 'value-grammar',
    section: '1',
    values: 'quoted',
    markers: ['<tool_call|>', '<|tool_call>', 'call:', '<|"|>', '<turn|>', '<|tool_response>', '<|channel>', '<channel|>'],
    reasoning: { open: '<|channel>thought\n', close: '<channel|>' },
  },
  { grammar: 'functiongemma', title: 'FunctionGemma', family: 'value-grammar', section: '1', values: 'quoted', markers: ['<end_function_call>', '<start_function_call>', 'call:', '<escape>', '<start_function_response>', '<end_of_turn>'] },
  { grammar: 'llama4-pythonic', title: 'Llama 4 pythonic', family: 'value-grammar', section: '1', values: 'quoted', markers: ['<|python_end|>', '<|python_start|>'] },
  { grammar: 'lfm2', title: 'LFM2', family: 'value-grammar', section: '1', values: 'quoted', markers: ['<|tool_call_end|>', '<|tool_call_start|>'] },
  { grammar: 'llama3-json', title: 'Llama 3.x JSON', family: 'special-token-json', section: '1', values: 'quoted', markers: ['<|python_tag|>', '"parameters"'], ownCloser: '<|eom_id|>', trailingProse: false },
  { grammar: 'granite', title: 'Granite', family: 'special-token-json', section: '1', values: 'quoted', markers: ['<|tool_call|>', '"arguments"'] },
  { grammar: 'hunyuan', title: 'Hunyuan', family: 'shared-tag', section: '1', values: 'quoted', markers: ['</tool_calls>', '<tool_calls>', '"arguments"'] },
  { grammar: 'phi4-mini', title: 'Phi-4 mini', family: 'special-token-json', section: '1', values: 'quoted', markers: ['functools[', '"arguments"'], ownCloser: '}]' },
  {
    grammar: 'apertus', title: 'Apertus', family: 'special-token-json', section: '1', values: 'quoted', markers: ['<|tools_suffix|>', '<|tools_prefix|>', '<|inner_prefix|>', '<|inner_suffix|>'],
    reasoning: { open: '<|inner_prefix|>', close: '<|inner_suffix|>' },
  },
  {
    grammar: 'command-r7b', title: 'Command R7B', family: 'special-token-json', section: '1', values: 'quoted', markers: ['<|END_ACTION|>', '<|START_ACTION|>', 'tool_call_id', '<|START_THINKING|>', '<|END_THINKING|>'],
    reasoning: { open: '<|START_THINKING|>', close: '<|END_THINKING|>' },
    answer: { open: '<|START_RESPONSE|>', close: '<|END_RESPONSE|>' },
  },
  { grammar: 'functionary-v3.2', title: 'Functionary v3.2', family: 'special-token-json', section: '1', values: 'quoted', markers: ['>>>'], ownCloser: '>>>all', trailingProse: false },
  { grammar: 'qwen-agent', title: 'Qwen-Agent', family: 'special-token-json', section: '1', values: 'quoted', markers: ['✿FUNCTION✿:', '✿ARGS✿:'], trailingProse: false },
  { grammar: 'mistral-v11', title: 'Mistral v11+', family: 'special-token-json', section: '1', values: 'quoted', markers: ['[TOOL_CALLS]', '[ARGS]'] },
  { grammar: 'tool-request', title: 'TOOL_REQUEST', family: 'special-token-json', section: '1', values: 'quoted', markers: ['[TOOL_REQUEST_END]', '[TOOL_REQUEST]'] },

  // Section 2: the shared `<tool_call>` tag and `<function_calls>`.
  { grammar: 'hermes', title: 'Hermes / Qwen 2.5 / Qwen 3 JSON body', family: 'shared-tag', section: '2', values: 'quoted', markers: ['</tool_call>', '<tool_call>'] },
  { grammar: 'hermes-chained', title: 'Hermes calls chained mid-line', family: 'shared-tag', section: '2', values: 'quoted', markers: ['</tool_call>', '<tool_call>'] },
  { grammar: 'qwen3-coder', title: 'Qwen3-Coder / Nemotron 3', family: 'shared-tag', section: '2', values: 'schema', markers: ['<tool_call>', '</tool_call>', '<function=', '</function>', '<parameter=', '</parameter>'] },
  {
    grammar: 'seed-oss', title: 'Seed-OSS (Qwen3-Coder body in <seed:tool_call>)', family: 'shared-tag', section: '2', values: 'schema',
    markers: ['<seed:tool_call>', '</seed:tool_call>', '<function=', '</function>', '<parameter=', '</parameter>', 'seed:think'],
    reasoning: { open: '<seed:think>', close: '</seed:think>' },
  },
  { grammar: 'glm-4.5', title: 'GLM-4.5 / 4.6', family: 'shared-tag', section: '2', values: 'schema', markers: ['<tool_call>', '</tool_call>', '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>'] },
  { grammar: 'glm-4.7', title: 'GLM-4.7', family: 'shared-tag', section: '2', values: 'schema', markers: ['<tool_call>', '</tool_call>', '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>'] },
  { grammar: 'anthropic-xml', title: 'Anthropic XML in <function_calls>', family: 'raw-parameter-markup', section: '2', values: 'schema', markers: ['<function_calls>', '</function_calls>', '<invoke name=', '</invoke>', '<parameter name=', '</parameter>'] },
  { grammar: 'olmo3-pythonic', title: 'Olmo 3 pythonic lines in <function_calls>', family: 'value-grammar', section: '2', values: 'quoted', markers: ['</function_calls>', '<function_calls>'] },

  // Section 7a: current frontier models.
  {
    grammar: 'kimi-k3', title: 'Kimi K3 (XTML)', family: 'raw-parameter-markup', section: '7a', values: 'inband',
    markers: ['<|open|>', '<|close|>', '<|sep|>', 'argument key=', 'call tool='],
    reasoning: { open: '<|open|>think<|sep|>', close: '<|close|>think<|sep|>' },
    answer: { open: '<|open|>response<|sep|>', close: '<|close|>response<|sep|>' },
    trailingProse: false,
  },
  { grammar: 'minimax-m3', title: 'MiniMax M3', family: 'raw-parameter-markup', section: '7a', values: 'schema', markers: [']<]minimax[>[', '<tool_call>', '</tool_call>', '<invoke name=', '</invoke>'] },
  { grammar: 'deepseek-v4', title: 'DeepSeek V4 DSML', family: 'raw-parameter-markup', section: '7a', values: 'inband', markers: ['｜DSML｜', 'tool_calls>', 'invoke name=', 'parameter name='] },
  { grammar: 'deepseek-v4.1', title: 'DeepSeek V4.1 spaced DSML', family: 'raw-parameter-markup', section: '7a', values: 'inband', markers: ['｜DSML｜', 'calls>', 'invoke name=', 'parameter name='] },
  { grammar: 'qwen3.5', title: 'Qwen3.5, MiMo, Step-3.5 (Qwen3-Coder body)', family: 'shared-tag', section: '7a', values: 'schema', markers: ['<tool_call>', '</tool_call>', '<function=', '</function>', '<parameter=', '</parameter>'] },
  { grammar: 'glm-body-ling', title: 'GLM-4.5 body in Ling 3, Spark, HyperCLOVAX-SEED-Think, Poolside Laguna', family: 'shared-tag', section: '7a', values: 'schema', markers: ['<tool_call>', '</tool_call>', '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>'] },
  { grammar: 'nemotron-nano-v2', title: 'Nemotron Nano v2', family: 'special-token-json', section: '7a', values: 'quoted', markers: ['</TOOLCALL>', '<TOOLCALL>'] },
  { grammar: 'internlm2', title: 'InternLM2 / Intern-S1', family: 'special-token-json', section: '7a', values: 'quoted', markers: ['<|action_end|>', '<|action_start|>', '<|plugin|>'] },
  { grammar: 'minimax-m1', title: 'MiniMax M1', family: 'shared-tag', section: '7a', values: 'quoted', markers: ['</tool_calls>', '<tool_calls>'] },
  {
    grammar: 'hunyuan-hy3', title: 'Hunyuan Hy3 (HY-V3)', family: 'raw-parameter-markup', section: '7a', values: 'schema',
    markers: [':opensource>', '<tool_calls', '<tool_call', '<tool_sep', '<arg_key', '<arg_value'],
    reasoning: { open: '<think:opensource>', close: '</think:opensource>' },
  },
  {
    grammar: 'hunyuan-hy4', title: 'Hunyuan HY-V4', family: 'raw-parameter-markup', section: '7a', values: 'schema',
    markers: [':6124c78e>', '<tool_calls', '<tool_call', '<arg_key', '<arg_value'],
    reasoning: { open: '<think:6124c78e>', close: '</think:6124c78e>' },
  },

  // Section 7b: the long tail.
  {
    grammar: 'jamba-apriel', title: 'Jamba, Apriel 1.5', family: 'shared-tag', section: '7b', values: 'quoted', markers: ['</tool_calls>', '<tool_calls>', '<thinking>', '</thinking>'],
    reasoning: { open: '<thinking>', close: '</thinking>' },
  },
  { grammar: 'llama3.1-function', title: 'Llama 3.1 user-defined, Functionary v3.1', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['</function>', '<function='] },
  {
    grammar: 'ernie-4.5', title: 'ERNIE 4.5', family: 'shared-tag', section: '7b', values: 'quoted', markers: ['</tool_call>', '<tool_call>', '<response>', '</response>'],
    answer: { open: '<response>', close: '</response>' },
  },
  { grammar: 'qwen2.5-coder', title: 'Qwen2.5-Coder <tools> JSON body', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['</tools>', '<tools>'] },
  { grammar: 'longcat', title: 'LongCat-Flash', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['</longcat_tool_call>', '<longcat_tool_call>'] },
  { grammar: 'glaive', title: 'Glaive <functioncall>', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['<functioncall>'], trailingProse: false },
  { grammar: 'granite-20b-fc', title: 'Granite-20B-FC', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['<function_call>'], trailingProse: false },
  { grammar: 'step-audio-2', title: 'Step-Audio 2', family: 'shared-tag', section: '7b', values: 'quoted', markers: ['</tool_call>', '<tool_call>'] },
  { grammar: 'step-deepresearch', title: 'Step DeepResearch', family: 'raw-parameter-markup', section: '7b', values: 'schema', markers: ['steptml:'] },
  { grammar: 'gigachat-3', title: 'GigaChat 3', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['<|function_call|>'], ownCloser: '<|message_sep|>', trailingProse: false, multi: false },
  { grammar: 'gigachat-3.5', title: 'GigaChat 3.5 (GCML)', family: 'raw-parameter-markup', section: '7b', values: 'inband', markers: ['｜GCML｜', 'invoke name=', 'parameter name='] },
  { grammar: 'solar-open2', title: 'Solar Open2', family: 'raw-parameter-markup', section: '7b', values: 'schema', markers: ['<|tool_call:start|>', '<|tool_call:end|>', '<|tool_arg:start|>', '<|tool_arg:value|>', '<|tool_arg:end|>'] },
  {
    grammar: 'solar-open', title: 'Solar Open', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['<|tool_call:end|>', '<|tool_calls|>', '<|tool_call:begin|>', '<|tool_call:name|>', '<|tool_call:args|>', '<|think|>', '<|content|>'],
    reasoning: { open: '<|think|>', close: '<|end|>' },
    quoteInReasoning: false,
  },
  { grammar: 'plamo-3', title: 'PLaMo-3', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['<|plamo:end_tool_arguments:plamo|>', '<|plamo:'] },
  {
    grammar: 'k2-horizon', title: 'K2 Horizon (K2-v3)', family: 'raw-parameter-markup', section: '7b', values: 'schema', markers: ['<ifm|', '</ifm|'],
    reasoning: { open: '<ifm|think>', close: '</ifm|think>' },
  },
  { grammar: 'dots', title: 'dots', family: 'raw-parameter-markup', section: '7b', values: 'schema', markers: ['dots_function_call>', '<invoke name=', '</invoke>', '<parameter name='] },
  { grammar: 'minicpm-5', title: 'MiniCPM 5', family: 'raw-parameter-markup', section: '7b', values: 'schema', markers: ['<function name=', '</function>', '<param name=', '</param>'] },
  { grammar: 'iquest-q1', title: 'IQuest Q1', family: 'raw-parameter-markup', section: '7b', values: 'schema', markers: ['iquest_tool_call>', '<arg_key>', '<arg_value>'] },
  // Not in the spec's table: vLLM's `iquest_coder_v2` parser reads the IQuest Q1 body in its own tag.
  { grammar: 'iquest-coder-v2', title: 'IQuest Coder V2', family: 'raw-parameter-markup', section: '7b', values: 'schema', markers: ['iquestcoder_tool_call>', '<arg_key>', '<arg_value>'] },
  // Not in the spec's table: LongCat-Flash-Lite writes GLM's pairs in its own tags (mlx-lm's LongCat reader).
  { grammar: 'longcat-pairs', title: 'LongCat-Flash-Lite', family: 'raw-parameter-markup', section: '7b', values: 'schema', markers: ['longcat_tool_call>', '<longcat_arg_key>', '<longcat_arg_value>'] },
  { grammar: 'pangu', title: 'Pangu / openPangu v2', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['[unused12]', '[unused11]'] },
  { grammar: 'hyperclovax', title: 'HyperCLOVA X SEED Think 14B', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['-> tool/function_call', '<|im_end|>'] },
  { grammar: 'inkling', title: 'Inkling', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['<|end_message|>', '<|message_model|>', '<|content_invoke_tool_json|>'] },
  { grammar: 'muse-glimmer', title: 'Muse Glimmer (ATEM)', family: 'raw-parameter-markup', section: '7b', values: 'json-else-raw', markers: ['atem:', '<|start|>', '<|message|>', '<|eom|>'], trailingProse: false },
  { grammar: 'cwm', title: 'CWM', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['</tool>', '<tool: '] },
  { grammar: 'rwkv', title: 'RWKV', family: 'special-token-json', section: '7b', values: 'quoted', markers: ['**Tool Call:**', '```json'], ownCloser: '```' },

  // Section 7c: variants of grammars above.
  {
    grammar: 'harmony-llmjp', title: 'Harmony from LLM-jp-4.1', family: 'special-token-json', section: '7c', values: 'quoted',
    markers: ['<|call|>', '<|start|>', '<|channel|>', '<|message|>', '<|constrain|>', '<|end|>', 'commentary', 'to=functions.'],
    reasoning: { open: '<|start|> assistant<|channel|> analysis<|message|> ', close: '<|end|>' },
    answer: { open: '<|start|> assistant<|channel|> commentary<|message|> ', close: '<|end|>' },
    trailingProse: false, quoteInReasoning: false,
  },
  {
    grammar: 'command-a', title: 'Cohere Command A / Command 4', family: 'special-token-json', section: '7c', values: 'quoted',
    markers: ['<|END_ACTION|>', '<|START_ACTION|>', 'tool_call_id', '<|START_THINKING|>', '<|END_THINKING|>', '<|START_TEXT|>', '<|END_TEXT|>'],
    reasoning: { open: '<|START_THINKING|>', close: '<|END_THINKING|>' },
    answer: { open: '<|START_TEXT|>', close: '<|END_TEXT|>' },
  },
  {
    grammar: 'magistral', title: 'Magistral / Ministral 3', family: 'special-token-json', section: '7c', values: 'quoted', markers: ['[TOOL_CALLS]', '[ARGS]', '[THINK]', '[/THINK]'],
    reasoning: { open: '[THINK]', close: '[/THINK]' },
  },
  { grammar: 'firefunction-v2', title: 'Firefunction v2', family: 'special-token-json', section: '7c', values: 'quoted', markers: ['functools[', '"arguments"'], ownCloser: '}]' },
  { grammar: 'cogito', title: 'Cogito (DeepSeek V3 tokens)', family: 'special-token-json', section: '7c', values: 'quoted', markers: ['<｜tool▁call▁end｜>', '<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', '<｜tool▁sep｜>', '<｜tool▁calls▁end｜>'] },
  { grammar: 'granite-4', title: 'Granite 4 (Hermes)', family: 'shared-tag', section: '7c', values: 'quoted', markers: ['</tool_call>', '<tool_call>'] },
  { grammar: 'trinity', title: 'Trinity (Hermes, calls may sit inside <think>)', family: 'shared-tag', section: '7c', values: 'quoted', markers: ['</tool_call>', '<tool_call>'], callsInReasoning: true },
  { grammar: 'glm-5.3-flash', title: 'GLM-5.3-Flash (low confidence)', family: 'shared-tag', section: '7c', values: 'quoted', markers: ['<tool_call>'], ownCloser: '</tool_call>', trailingProse: false },

  // Section 3 and the registry-gated JSON shapes of 7b: look-alikes in plain prose.
  { grammar: 'bare-json', title: 'bare JSON {"name", "arguments"}', family: 'look-alike', section: '3', values: 'quoted', markers: [] },
  { grammar: 'bare-json-parameters', title: 'bare JSON {"name", "parameters"}', family: 'look-alike', section: '3', values: 'quoted', markers: [] },
  { grammar: 'name-keyed-json', title: 'name-keyed JSON {"NAME": {…}}', family: 'look-alike', section: '3', values: 'quoted', markers: [] },
  { grammar: 'bare-pythonic', title: 'bare pythonic list [f(a=1)]', family: 'look-alike', section: '3', values: 'quoted', markers: [] },
  { grammar: 'xlam', title: 'xLAM JSON list', family: 'look-alike', section: '7b', values: 'quoted', markers: [] },
  { grammar: 'llamacpp-generic', title: 'llama.cpp generic {"tool_call"} / {"tool_calls"}', family: 'look-alike', section: '7b', values: 'quoted', markers: [] },
];

export const THINK = THINK_DS;

export function grammarSpec(grammar: string): GrammarSpec {
  const spec = GRAMMARS.find((g) => g.grammar === grammar);
  if (spec === undefined) throw new Error(`unknown field grammar ${grammar}`);
  return spec;
}
