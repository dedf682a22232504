/**
 * Texts that reach every model-facing message site of the composer (walk, lanes, ladders, the
 * tool-shape detector), for the test that checks the `gateway` wording never steers a grammar.
 */
const D = '<\uff5cDSML\uff5c';
const DC = '</\uff5cDSML\uff5c';

export const MESSAGE_TOOLS = [
  { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'run', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
];

export const MESSAGE_CORPUS: Readonly<Record<string, string>> = {
  markup: '<function=look>\n<parameter=path>a.txt</parameter>\n</function>',
  markupSeveral: '<function=look>\n<parameter=path>a.txt</parameter>\n<function=run>\n<parameter=command>ls</parameter>\n</function>',
  markupInvoke: '<invoke name="look">\n<parameter name="path">a.txt</parameter>\n</invoke>',
  envelope: '<tool_calls>[{"name": "look", "arguments": {"path": "a.txt"}}]</tool_calls>',
  envelopeTool: '```\n<tool>\nlook({ path: "a.txt" })\n</tool>\n```',
  envelopeMalformed: '<tool_calls>[{"name": "look", "arguments": 7}]</tool_calls>',
  fence: 'Reading it.\n```tool\n{"name": "look", "args": {"path": "a.txt"}}\n```',
  fenceUnreadable: 'Reading it.\n```tool\nnot a call at all\n```',
  fenceAfterCall: '<tool_call>look({"path": "a.txt"})</tool_call>\n```tool\n{"name": "run", "args": {"command": "ls"}}\n```',
  fenceDialect: '```json\n{"name": "look", "args": {"path": "a.txt"}}\n```',
  bareJson: '{"name": "look", "args": {"path": "a.txt"}}',
  bareCall: 'look({"path": "a.txt"})',
  bareCallWithTag: 'run({ command: "echo <x>" })',
  tagged: '<tool_call>look({"path": "a.txt"})</tool_call>',
  taggedUnreadable: '<tool_call>not a call</tool_call>',
  taggedJsonObjects: '<tool_call>\n{"name": "look", "args": {"path": "a.txt"}}\n{"name": "run", "args": {"command": "ls"}}\n</tool_call>',
  mistral: 'Looking.[TOOL_CALLS]look[ARGS]{"path": "a.txt"}',
  mistralBad: '[TOOL_CALLS]look[ARGS]{"path": ',
  dsml: `${D}function_calls>\n${D}invoke name="look">\n${D}parameter name="path" string="true">a.txt${DC}parameter>\n${DC}invoke>\n${DC}function_calls>`,
  dsmlTruncated: `${D}function_calls>\n${D}invoke name="look">\n${D}parameter name="path" string="true">a.txt`,
  strayText: '<assistant_prose>hi</assistant_prose>\nloose words </user_response>',
  strayClose: '<assistant_prose>hi</assistant_prose></nothing>',
  unknownTag: '<thought>hmm</thought>',
  unclosedResponse: '<assistant_prose>hi\n<tool_call>look({"path": "a.txt"})</tool_call>',
  unclosedBlock: '<tool_call>look({"path": "a.txt"})',
  truncated: '<tool_call>look({"path": "a.t',
  angle: '<look({"path": "a.txt"})>',
  nestedXml: '<tool_call><look>{"path": </look></tool_call>',
  nestedXmlInvalid: '<tool_call><look>{"path" 1}</look></tool_call>',
  jsonBodyInvalid: '<tool_call>{"name": "look", "arguments": {"path" 1}}</tool_call>',
  toolShape: 'I would call {"name": "look", "arguments": {"path": "a.txt"}} now.',
  toolShapeMarkup: 'Plan: <invoke name="look"> and more',
  emptyDone: '<done></done>',
  missingRequired: '<tool_call>look({})</tool_call>',
  jsonUnterminated: '```tool\n{"name": "look", "args": {"path": "a.txt"',
};
