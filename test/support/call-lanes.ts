/**
 * One response per lane that can credit a call, with `NAME` standing for the tool name and
 * `"path": "a"` for the arguments (the unknown-name matrix and the boundary-refusal tests).
 */
export const CALL_LANES: Readonly<Record<string, string>> = {
  'tagged bare call': '<tool_call>NAME({"path": "a"})</tool_call>',
  'tagged JSON object': '<tool_call>{"name": "NAME", "arguments": {"path": "a"}}</tool_call>',
  'unclosed tagged call': '<tool_call>NAME({"path": "a"})',
  'tool fence (JSON lane)': '```tool\n{"name": "NAME", "args": {"path": "a"}}\n```',
  'json fence drift': '```json\n{"name": "NAME", "arguments": {"path": "a"}}\n```',
  'function markup': '<function=NAME><parameter=path>a</parameter></function>',
  'invoke markup': '<invoke name="NAME"><parameter name="path">a</parameter></invoke>',
  'angle call': '<NAME({"path": "a"})>',
  'tool_calls envelope': '<tool_calls>[{"name": "NAME", "arguments": {"path": "a"}}]</tool_calls>',
  'tool_calls marker envelope': '<tool_calls>\n<tool>\n{"name": "NAME", "path": "a"}\n</tool>\n</tool_calls>',
  'tool_calls XML envelope': '<tool_calls><NAME><path>a</path></NAME></tool_calls>',
  'tool_use envelope': '<tool_use>{"name": "NAME", "input": {"path": "a"}}</tool_use>',
  'tool_use envelope, tagged body': '<tool_use>NAME({"path": "a"})</tool_use>',
  'mistral JSON': '[TOOL_CALLS][{"name": "NAME", "arguments": {"path": "a"}}]',
  'mistral marker': '[TOOL_CALLS]NAME[ARGS]{"path": "a"}',
  'deepseek DSML':
    '<｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter name="path" string="true">a</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>',
  'native JSON list': '[{"type": "function", "function": {"name": "NAME", "arguments": "{\\"path\\": \\"a\\"}"}}]',
  'native JSON object': '{"name": "NAME", "arguments": {"path": "a"}}',
  'stray bare call': 'Reading it.\nNAME({"path": "a"})',
  'fenced bare call': 'Reading it.\n```\nNAME({"path": "a"})\n```',
  'kimi section (field lane)':
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{"path": "a"}<|tool_call_end|><|tool_calls_section_end|>',
  'kimi section, end markers missing': '<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{"path": "a"}',
  'harmony frame': '<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{"path": "a"}<|call|>',
};
