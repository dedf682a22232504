/**
 * Field grammars of the `param-markup` family: calls whose arguments are raw text inside
 * parameter markup, typed by the tool's JSON Schema (or by a type the grammar writes in band).
 * Markers are written exactly as the models' decoded output shows them: `｜` is U+FF5C, `‹` U+2039.
 */
import type { MarkupTag, ParamMarkupGrammar, TagArguments, ValueRule } from './types.js';

const STRIP: ValueRule = { typing: 'schema', typeAttribute: null, whitespace: 'strip', entities: false, cdata: false, nullWords: ['null', 'None'] };

/** `<PREFIXinvoke name="N">` … `</PREFIXinvoke>` style tags; a grammar with two spellings passes both. */
function attrTag(open: string | readonly string[], close: string | readonly string[], nameAttribute = 'name', end = '>'): MarkupTag {
  return { open: typeof open === 'string' ? [open] : open, nameAttribute, end, close: typeof close === 'string' ? [close] : close };
}

function tagArgs(tag: MarkupTag, closeOptional = false): TagArguments {
  return { kind: 'tags', tag, wrapper: null, closeOptional, wrapperKeys: [] };
}

/** The fields most records leave at their default. */
const PLAIN = {
  bare: false,
  callWrap: null,
  jsonBody: null,
  callObjects: false,
  callEndsAtNextOpen: false,
  values: STRIP,
  tagToken: null,
  escapedBreaks: false,
  suffixed: false,
  envelope: null,
} as const;

// Qwen3-Coder (also Nemotron 3, Qwen3.5, MiMo, Step-3.5): `<function=NAME>` + `<parameter=K>`;
// a `</parameter>` the model leaves out ends the value at the next `<parameter=` or `</function>`.
const QWEN_FUNCTION: MarkupTag = { open: ['<function='], nameAttribute: null, end: '>', close: ['</function>'] };
const QWEN_PARAMETER: MarkupTag = { open: ['<parameter='], nameAttribute: null, end: '>', close: ['</parameter>'] };
const QWEN_MARKERS = ['<function=', '</function>', '<parameter=', '</parameter>'];

export const QWEN3_CODER: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'qwen3-coder',
  family: 'param-markup',
  openers: ['<tool_call>', '<function='],
  markers: ['<tool_call>', '</tool_call>', ...QWEN_MARKERS],
  section: { open: ['<tool_call>'], close: ['</tool_call>'] },
  bare: true,
  call: { kind: 'tag', tag: QWEN_FUNCTION },
  args: tagArgs(QWEN_PARAMETER, true),
};

/** Seed-OSS: the Qwen3-Coder body in `<seed:tool_call>`. */
export const SEED_OSS: ParamMarkupGrammar = {
  ...QWEN3_CODER,
  id: 'seed-oss',
  openers: ['<seed:tool_call>'],
  markers: ['<seed:tool_call>', '</seed:tool_call>', ...QWEN_MARKERS],
  section: { open: ['<seed:tool_call>'], close: ['</seed:tool_call>'] },
  bare: false,
};

/** A line break written escaped: a backslash and `n`, two characters. */
const ESCAPED_BREAK = '\\n';

/** GLM-4.5 / 4.6 / 4.7 (and Ling 3, Spark, HyperCLOVAX, Poolside Laguna): `<tool_call>NAME` + arg_key/arg_value pairs. */
function glmLike(id: string, open: string, close: string, prefix = ''): ParamMarkupGrammar {
  const [keyOpen, keyClose, valueOpen, valueClose] = [`<${prefix}arg_key>`, `</${prefix}arg_key>`, `<${prefix}arg_value>`, `</${prefix}arg_value>`];
  return {
    ...PLAIN,
    id,
    family: 'param-markup',
    openers: [open],
    markers: [open, close, keyOpen, keyClose, valueOpen, valueClose],
    section: null,
    bare: true,
    // A value's close right after the name: GLM 5.2 writes `<tool_call>NAME</arg_value>` for a tool that takes no argument.
    call: { kind: 'text', open: [open], nameEnd: [keyOpen, '\n', ESCAPED_BREAK, close, valueClose], nameSep: [], close: [close] },
    args: { kind: 'pairs', keyOpen, keyClose, typeOpen: null, typeClose: null, valueOpen, valueClose },
    // SGLang's GLM reader takes `<tool_call>NAME\n<arg_key>…` with the breaks written escaped.
    escapedBreaks: true,
  };
}

export const GLM = glmLike('glm', '<tool_call>', '</tool_call>');
export const IQUEST = glmLike('iquest-q1', '<iquest_tool_call>', '</iquest_tool_call>');
/**
 * LongCat-Flash-Lite: GLM's pairs with LongCat's own tags, `<longcat_tool_call>NAME⏎
 * <longcat_arg_key>K</longcat_arg_key><longcat_arg_value>V</longcat_arg_value>…` (mlx-lm's
 * LongCat reader); a JSON body in the same tag is the call-objects record `longcat`'s.
 */
export const LONGCAT_PAIRS = glmLike('longcat-pairs', '<longcat_tool_call>', '</longcat_tool_call>', 'longcat_');
/** IQuest Coder V2 (vLLM's `iquest_coder_v2` parser): the same body in `<iquestcoder_tool_call>`. */
export const IQUEST_CODER_V2 = glmLike('iquest-coder-v2', '<iquestcoder_tool_call>', '</iquestcoder_tool_call>');

/** Hunyuan Hy3 / HY-V4: every tag carries a deployment suffix `{S}` (`:opensource`). */
export const HUNYUAN: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'hunyuan',
  family: 'param-markup',
  openers: ['<tool_calls>', '<tool_calls:', '<tool_call:'],
  markers: ['<tool_calls', '</tool_calls', '<tool_call', '</tool_call', '<tool_sep', '<arg_key', '</arg_key', '<arg_value', '</arg_value', '<end_of_tool_call'],
  section: { open: ['<tool_calls{S}>'], close: ['</tool_calls{S}>'] },
  bare: true,
  call: {
    kind: 'text',
    open: ['<tool_call{S}>'],
    nameEnd: ['<tool_sep{S}>', '<arg_key{S}>', '</tool_call{S}>'],
    nameSep: ['<tool_sep{S}>'],
    close: ['</tool_call{S}>'],
  },
  args: { kind: 'pairs', keyOpen: '<arg_key{S}>', keyClose: '</arg_key{S}>', typeOpen: null, typeClose: null, valueOpen: '<arg_value{S}>', valueClose: '</arg_value{S}>' },
  jsonBody: { open: [''], close: ['<end_of_tool_call{S}>'] },
  suffixed: true,
};

/**
 * K2 Horizon (K2-v3): GLM-style pairs with an optional `<ifm|arg_type>`, or a JSON body after
 * the name, or (the template's `json` format) a `{"name", "arguments"}` object in place of both.
 */
export const K2_HORIZON: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'k2-horizon',
  family: 'param-markup',
  openers: ['<ifm|tool_calls>', '<ifm|tool_call>'],
  markers: ['<ifm|tool_calls>', '</ifm|tool_calls>', '<ifm|tool_call>', '</ifm|tool_call>', '<ifm|arg_key>', '</ifm|arg_key>', '<ifm|arg_type>', '</ifm|arg_type>', '<ifm|arg_value>', '</ifm|arg_value>'],
  section: { open: ['<ifm|tool_calls>'], close: ['</ifm|tool_calls>'] },
  bare: true,
  call: { kind: 'text', open: ['<ifm|tool_call>'], nameEnd: ['<ifm|arg_key>', '\n', '</ifm|tool_call>', '{'], nameSep: [], close: ['</ifm|tool_call>'] },
  args: {
    kind: 'pairs',
    keyOpen: '<ifm|arg_key>',
    keyClose: '</ifm|arg_key>',
    typeOpen: '<ifm|arg_type>',
    typeClose: '</ifm|arg_type>',
    valueOpen: '<ifm|arg_value>',
    valueClose: '</ifm|arg_value>',
  },
  jsonBody: { open: [''], close: [] },
  callObjects: true,
};

/** Solar Open2: `<|tool_call:start|>NAME\n` + `<|tool_arg:start|>K<|tool_arg:value|>V<|tool_arg:end|>`. */
export const SOLAR_OPEN2: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'solar-open2',
  family: 'param-markup',
  openers: ['<|tool_call:start|>'],
  markers: ['<|tool_call:start|>', '<|tool_call:end|>', '<|tool_arg:start|>', '<|tool_arg:value|>', '<|tool_arg:end|>'],
  section: null,
  bare: true,
  call: { kind: 'text', open: ['<|tool_call:start|>'], nameEnd: ['\n', '<|tool_arg:start|>', '<|tool_call:end|>', '<|tool_call:start|>'], nameSep: [], close: ['<|tool_call:end|>'] },
  args: { kind: 'pairs', keyOpen: '<|tool_arg:start|>', keyClose: '<|tool_arg:value|>', typeOpen: null, typeClose: null, valueOpen: '', valueClose: '<|tool_arg:end|>' },
  callEndsAtNextOpen: true,
};

const INVOKE = attrTag('<invoke', '</invoke>');
const PARAMETER = attrTag('<parameter', '</parameter>');
const INVOKE_MARKERS = ['<invoke', '</invoke>', '<parameter', '</parameter>'];

/** MiniMax M2: `<minimax:tool_call>` + invokes, often on one line glued to prose. */
export const MINIMAX_M2: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'minimax-m2',
  family: 'param-markup',
  openers: ['<minimax:tool_call>'],
  markers: ['<minimax:tool_call>', '</minimax:tool_call>', ...INVOKE_MARKERS],
  section: { open: ['<minimax:tool_call>'], close: ['</minimax:tool_call>'] },
  call: { kind: 'tag', tag: INVOKE },
  args: tagArgs(PARAMETER),
};

/**
 * A `<tool_call>` tag that names its tool in an attribute and holds the arguments as JSON,
 * `<tool_call id="call_0" name="f">{…}</tool_call>` (DeepSeek V4 Pro, reported by an agent
 * project); `<parameter name="K">` arguments read as MiniMax M2's do.
 */
export const TOOL_CALL_NAMED: ParamMarkupGrammar = {
  ...MINIMAX_M2,
  id: 'tool-call-named',
  openers: ['<tool_call '],
  markers: ['<tool_call ', '</tool_call>', '<parameter', '</parameter>'],
  section: null,
  bare: true,
  call: { kind: 'tag', tag: attrTag('<tool_call', '</tool_call>') },
  jsonBody: { open: [''], close: [] },
};

/**
 * `<tool_call>` holding MiniMax M2's `<invoke name="N"><parameter name="K">` (ik_llama.cpp
 * documents Kimi K2 writing it; models trained on Claude's XML do too). After MiniMax M3's
 * record, which shares the tag and the head and leaves a `<parameter` argument to this one.
 */
export const TOOL_CALL_INVOKE: ParamMarkupGrammar = {
  ...MINIMAX_M2,
  id: 'tool-call-invoke',
  openers: ['<tool_call>'],
  markers: ['<tool_call>', '</tool_call>', ...INVOKE_MARKERS],
  section: { open: ['<tool_call>'], close: ['</tool_call>'] },
};

/**
 * Anthropic XML in `<function_calls>` (entities decoded). DeepSeek V4 also writes its DSML-less
 * form here, with `string="true|false"` on the parameters: that attribute types the value, and
 * such a value is not entity-decoded.
 */
export const ANTHROPIC_XML: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'anthropic-xml',
  family: 'param-markup',
  openers: ['<function_calls>'],
  markers: ['<function_calls>', '</function_calls>', ...INVOKE_MARKERS],
  section: { open: ['<function_calls>'], close: ['</function_calls>'] },
  call: { kind: 'tag', tag: INVOKE },
  args: tagArgs(PARAMETER),
  values: { ...STRIP, entities: true, typeAttribute: { name: 'string', form: 'string-flag' } },
};

/**
 * DeepSeek V4's DSML-less form of its `<｜DSML｜tool_calls>` block: `<tool_calls>` holding
 * `<invoke name="N">` and `<parameter name="K" string="true|false">` (SGLang's multi-format
 * reader takes it, MiniMax's invokes too). `<tool_calls>` also opens JSON bodies (MiniMax M1,
 * Jamba, Hunyuan) and HY-V3's suffixed calls: a body that does not open with an invoke is theirs.
 */
export const TOOL_CALLS_INVOKE: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'tool-calls-invoke',
  family: 'param-markup',
  openers: ['<tool_calls>'],
  markers: ['<tool_calls>', '</tool_calls>', ...INVOKE_MARKERS],
  section: { open: ['<tool_calls>'], close: ['</tool_calls>'] },
  call: { kind: 'tag', tag: INVOKE },
  args: tagArgs(PARAMETER),
  values: { ...STRIP, typeAttribute: { name: 'string', form: 'string-flag' } },
};

/** dots: `<dots_function_call>` holding invokes with optional attribute quotes (a JSON body is another grammar's). */
export const DOTS: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'dots',
  family: 'param-markup',
  openers: ['<dots_function_call>'],
  markers: ['<dots_function_call>', '</dots_function_call>', ...INVOKE_MARKERS],
  section: { open: ['<dots_function_call>'], close: ['</dots_function_call>'] },
  call: { kind: 'tag', tag: INVOKE },
  args: tagArgs(PARAMETER),
};

const STEP_INVOKE = attrTag('<steptml:invoke', '</steptml:invoke>');
const STEP_PARAMETER = attrTag('<steptml:parameter', '</steptml:parameter>');
const STEP_MARKERS = ['<steptml:invoke', '</steptml:invoke>', '<steptml:parameter', '</steptml:parameter>'];

// Step-3 writes its tokens with U+FF5C; a deployment that decodes them with an ASCII `|` shares
// the per-call tokens with Kimi K2, whose body (`functions.NAME:IDX`) the invoke tells apart.
const STEP_SECTION_OPEN = ['<｜tool_calls_begin｜>', '<|tool_calls_begin|>'];
const STEP_SECTION_CLOSE = ['<｜tool_calls_end｜>', '<|tool_calls_end|>'];
const STEP_CALL_OPEN = ['<｜tool_call_begin｜>', '<|tool_call_begin|>'];
const STEP_CALL_CLOSE = ['<｜tool_call_end｜>', '<|tool_call_end|>'];
const STEP_CALL_PREFIX = ['function<｜tool_sep｜>', 'function<|tool_sep|>'];

/** Step-3: special-token section and per-call tokens around a `<steptml:invoke>`; values kept exactly. */
export const STEP_3: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'step-3',
  family: 'param-markup',
  openers: [...STEP_SECTION_OPEN, ...STEP_CALL_OPEN],
  markers: [...STEP_SECTION_OPEN, ...STEP_SECTION_CLOSE, ...STEP_CALL_OPEN, ...STEP_CALL_CLOSE, '<｜tool_sep｜>', '<|tool_sep|>', ...STEP_MARKERS],
  section: { open: STEP_SECTION_OPEN, close: STEP_SECTION_CLOSE },
  bare: true,
  callWrap: { open: STEP_CALL_OPEN, prefix: STEP_CALL_PREFIX, close: STEP_CALL_CLOSE },
  call: { kind: 'tag', tag: STEP_INVOKE },
  args: tagArgs(STEP_PARAMETER),
  values: { ...STRIP, whitespace: 'exact' },
};

/** Step DeepResearch: Step-3's invokes in `<steptml:toolcall>`, values stripped. */
export const STEP_DEEPRESEARCH: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'step-deepresearch',
  family: 'param-markup',
  openers: ['<steptml:toolcall>'],
  markers: ['<steptml:toolcall>', '</steptml:toolcall>', ...STEP_MARKERS],
  section: { open: ['<steptml:toolcall>'], close: ['</steptml:toolcall>'] },
  call: { kind: 'tag', tag: STEP_INVOKE },
  args: tagArgs(STEP_PARAMETER),
};

const STRING_FLAG = { name: 'string', form: 'string-flag' } as const;

/**
 * DSML's tag prefix as the template writes it (`<｜DSML｜`), and with each bar doubled
 * (`<｜｜DSML｜｜`), as DeepSeek V4 is seen to leak it when it writes its calls into content
 * through OpenAI-compatible providers (Hermes-style agents and gateways report the form). The
 * leak doubles one bar as often as both (`<｜DSML｜｜`, `<｜｜DSML｜`), and a region may mix the
 * spellings tag by tag, so all four are read, for V4.1's spaced tags too; and with ASCII bars
 * (`<|DSML|`), as deployments that decode the fullwidth bar to `|` write it (the same decoding
 * turn-end.ts reads in DeepSeek's end of sentence).
 */
const DSML_BARS = ['｜DSML｜', '｜｜DSML｜｜', '｜DSML｜｜', '｜｜DSML｜', '|DSML|'] as const;
const dsml = (lead: '<' | '</', tag: string): string[] => DSML_BARS.map((bars) => `${lead}${bars}${tag}`);

/** DeepSeek V3.2 / V4 DSML: `string="true"` raw text, `"false"` JSON; a V4 invoke body may be plain JSON. */
export const DEEPSEEK_DSML: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'deepseek-dsml',
  family: 'param-markup',
  // An invoke may stand without its section (DeepSeek V3.2 as the reference reads it).
  openers: [...dsml('<', 'function_calls>'), ...dsml('<', 'tool_calls>'), ...dsml('<', 'invoke')],
  bare: true,
  markers: [
    ...dsml('<', 'function_calls>'),
    ...dsml('</', 'function_calls>'),
    ...dsml('<', 'tool_calls>'),
    ...dsml('</', 'tool_calls>'),
    ...dsml('<', 'invoke'),
    ...dsml('</', 'invoke>'),
    ...dsml('<', 'parameter'),
    ...dsml('</', 'parameter>'),
  ],
  section: { open: [...dsml('<', 'function_calls>'), ...dsml('<', 'tool_calls>')], close: [...dsml('</', 'function_calls>'), ...dsml('</', 'tool_calls>')] },
  call: { kind: 'tag', tag: attrTag(dsml('<', 'invoke'), dsml('</', 'invoke>')) },
  // A model writes all the arguments as one JSON parameter now and then (`<parameter name="arguments" string="false">{…}`).
  args: { ...tagArgs(attrTag(dsml('<', 'parameter'), dsml('</', 'parameter>'))), wrapperKeys: ['arguments', 'input'] },
  jsonBody: { open: [''], close: [] },
  values: { ...STRIP, typeAttribute: STRING_FLAG },
};

/** DeepSeek V4.1 spaced DSML (`<｜DSML｜ calls>`): string values are not stripped; names may carry `ns::fn`. */
export const DEEPSEEK_V4_1: ParamMarkupGrammar = {
  ...DEEPSEEK_DSML,
  id: 'deepseek-v4.1',
  openers: [...dsml('<', ' calls>'), ...dsml('<', ' tool_calls>'), ...dsml('<', ' invoke')],
  markers: [
    ...dsml('<', ' calls>'),
    ...dsml('</', ' calls>'),
    ...dsml('<', ' tool_calls>'),
    ...dsml('</', ' tool_calls>'),
    ...dsml('<', ' invoke'),
    ...dsml('</', ' invoke>'),
    ...dsml('<', ' parameter'),
    ...dsml('</', ' parameter>'),
  ],
  section: { open: [...dsml('<', ' calls>'), ...dsml('<', ' tool_calls>')], close: [...dsml('</', ' calls>'), ...dsml('</', ' tool_calls>')] },
  call: { kind: 'tag', tag: attrTag(dsml('<', ' invoke'), dsml('</', ' invoke>')) },
  args: { ...tagArgs(attrTag(dsml('<', ' parameter'), dsml('</', ' parameter>'))), wrapperKeys: ['arguments', 'input'] },
  values: { ...STRIP, typeAttribute: STRING_FLAG, whitespace: 'exact' },
};

/**
 * GigaChat 3.5 GCML: `string="true"` (the default) raw text, else JSON. The template's tokens
 * open with `‹` (U+2039); vLLM's and SGLang's gigachat35 parsers and tests write the same tags
 * with an ASCII `<`, so both spellings are read (one region never mixes them in practice, and
 * reading a mix costs nothing).
 */
const GCML_LEADS = ['‹', '<'] as const;
const gcml = (tag: string): string[] => GCML_LEADS.map((lead) => `${lead}${tag}`);

export const GIGACHAT_GCML: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'gigachat-3.5',
  family: 'param-markup',
  openers: gcml('｜GCML｜tool_calls>'),
  markers: ['｜GCML｜tool_calls>', '/｜GCML｜tool_calls>', '｜GCML｜invoke', '/｜GCML｜invoke>', '｜GCML｜parameter', '/｜GCML｜parameter>'].flatMap(gcml),
  section: { open: gcml('｜GCML｜tool_calls>'), close: gcml('/｜GCML｜tool_calls>') },
  call: { kind: 'tag', tag: attrTag(gcml('｜GCML｜invoke'), gcml('/｜GCML｜invoke>')) },
  args: tagArgs(attrTag(gcml('｜GCML｜parameter'), gcml('/｜GCML｜parameter>'))),
  values: { ...STRIP, typeAttribute: STRING_FLAG },
};

/**
 * MiniCPM 5: bare `<function name="N"><param name="K">V</param></function>`, CDATA, an optional
 * `<arguments>` element, or all the arguments as JSON in one `arguments` (or `properties`) param.
 */
export const MINICPM_5: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'minicpm-5',
  family: 'param-markup',
  openers: ['<function name='],
  markers: ['<function name=', '</function>', '<param name=', '</param>', '<arguments>', '</arguments>'],
  section: null,
  bare: true,
  call: { kind: 'tag', tag: attrTag('<function', '</function>') },
  args: { kind: 'tags', tag: attrTag('<param', '</param>'), wrapper: { open: '<arguments>', close: '</arguments>' }, closeOptional: false, wrapperKeys: ['arguments', 'properties'] },
  // A JSON object body instead of `<param>` tags (`<function name="N">{…}</function>`, which
  // llama.cpp's Hermes 2 Pro reader also takes).
  jsonBody: { open: [''], close: [] },
  values: { ...STRIP, cdata: true },
};

/** Kimi K3 XTML: `<|open|>call tool="N"<|sep|>` + typed arguments or one JSON block. */
export const KIMI_K3: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'kimi-k3',
  family: 'param-markup',
  openers: ['<|open|>tools<|sep|>', '<|open|>call '],
  markers: ['<|open|>tools<|sep|>', '<|close|>tools<|sep|>', '<|open|>call', '<|close|>call<|sep|>', '<|open|>argument', '<|close|>argument<|sep|>', '<|open|>json', '<|close|>json<|sep|>'],
  section: { open: ['<|open|>tools<|sep|>'], close: ['<|close|>tools<|sep|>'] },
  bare: true,
  call: { kind: 'tag', tag: attrTag('<|open|>call', '<|close|>call<|sep|>', 'tool', '<|sep|>') },
  args: tagArgs(attrTag('<|open|>argument', '<|close|>argument<|sep|>', 'key', '<|sep|>')),
  jsonBody: { open: ['<|open|>json type="object"<|sep|>', '<|open|>json<|sep|>'], close: ['<|close|>json<|sep|>'] },
  // The template writes a value raw and byte-exact (`type="string"` is kept as written); other types are JSON.
  values: { ...STRIP, whitespace: 'exact', typeAttribute: { name: 'type', form: 'type-name' } },
};

/**
 * Muse Glimmer ATEM: `<|start|>assistant to=R<|message|><atem:function_calls>…</atem:function_calls><|eom|>`
 * (also `<|start|>to=R`); values JSON, else text. The template's generation prompt is
 * `<|start|>assistant`, so a response begins mid-header, at ` to=R<|message|>`. A message to
 * `user` is the answer (markup quoted in it is text), to `self` reasoning, to a tool its calls.
 */
export const MUSE_GLIMMER: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'muse-glimmer',
  family: 'param-markup',
  openers: ['<|start|>to=', '<|start|>assistant to=', '<atem:function_calls>'],
  responseOpeners: ['to='],
  markers: ['<|start|>to=', '<|start|>assistant to=', '<|message|>', '<|eom|>', '<|eot|>', '<atem:function_calls>', '</atem:function_calls>', '<atem:invoke', '</atem:invoke>', '<atem:parameter', '</atem:parameter>'],
  section: { open: ['<atem:function_calls>'], close: ['</atem:function_calls>'] },
  call: { kind: 'tag', tag: attrTag('<atem:invoke', '</atem:invoke>') },
  args: tagArgs(attrTag('<atem:parameter', '</atem:parameter>')),
  values: { ...STRIP, typing: 'json-else-text' },
  envelope: {
    open: ['<|start|>assistant to=', '<|start|>to='],
    responseOpen: ['to='],
    headEnd: '<|message|>',
    close: ['<|eom|>', '<|eot|>'],
    proseRecipients: ['user'],
    reasoningRecipients: ['self'],
  },
};

const MINIMAX_TOKEN = ']<]minimax[>[';

/**
 * MiniMax M3: the namespace token may stand before any tag (not always on every one); the
 * parameter name is the tag name, nested objects are nested tags, arrays repeated `<item>`.
 */
export const MINIMAX_M3: ParamMarkupGrammar = {
  ...PLAIN,
  id: 'minimax-m3',
  family: 'param-markup',
  openers: [MINIMAX_TOKEN, '<tool_call>'],
  markers: [MINIMAX_TOKEN, '<tool_call>', '</tool_call>', '<invoke', '</invoke>'],
  section: { open: ['<tool_call>'], close: ['</tool_call>'] },
  bare: true,
  call: { kind: 'tag', tag: INVOKE },
  args: { kind: 'named-tags', listItem: 'item', foreignArgs: ['<parameter '] },
  values: { ...STRIP, nullWords: ['null', 'Null', 'NULL'] },
  tagToken: MINIMAX_TOKEN,
};

/**
 * In detection order. Records sharing an opener (`<tool_call>`: Qwen3-Coder, then GLM) are
 * tried in this order; each leaves a body that is not its own to the next.
 */
export const PARAM_MARKUP_GRAMMARS: readonly ParamMarkupGrammar[] = [
  STEP_3,
  DEEPSEEK_DSML,
  DEEPSEEK_V4_1,
  GIGACHAT_GCML,
  KIMI_K3,
  K2_HORIZON,
  SOLAR_OPEN2,
  MUSE_GLIMMER,
  MINIMAX_M2,
  TOOL_CALL_NAMED,
  SEED_OSS,
  STEP_DEEPRESEARCH,
  IQUEST,
  IQUEST_CODER_V2,
  LONGCAT_PAIRS,
  DOTS,
  QWEN3_CODER,
  MINIMAX_M3,
  TOOL_CALL_INVOKE,
  GLM,
  HUNYUAN,
  ANTHROPIC_XML,
  TOOL_CALLS_INVOKE,
  MINICPM_5,
];
