/**
 * Renderers of the grammars with their own value syntax: the Gemma value grammar (unquoted keys,
 * delimited verbatim strings) and pythonic calls (keyword arguments, Python literals).
 */
import { gemmaValue, pythonKeywords, spacedJson, type Call, type Renderer } from './values.js';

const pyCall = (call: Call): string => `${call.name}(${pythonKeywords(call.arguments)})`;

const pyList = (open: string, close: string): Renderer => (calls, opts = {}) =>
  `${open}[${calls.map(pyCall).join(', ')}]${opts.unclosed === true ? '' : close}`;

const gemma = (open: string, close: string, quote: string): Renderer => (calls, opts = {}) =>
  calls.map((call, i) => `${open}call:${call.name}${gemmaValue(call.arguments, quote)}${opts.unclosed === true && i === calls.length - 1 ? '' : close}`).join('');

export const VALUE_RENDERERS: Record<string, Renderer> = {
  'gemma-4': gemma('<|tool_call>', '<tool_call|>', '<|"|>'),
  functiongemma: gemma('<start_function_call>', '<end_function_call>', '<escape>'),
  'llama4-pythonic': pyList('<|python_start|>', '<|python_end|>'),
  lfm2: pyList('<|tool_call_start|>', '<|tool_call_end|>'),
  'olmo3-pythonic': (calls, opts = {}) => `<function_calls>\n${calls.map(pyCall).join('\n')}${opts.unclosed === true ? '' : '\n</function_calls>'}`,
};

/** Section 3: the look-alikes, as they stand in plain prose. */
export const LOOKALIKE_RENDERERS: Record<string, Renderer> = {
  'bare-json': (calls) => calls.map((call) => spacedJson({ name: call.name, arguments: call.arguments })).join('\n'),
  'bare-json-parameters': (calls) => calls.map((call) => spacedJson({ name: call.name, parameters: call.arguments })).join('\n'),
  'name-keyed-json': (calls) => calls.map((call) => spacedJson({ [call.name]: call.arguments })).join('\n'),
  'bare-pythonic': (calls) => `[${calls.map(pyCall).join(', ')}]`,
  xlam: (calls) => spacedJson(calls.map((call) => ({ name: call.name, arguments: call.arguments }))),
  'llamacpp-generic': (calls) =>
    calls.length === 1 && calls[0] !== undefined
      ? spacedJson({ tool_call: { name: calls[0].name, arguments: calls[0].arguments } })
      : spacedJson({ tool_calls: calls.map((call, i) => ({ name: call.name, arguments: call.arguments, id: `call_${i + 1}` })) }),
};
