/**
 * Renderers of the grammars that carry each argument as raw text between tags (sections 1, 2,
 * 7): the value's type comes from the tool's schema, or from an in-band type attribute
 * (`type=`, `string="true|false"`), as each grammar does.
 */
import { attrEscape, framed, rawText, spacedJson, typeName, xmlEscape, type Call, type Json, type Renderer } from './values.js';

type ParamWriter = (key: string, value: Json) => string;

/** A section of invokes: open, per call head + one piece per argument + tail, close. */
function invokes(open: string, close: string, join: string, head: (call: Call, i: number) => string, param: ParamWriter, tail: string): Renderer {
  return framed({
    open,
    close,
    join,
    call: (call, i) => ({
      head: head(call, i),
      body: Object.entries(call.arguments)
        .map(([key, value]) => param(key, value))
        .join(''),
      tail,
    }),
  });
}

/** `string="true"` carries raw text, `string="false"` JSON (DSML, GCML). */
const stringFlag = (value: Json): string => (typeof value === 'string' ? 'true' : 'false');

const qwenCoder = (open: string, close: string): Renderer =>
  invokes('', '', '\n', (call) => `${open}\n<function=${call.name}>\n`, (k, v) => `<parameter=${k}>\n${rawText(v)}\n</parameter>\n`, `</function>\n${close}`);

const dsml = (space: string, block: string): Renderer => {
  const o = `<｜DSML｜${space}`;
  const c = `</｜DSML｜${space}`;
  return invokes(
    `${o}${block}>\n`,
    `${c}${block}>`,
    '',
    (call) => `${o}invoke name="${attrEscape(call.name)}">\n`,
    (k, v) => `${o}parameter name="${attrEscape(k)}" string="${stringFlag(v)}">${rawText(v)}${c}parameter>\n`,
    `${c}invoke>\n`,
  );
};

const MINIMAX_NS = ']<]minimax[>[';

/** MiniMax M3: the parameter name is the tag; objects nest, arrays repeat `<item>`. */
function minimaxM3Value(value: Json): string {
  if (Array.isArray(value)) return value.map((item) => `${MINIMAX_NS}<item>${minimaxM3Value(item)}${MINIMAX_NS}</item>`).join('');
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, item]) => `${MINIMAX_NS}<${key}>${minimaxM3Value(item)}${MINIMAX_NS}</${key}>`)
      .join('');
  }
  return rawText(value);
}

const argKeyValue = (suffix: string, between = ''): ParamWriter => (k, v) =>
  `<arg_key${suffix}>${k}</arg_key${suffix}>${between}<arg_value${suffix}>${rawText(v)}</arg_value${suffix}>`;

const HY3 = ':opensource';
const HY4 = ':6124c78e';

export const MARKUP_RENDERERS: Record<string, Renderer> = {
  'qwen3-coder': qwenCoder('<tool_call>', '</tool_call>'),
  'qwen3.5': qwenCoder('<tool_call>', '</tool_call>'),
  'seed-oss': qwenCoder('<seed:tool_call>', '</seed:tool_call>'),
  'glm-4.5': invokes('', '', '\n', (call) => `<tool_call>${call.name}\n`, (k, v) => `${argKeyValue('', '\n')(k, v)}\n`, '</tool_call>'),
  'glm-4.7': invokes('', '', '', (call) => `<tool_call>${call.name}`, argKeyValue(''), '</tool_call>'),
  'glm-body-ling': invokes('', '', '\n', (call) => `<tool_call>${call.name}`, (k, v) => `${argKeyValue('')(k, v)}\n`, '</tool_call>'),
  'iquest-q1': invokes('', '', '\n', (call) => `<iquest_tool_call>${call.name}`, argKeyValue(''), '</iquest_tool_call>'),
  'longcat-pairs': invokes('', '', '\n', (call) => `<longcat_tool_call>${call.name}\n`, (k, v) => `<longcat_arg_key>${k}</longcat_arg_key>\n<longcat_arg_value>${rawText(v)}</longcat_arg_value>\n`, '</longcat_tool_call>'),
  'iquest-coder-v2': invokes('', '', '\n', (call) => `<iquestcoder_tool_call>${call.name}`, argKeyValue(''), '</iquestcoder_tool_call>'),
  'anthropic-xml': invokes(
    '<function_calls>\n',
    '</function_calls>',
    '',
    (call) => `<invoke name="${attrEscape(call.name)}">\n`,
    (k, v) => `<parameter name="${attrEscape(k)}">${xmlEscape(rawText(v))}</parameter>\n`,
    '</invoke>\n',
  ),
  'minimax-m2': invokes(
    '<minimax:tool_call>\n',
    '</minimax:tool_call>',
    '',
    (call) => `<invoke name="${attrEscape(call.name)}">\n`,
    (k, v) => `<parameter name="${attrEscape(k)}">${rawText(v)}</parameter>\n`,
    '</invoke>\n',
  ),
  'step-3': invokes(
    '<｜tool_calls_begin｜>',
    '<｜tool_calls_end｜>',
    '',
    (call) => `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="${attrEscape(call.name)}">`,
    (k, v) => `<steptml:parameter name="${attrEscape(k)}">${rawText(v)}</steptml:parameter>`,
    '</steptml:invoke><｜tool_call_end｜>',
  ),
  'step-deepresearch': invokes(
    '<steptml:toolcall>\n',
    '</steptml:toolcall>',
    '',
    (call) => `<steptml:invoke name="${attrEscape(call.name)}">\n`,
    (k, v) => `<steptml:parameter name="${attrEscape(k)}">${rawText(v)}</steptml:parameter>\n`,
    '</steptml:invoke>\n',
  ),
  'deepseek-v3.2': dsml('', 'function_calls'),
  'deepseek-v4': dsml('', 'tool_calls'),
  'deepseek-v4.1': dsml(' ', 'calls'),
  'gigachat-3.5': invokes(
    '‹｜GCML｜tool_calls>\n',
    '‹/｜GCML｜tool_calls>',
    '',
    (call) => `‹｜GCML｜invoke name="${attrEscape(call.name)}">\n`,
    (k, v) => `‹｜GCML｜parameter name="${attrEscape(k)}" string="${stringFlag(v)}">${rawText(v)}‹/｜GCML｜parameter>\n`,
    '‹/｜GCML｜invoke>\n',
  ),
  'kimi-k3': invokes(
    '<|open|>tools<|sep|>',
    '<|close|>tools<|sep|>',
    '',
    (call, i) => `<|open|>call tool="${attrEscape(call.name)}" index="${i + 1}"<|sep|>`,
    (k, v) => `<|open|>argument key="${attrEscape(k)}" type="${typeName(v)}"<|sep|>${rawText(v)}<|close|>argument<|sep|>`,
    '<|close|>call<|sep|>',
  ),
  'minimax-m3': invokes(
    `${MINIMAX_NS}<tool_call>\n`,
    `${MINIMAX_NS}</tool_call>`,
    '',
    (call) => `${MINIMAX_NS}<invoke name="${attrEscape(call.name)}">\n`,
    (k, v) => `${MINIMAX_NS}<${k}>${minimaxM3Value(v)}${MINIMAX_NS}</${k}>\n`,
    `${MINIMAX_NS}</invoke>\n`,
  ),
  'hunyuan-hy3': invokes(`<tool_calls${HY3}>`, `</tool_calls${HY3}>`, '', (call) => `<tool_call${HY3}>${call.name}<tool_sep${HY3}>`, argKeyValue(HY3), `</tool_call${HY3}>`),
  'hunyuan-hy4': invokes(`<tool_calls${HY4}>`, `</tool_calls${HY4}>`, '', (call) => `<tool_call${HY4}>${call.name}`, argKeyValue(HY4), `</tool_call${HY4}>`),
  'solar-open2': invokes(
    '',
    '',
    '',
    (call) => `<|tool_call:start|>${call.name}\n`,
    (k, v) => `<|tool_arg:start|>${k}<|tool_arg:value|>${rawText(v)}<|tool_arg:end|>`,
    '<|tool_call:end|>',
  ),
  'k2-horizon': invokes(
    '<ifm|tool_calls>',
    '</ifm|tool_calls>',
    '',
    (call) => `<ifm|tool_call>${call.name}`,
    (k, v) => `<ifm|arg_key>${k}</ifm|arg_key><ifm|arg_value>${rawText(v)}</ifm|arg_value>`,
    '</ifm|tool_call>',
  ),
  dots: invokes(
    '<dots_function_call>',
    '</dots_function_call>',
    '',
    (call) => `<invoke name="${attrEscape(call.name)}">`,
    (k, v) => `<parameter name="${attrEscape(k)}">${rawText(v)}</parameter>`,
    '</invoke>',
  ),
  'minicpm-5': invokes('', '', '\n', (call) => `<function name="${attrEscape(call.name)}">`, (k, v) => `<param name="${attrEscape(k)}">${rawText(v)}</param>`, '</function>'),
  'muse-glimmer': invokes(
    '<|start|>to=functions<|message|><atem:function_calls>',
    '</atem:function_calls><|eom|>',
    '',
    (call) => `<atem:invoke name="${attrEscape(call.name)}">`,
    // Values are JSON first, raw text otherwise: a string that reads as JSON is written quoted.
    (k, v) => `<atem:parameter name="${attrEscape(k)}">${typeof v === 'string' && !readsAsJson(v) ? v : spacedJson(v)}</atem:parameter>`,
    '</atem:invoke>',
  ),
};

function readsAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
