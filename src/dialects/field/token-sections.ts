/**
 * Field grammars of the `token-section` family: special-token sections whose calls are a name
 * and JSON arguments. Markers are written exactly as the models' decoded output shows them:
 * `｜` is U+FF5C, `▁` is U+2581.
 */
import { BASE_FIELDS, uniformRecord } from './layout.js';
import { NAME_TO_SPACE, type TokenSectionGrammar } from './types.js';

/** Every field of the family's records, in the order each record is built with (layout.ts). */
const TOKEN_SECTION_FIELDS = [
  ...BASE_FIELDS,
  'sectionOpen',
  'sectionClose',
  'callOpen',
  'callClose',
  'heads',
  'callCloseOptional',
  'callOpenOptional',
  'bodyDecides',
  'unregisteredGlued',
  'cutHead',
  'proseHeads',
  'unmarkedFirstSegment',
] as const satisfies readonly (keyof TokenSectionGrammar)[];

function tokenSection(record: TokenSectionGrammar): TokenSectionGrammar {
  return uniformRecord(record, TOKEN_SECTION_FIELDS);
}

const KIMI_SECTION_OPEN = ['<|tool_calls_section_begin|>', '<|tool_call_section_begin|>'];
const KIMI_SECTION_CLOSE = ['<|tool_calls_section_end|>', '<|tool_call_section_end|>'];
const KIMI_CALL_OPEN = ['<|tool_call_begin|>'];
const KIMI_CALL_CLOSE = ['<|tool_call_end|>'];
const KIMI_ARGS = '<|tool_call_argument_begin|>';

/** Kimi K2: `functions.NAME:IDX` heads, JSON arguments. */
export const KIMI_K2: TokenSectionGrammar = tokenSection({
  id: 'kimi-k2',
  family: 'token-section',
  openers: [...KIMI_SECTION_OPEN, ...KIMI_CALL_OPEN],
  markers: [...KIMI_SECTION_OPEN, ...KIMI_SECTION_CLOSE, ...KIMI_CALL_OPEN, ...KIMI_CALL_CLOSE, KIMI_ARGS],
  sectionOpen: KIMI_SECTION_OPEN,
  sectionClose: KIMI_SECTION_CLOSE,
  callOpen: KIMI_CALL_OPEN,
  callClose: KIMI_CALL_CLOSE,
  heads: [{ prefix: '', nameEnd: KIMI_ARGS, nameForm: 'kimi-id', args: 'json' }],
});

// DeepSeek writes its markers with U+FF5C; some deployments decode them with an ASCII `|`, or
// with a space for each `▁`. The section opener also arrives with backslash-escaped underscores
// (llama.cpp accepts it); `<｜tool_calls_begin｜>`, with plain underscores, is Step-3's.
const DEEPSEEK_SECTION_OPEN = [
  '<｜tool▁calls▁begin｜>',
  '<｜tool▁calls｜>',
  '<|tool▁calls▁begin|>',
  '<|tool▁calls|>',
  '<｜tool calls begin｜>',
  '<｜tool\\_calls\\_begin｜>',
];
const DEEPSEEK_SECTION_CLOSE = ['<｜tool▁calls▁end｜>', '<|tool▁calls▁end|>', '<｜tool calls end｜>'];
const DEEPSEEK_CALL_OPEN = ['<｜tool▁call▁begin｜>', '<|tool▁call▁begin|>', '<｜tool call begin｜>'];
const DEEPSEEK_CALL_CLOSE = ['<｜tool▁call▁end｜>', '<|tool▁call▁end|>', '<｜tool call end｜>'];
const DEEPSEEK_SEP = ['<｜tool▁sep｜>', '<|tool▁sep|>', '<｜tool sep｜>'];

/**
 * DeepSeek V3 / R1 (`function<sep>NAME` then a ```json fence) and V3.1 (`NAME<sep>{JSON}`):
 * one record, since both open with the same tokens; the head forms tell them apart.
 */
export const DEEPSEEK_V3: TokenSectionGrammar = tokenSection({
  id: 'deepseek-v3',
  family: 'token-section',
  openers: [...DEEPSEEK_SECTION_OPEN, ...DEEPSEEK_CALL_OPEN],
  markers: [...DEEPSEEK_SECTION_OPEN, ...DEEPSEEK_SECTION_CLOSE, ...DEEPSEEK_CALL_OPEN, ...DEEPSEEK_CALL_CLOSE, ...DEEPSEEK_SEP],
  sectionOpen: DEEPSEEK_SECTION_OPEN,
  sectionClose: DEEPSEEK_SECTION_CLOSE,
  callOpen: DEEPSEEK_CALL_OPEN,
  callClose: DEEPSEEK_CALL_CLOSE,
  callOpenOptional: true,
  heads: [
    ...DEEPSEEK_SEP.map((sep) => ({ prefix: `function${sep}`, nameEnd: '\n', nameForm: 'plain', args: 'json-fence' }) as const),
    // The same call with its line breaks left out (`function<sep>NAME```json{…}```<call end>`):
    // its fence's info word ends the name, so `function` is never taken for the name.
    ...DEEPSEEK_SEP.map((sep) => ({ prefix: `function${sep}`, nameEnd: '```json', nameForm: 'plain', args: 'json', argsClose: '```' }) as const),
    ...DEEPSEEK_SEP.map((sep) => ({ prefix: '', nameEnd: sep, nameForm: 'plain', args: 'json' }) as const),
  ],
});


const MISTRAL_CALL = ['[TOOL_CALLS]'];
const MISTRAL_ARGS = '[ARGS]';
const MISTRAL_CALL_ID = '[CALL_ID]';

/**
 * Mistral: v11+ repeats `[TOOL_CALLS]NAME[ARGS]{JSON}` per call (`[TOOL_CALLS]NAME{JSON}` when
 * special tokens are skipped); pre-v11 (and xLAM after the marker) writes one list of call
 * objects, `[TOOL_CALLS] [{…}]`, possibly after a few characters of junk. Magistral and
 * Ministral 3 write the same after their reasoning; Mistral Small 3.2 puts a call id between
 * the name and the arguments (`[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{JSON}`).
 */
export const MISTRAL: TokenSectionGrammar = tokenSection({
  id: 'mistral',
  family: 'token-section',
  openers: MISTRAL_CALL,
  markers: [...MISTRAL_CALL, MISTRAL_ARGS, MISTRAL_CALL_ID],
  sectionOpen: [],
  sectionClose: [],
  callOpen: MISTRAL_CALL,
  callClose: [],
  heads: [
    { prefix: '', nameEnd: '', nameForm: 'none', args: 'call-objects', skipBeforeList: 80 },
    { prefix: '', nameEnd: MISTRAL_ARGS, nameForm: 'plain', args: 'json' },
    { prefix: '', nameEnd: MISTRAL_CALL_ID, idAfterNameEnd: MISTRAL_ARGS, nameForm: 'plain', args: 'json' },
    { prefix: '', nameEnd: '', nameForm: 'plain', args: 'json' },
  ],
});

const TOOL_REQUEST_OPEN = ['[TOOL_REQUEST]'];
const TOOL_REQUEST_CLOSE = ['[TOOL_REQUEST_END]'];

/** `[TOOL_REQUEST]\nNAME {JSON}\n[TOOL_REQUEST_END]`. */
export const TOOL_REQUEST: TokenSectionGrammar = tokenSection({
  id: 'tool-request',
  family: 'token-section',
  openers: TOOL_REQUEST_OPEN,
  markers: [...TOOL_REQUEST_OPEN, ...TOOL_REQUEST_CLOSE],
  sectionOpen: [],
  sectionClose: [],
  callOpen: TOOL_REQUEST_OPEN,
  callClose: TOOL_REQUEST_CLOSE,
  heads: [{ prefix: '', nameEnd: '', nameForm: 'plain', args: 'json' }],
});

const SOLAR_SECTION_OPEN = ['<|tool_calls|>'];
const SOLAR_CALL_OPEN = ['<|tool_call:begin|>'];
const SOLAR_CALL_CLOSE = ['<|tool_call:end|>'];
const SOLAR_NAME = '<|tool_call:name|>';
const SOLAR_ARGS = '<|tool_call:args|>';

/** Solar Open: `<|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{JSON}<|tool_call:end|>`. */
export const SOLAR_OPEN: TokenSectionGrammar = tokenSection({
  id: 'solar-open',
  family: 'token-section',
  openers: [...SOLAR_SECTION_OPEN, ...SOLAR_CALL_OPEN],
  markers: [...SOLAR_SECTION_OPEN, ...SOLAR_CALL_OPEN, ...SOLAR_CALL_CLOSE, SOLAR_NAME, SOLAR_ARGS],
  sectionOpen: SOLAR_SECTION_OPEN,
  sectionClose: [],
  callOpen: SOLAR_CALL_OPEN,
  callClose: SOLAR_CALL_CLOSE,
  heads: [{ prefix: '', idEnd: SOLAR_NAME, nameEnd: SOLAR_ARGS, nameForm: 'plain', args: 'json' }],
});

const PLAMO_SECTION_OPEN = ['<|plamo:begin_tool_requests:plamo|>'];
const PLAMO_SECTION_CLOSE = ['<|plamo:end_tool_requests:plamo|>'];
const PLAMO_CALL_OPEN = ['<|plamo:begin_tool_request:plamo|>'];
const PLAMO_CALL_CLOSE = ['<|plamo:end_tool_request:plamo|>'];
const PLAMO_NAME_OPEN = '<|plamo:begin_tool_name:plamo|>';
const PLAMO_NAME_CLOSE = '<|plamo:end_tool_name:plamo|>';
const PLAMO_ARGS_OPEN = '<|plamo:begin_tool_arguments:plamo|>';
const PLAMO_ARGS_CLOSE = '<|plamo:end_tool_arguments:plamo|>';
/** What the template writes after the arguments' begin token: a JSON constraint and a message token, or the message token alone. */
const PLAMO_CONSTRAIN = '<|plamo:constrain|>json';
const PLAMO_MSG = '<|plamo:msg|>';

/** PLaMo-3: a name and a JSON object, each between its own begin and end tokens (the object led by `<|plamo:constrain|>json<|plamo:msg|>`, `<|plamo:msg|>` or nothing). */
export const PLAMO_3: TokenSectionGrammar = tokenSection({
  id: 'plamo-3',
  family: 'token-section',
  openers: [...PLAMO_SECTION_OPEN, ...PLAMO_CALL_OPEN],
  markers: [...PLAMO_SECTION_OPEN, ...PLAMO_SECTION_CLOSE, ...PLAMO_CALL_OPEN, ...PLAMO_CALL_CLOSE, PLAMO_NAME_OPEN, PLAMO_NAME_CLOSE, PLAMO_ARGS_OPEN, PLAMO_ARGS_CLOSE, PLAMO_MSG],
  sectionOpen: PLAMO_SECTION_OPEN,
  sectionClose: PLAMO_SECTION_CLOSE,
  callOpen: PLAMO_CALL_OPEN,
  callClose: PLAMO_CALL_CLOSE,
  heads: [`${PLAMO_CONSTRAIN}${PLAMO_MSG}`, PLAMO_MSG, ''].map((lead) => ({
    prefix: PLAMO_NAME_OPEN,
    nameEnd: PLAMO_NAME_CLOSE,
    nameForm: 'plain' as const,
    argsOpen: `${PLAMO_ARGS_OPEN}${lead}`,
    argsClose: PLAMO_ARGS_CLOSE,
    args: 'json' as const,
  })),
});

const INTERNLM_CALL_OPEN = ['<|action_start|>'];
const INTERNLM_CALL_CLOSE = ['<|action_end|>'];
const INTERNLM_PLUGIN = '<|plugin|>';
const INTERNLM_INTERPRETER = '<|interpreter|>';

/**
 * InternLM2 / Intern-S1: `<|action_start|><|plugin|>{"name", "parameters"}<|action_end|>`, one
 * call per block (the object may stand in a ```json fence); `<|action_start|><|interpreter|>`
 * then code to run, a call of the registered code tool.
 */
export const INTERNLM2: TokenSectionGrammar = tokenSection({
  id: 'internlm2',
  family: 'token-section',
  openers: INTERNLM_CALL_OPEN,
  markers: [...INTERNLM_CALL_OPEN, ...INTERNLM_CALL_CLOSE, INTERNLM_PLUGIN, INTERNLM_INTERPRETER],
  sectionOpen: [],
  sectionClose: [],
  callOpen: INTERNLM_CALL_OPEN,
  callClose: INTERNLM_CALL_CLOSE,
  heads: [
    { prefix: INTERNLM_PLUGIN, nameEnd: '', nameForm: 'none', args: 'call-objects' },
    { prefix: INTERNLM_INTERPRETER, nameEnd: '', nameForm: 'none', args: 'code' },
  ],
});

const INKLING_CALL_OPEN = ['<|message_model|>'];
const INKLING_CALL_CLOSE = ['<|end_message|>'];
const INKLING_INVOKE = '<|content_invoke_tool_json|>';

/**
 * Inkling: `<|message_model|>NAME<|content_invoke_tool_json|>{"name": NAME, "args": {…}}<|end_message|>`;
 * the header's name and the body's must agree. A model message without the invoke token is
 * not a call (the reader leaves it).
 */
export const INKLING: TokenSectionGrammar = tokenSection({
  id: 'inkling',
  family: 'token-section',
  openers: INKLING_CALL_OPEN,
  markers: [...INKLING_CALL_OPEN, ...INKLING_CALL_CLOSE, INKLING_INVOKE],
  sectionOpen: [],
  sectionClose: [],
  callOpen: INKLING_CALL_OPEN,
  callClose: INKLING_CALL_CLOSE,
  heads: [{ prefix: '', nameEnd: INKLING_INVOKE, nameForm: 'plain', args: 'call-objects' }],
  bodyDecides: true,
});

const LLAMA_PYTHON_TAG = ['<|python_tag|>'];
const LLAMA_FUNCTION_OPEN = ['<function='];
const LLAMA_FUNCTION_CLOSE = ['</function>'];

/**
 * Llama 3.1 user-defined tools and Functionary v3.1: `<function=NAME>{JSON}</function>`,
 * optionally after `<|python_tag|>`. `<function=NAME>` followed by `<parameter=` is
 * Qwen3-Coder's body, not this grammar: only a JSON body is read here.
 */
export const LLAMA_31_FUNCTION: TokenSectionGrammar = tokenSection({
  id: 'llama-3.1-function',
  family: 'token-section',
  openers: [...LLAMA_PYTHON_TAG, ...LLAMA_FUNCTION_OPEN],
  markers: [...LLAMA_PYTHON_TAG, ...LLAMA_FUNCTION_OPEN, ...LLAMA_FUNCTION_CLOSE],
  sectionOpen: LLAMA_PYTHON_TAG,
  sectionClose: [],
  callOpen: LLAMA_FUNCTION_OPEN,
  callClose: LLAMA_FUNCTION_CLOSE,
  heads: [{ prefix: '', nameEnd: '>', nameForm: 'plain', args: 'json' }],
  bodyDecides: true,
  cutHead: 'never',
});

const HERMES_TAG_OPEN = ['<tool_call>'];
const HERMES_TAG_CLOSE = ['</tool_call>'];

/** Step-Audio 2: `<tool_call>function\nNAME\n{JSON}</tool_call>` (the body opens with the word `function`). */
export const STEP_AUDIO_2: TokenSectionGrammar = tokenSection({
  id: 'step-audio-2',
  family: 'token-section',
  openers: HERMES_TAG_OPEN,
  markers: [...HERMES_TAG_OPEN, ...HERMES_TAG_CLOSE],
  sectionOpen: [],
  sectionClose: [],
  callOpen: HERMES_TAG_OPEN,
  callClose: HERMES_TAG_CLOSE,
  heads: [{ prefix: 'function\n', nameEnd: '\n', nameForm: 'plain', args: 'json' }],
  bodyDecides: true,
  cutHead: 'never',
});

const HARMONY_RECIPIENTS = ['assistant to=functions.', 'to=functions.'];

/**
 * A gpt-oss message header and its JSON inside `<tool_call>`, as SGLang's multi-format reader
 * takes it: `<tool_call>assistant to=functions.NAME json⏎{JSON}⏎</tool_call>` (the role word
 * and the `json` content type may be left out).
 */
export const HARMONY_IN_TOOL_CALL: TokenSectionGrammar = tokenSection({
  id: 'harmony-in-tool-call',
  family: 'token-section',
  openers: HERMES_TAG_OPEN,
  markers: [...HERMES_TAG_OPEN, ...HERMES_TAG_CLOSE],
  sectionOpen: [],
  sectionClose: [],
  callOpen: HERMES_TAG_OPEN,
  callClose: HERMES_TAG_CLOSE,
  heads: HARMONY_RECIPIENTS.flatMap((prefix) => [
    { prefix, nameEnd: NAME_TO_SPACE, nameForm: 'plain' as const, argsOpen: 'json', args: 'json' as const },
    { prefix, nameEnd: NAME_TO_SPACE, nameForm: 'plain' as const, args: 'json' as const },
  ]),
  bodyDecides: true,
  cutHead: 'never',
});

/** GLM-5.3-Flash (low confidence): `<tool_call>NAME>{JSON}`, no close (one is consumed when present). */
export const GLM_53_FLASH: TokenSectionGrammar = tokenSection({
  id: 'glm-5.3-flash',
  family: 'token-section',
  openers: HERMES_TAG_OPEN,
  markers: [...HERMES_TAG_OPEN, ...HERMES_TAG_CLOSE],
  sectionOpen: [],
  sectionClose: [],
  callOpen: HERMES_TAG_OPEN,
  callClose: HERMES_TAG_CLOSE,
  callCloseOptional: true,
  heads: [{ prefix: '', nameEnd: '>', nameForm: 'plain', args: 'json' }],
  bodyDecides: true,
  cutHead: 'never',
});

const GIGACHAT_CALL_OPEN = ['<|function_call|>', 'function call<|role_sep|>'];
const GIGACHAT_MESSAGE_END = ['<|message_sep|>'];

/** GigaChat 3: one call object after `<|function_call|>` or `function call<|role_sep|>`; the message ends at `<|message_sep|>`. */
export const GIGACHAT_3: TokenSectionGrammar = tokenSection({
  id: 'gigachat-3',
  family: 'token-section',
  openers: GIGACHAT_CALL_OPEN,
  markers: [...GIGACHAT_CALL_OPEN, ...GIGACHAT_MESSAGE_END, '<|role_sep|>'],
  sectionOpen: [],
  sectionClose: [],
  callOpen: GIGACHAT_CALL_OPEN,
  callClose: GIGACHAT_MESSAGE_END,
  callCloseOptional: true,
  heads: [{ prefix: '', nameEnd: '', nameForm: 'none', args: 'call-objects' }],
});

const CWM_CALL_OPEN = ['<tool: '];
const CWM_CALL_CLOSE = ['</tool>'];

/** CWM: `<tool: LABEL>\nNAME rest…\n</tool>`; the rest is JSON arguments, or else the command string. */
export const CWM: TokenSectionGrammar = tokenSection({
  id: 'cwm',
  family: 'token-section',
  openers: CWM_CALL_OPEN,
  markers: [...CWM_CALL_OPEN, ...CWM_CALL_CLOSE],
  sectionOpen: [],
  sectionClose: [],
  callOpen: CWM_CALL_OPEN,
  callClose: CWM_CALL_CLOSE,
  heads: [{ prefix: '', idEnd: '>\n', nameEnd: NAME_TO_SPACE, nameForm: 'plain', args: 'json-or-command' }],
  bodyDecides: true,
});

const FUNCTIONARY_OPEN = ['>>>'];
const FUNCTIONARY_CODE_HEADS = ['python'];

/**
 * Functionary v3.2: segments `>>>RECIPIENT\n…`. A recipient is a call (JSON arguments; raw code
 * for `python`, as llama.cpp reads it); `all` is visible text; an unregistered recipient counts
 * only written as the template writes it. A bare `>>>` (a quoted prompt) is never a cut call.
 */
export const FUNCTIONARY_V32: TokenSectionGrammar = tokenSection({
  id: 'functionary-v3.2',
  family: 'token-section',
  openers: FUNCTIONARY_OPEN,
  markers: FUNCTIONARY_OPEN,
  sectionOpen: [],
  sectionClose: [],
  callOpen: FUNCTIONARY_OPEN,
  callClose: [],
  heads: [
    { prefix: '', nameEnd: '\n', nameForm: 'plain', args: 'json' },
    { prefix: '', nameEnd: '\n', nameForm: 'plain', args: 'code', names: FUNCTIONARY_CODE_HEADS },
  ],
  bodyDecides: true,
  cutHead: 'registered',
  unregisteredGlued: true,
  proseHeads: ['all'],
  unmarkedFirstSegment: true,
});

const FUNCTIONARY_V2_OPEN = ['<|from|>assistant\n<|recipient|>', '<|from|>assistant<|recipient|>', '<|recipient|>'];

/**
 * Functionary v2: `<|from|>assistant⏎<|recipient|>NAME⏎<|content|>{JSON}`, one message per call
 * (`<|stop|>` may end the turn); the recipient `all` addresses the user, so its content is prose.
 */
export const FUNCTIONARY_V2: TokenSectionGrammar = tokenSection({
  id: 'functionary-v2',
  family: 'token-section',
  openers: FUNCTIONARY_V2_OPEN,
  markers: [...FUNCTIONARY_V2_OPEN, '<|from|>', '<|content|>', '<|stop|>'],
  sectionOpen: [],
  sectionClose: [],
  callOpen: FUNCTIONARY_V2_OPEN,
  callClose: ['<|stop|>'],
  callCloseOptional: true,
  heads: [{ prefix: '', nameEnd: '<|content|>', nameForm: 'plain', args: 'json' }],
  bodyDecides: true,
  proseHeads: ['all'],
});

const QWEN_AGENT_OPEN = ['✿FUNCTION✿:'];
const QWEN_AGENT_ARGS = '✿ARGS✿:';

/**
 * Qwen-Agent's own function-call prompt (Qwen2 and Qwen2.5 served as text): `✿FUNCTION✿: NAME`,
 * a line break, `✿ARGS✿: {JSON}`; one pair per call, the turn stopped at `✿RESULT✿`.
 */
export const QWEN_AGENT: TokenSectionGrammar = tokenSection({
  id: 'qwen-agent',
  family: 'token-section',
  openers: QWEN_AGENT_OPEN,
  markers: [...QWEN_AGENT_OPEN, QWEN_AGENT_ARGS],
  sectionOpen: [],
  sectionClose: [],
  callOpen: QWEN_AGENT_OPEN,
  callClose: [],
  heads: [{ prefix: '', nameEnd: QWEN_AGENT_ARGS, nameForm: 'plain', args: 'json' }],
  callCloseOptional: true,
});

const RWKV_OPEN = ['**Tool Call:**'];

/** RWKV: `**Tool Call:**` then a ```json fence (sometimes left out) holding one call object (JSON or a Python literal). */
export const RWKV: TokenSectionGrammar = tokenSection({
  id: 'rwkv',
  family: 'token-section',
  openers: RWKV_OPEN,
  markers: RWKV_OPEN,
  sectionOpen: [],
  sectionClose: [],
  callOpen: RWKV_OPEN,
  callClose: [],
  heads: [{ prefix: '', nameEnd: '', nameForm: 'none', args: 'call-objects' }],
  bodyDecides: true,
});

const LLAMA_CODE_CLOSE = ['<|eom_id|>', '<|eot_id|>'];

/**
 * Llama 3.1's code interpreter: `<|python_tag|>` then raw Python up to `<|eom_id|>` (which
 * deployments often strip), a call of the registered code tool (`CODE_TOOL_NAMES`). Any text
 * reads as code, so this record is tried after every other that shares the opener (JSON call
 * objects, `NAME.call(…)`, `<function=…>`): see `TOKEN_SECTION_FALLBACK_GRAMMARS`.
 */
export const LLAMA_31_CODE: TokenSectionGrammar = tokenSection({
  id: 'llama-3.1-code',
  family: 'token-section',
  openers: LLAMA_PYTHON_TAG,
  markers: [...LLAMA_PYTHON_TAG, ...LLAMA_CODE_CLOSE],
  sectionOpen: [],
  sectionClose: [],
  callOpen: LLAMA_PYTHON_TAG,
  callClose: LLAMA_CODE_CLOSE,
  callCloseOptional: true,
  // A model that writes the token and then answers in words (`<|python_tag|>Sure, here you go.`)
  // wrote no code: the words are prose.
  heads: [{ prefix: '', nameEnd: '', nameForm: 'none', args: 'code', sentenceIsProse: true }],
});

/** Token sections whose body takes any text: tried after every other family that shares their opener. */
/**
 * A gpt-oss call whose special tokens a server stripped: `assistantcommentary to=functions.NAME
 * json{…}`, the constraint spaced, glued or written as `<|constrain|>json`, `<|message|>` and
 * `<|call|>` kept or not. Without ` to=` the glued header is a preamble's (reasoning family,
 * `harmony-flat-commentary`), which shares the opener and is tried after this record.
 */
export const HARMONY_FLAT: TokenSectionGrammar = tokenSection({
  id: 'harmony-flat',
  family: 'token-section',
  openers: ['assistantcommentary'],
  markers: ['assistantcommentary', '<|constrain|>', '<|call|>'],
  sectionOpen: [],
  sectionClose: [],
  callOpen: ['assistantcommentary'],
  callClose: ['<|call|>'],
  callCloseOptional: true,
  bodyDecides: true,
  heads: [{ prefix: 'to=', nameEnd: '', nameForm: 'recipient', args: 'json' }],
});

/**
 * The same call where the response begins mid-header (`commentary to=functions.NAME json{…}`):
 * after Harmony's own record, which reads that opener where the header's tokens are all there.
 */
export const HARMONY_FLAT_MID_HEADER: TokenSectionGrammar = tokenSection({
  ...HARMONY_FLAT,
  id: 'harmony-flat-mid-header',
  openers: ['commentary to='],
  markers: ['<|constrain|>', '<|call|>'],
  callOpen: ['commentary to='],
  heads: [{ prefix: '', nameEnd: '', nameForm: 'recipient', args: 'json' }],
});

export const TOKEN_SECTION_FALLBACK_GRAMMARS: readonly TokenSectionGrammar[] = [LLAMA_31_CODE, HARMONY_FLAT, HARMONY_FLAT_MID_HEADER];

export const TOKEN_SECTION_GRAMMARS: readonly TokenSectionGrammar[] = [
  KIMI_K2,
  DEEPSEEK_V3,
  MISTRAL,
  TOOL_REQUEST,
  SOLAR_OPEN,
  PLAMO_3,
  INTERNLM2,
  INKLING,
  GIGACHAT_3,
  CWM,
  RWKV,
  FUNCTIONARY_V32,
  FUNCTIONARY_V2,
  QWEN_AGENT,
  LLAMA_31_FUNCTION,
  STEP_AUDIO_2,
  HARMONY_IN_TOOL_CALL,
  GLM_53_FLASH,
];
