/**
 * Model-facing texts of the field grammars. They describe what went wrong in the grammar the
 * model used, or neutrally; they never tell a model to switch grammars. Consumers branch on
 * violation kinds and on `MACHINE_PREFIXES`, never on the wording.
 */
import { MACHINE_PREFIXES } from '../diagnostics.js';

function listNames(names: readonly string[]): string {
  return names.length === 0 ? 'none' : names.join(', ');
}

export const fieldMessages = {
  unknownTool: (name: string, grammar: string, registered: readonly string[]) =>
    `Unknown tool '${name}' in a ${grammar} call. Registered tools: ${listNames(registered)}.`,
  missingName: (grammar: string) => `A ${grammar} call has no tool name.`,
  truncated: (grammar: string, name: string) =>
    `${MACHINE_PREFIXES.truncated} the ${grammar} call${name === '' ? '' : ` to '${name}'`} ended inside its arguments.`,
  badArguments: (grammar: string, name: string, detail: string) =>
    `${MACHINE_PREFIXES.parse_error}: the arguments of the ${grammar} call${name === '' ? '' : ` to '${name}'`} are not valid: ${detail}.`,
  argumentsNotObject: (grammar: string, name: string) =>
    `${MACHINE_PREFIXES.parse_error}: the arguments of the ${grammar} call to '${name}' are not an object.`,
  unreadable: (grammar: string, detail: string) => `${MACHINE_PREFIXES.parse_error}: ${grammar} call syntax that could not be read: ${detail}.`,
  valueNotTyped: (grammar: string, name: string, key: string, expected: readonly string[]) =>
    `The value of '${key}' in the ${grammar} call to '${name}' is not ${expected.length === 1 ? `a valid ${expected[0]}` : `any of ${expected.join(', ')}`} as its schema says; it was kept as text.`,
  argumentRepeated: (grammar: string, name: string | null, key: string) =>
    `The ${grammar} call${name === null ? '' : ` to '${name}'`} gives the argument '${key}' more than once; the last value was kept and the earlier one dropped.`,
  valueCloseMissing: (grammar: string, keys: readonly string[]) =>
    `In a ${grammar} call the value${keys.length === 1 ? '' : 's'} of ${keys.map((k) => `'${k}'`).join(', ')} had no closing marker; each was read up to the next argument or the call's close.`,
  valueCloseDoubled: (grammar: string, keys: readonly string[]) =>
    `In a ${grammar} call the closing marker of the value${keys.length === 1 ? '' : 's'} of ${keys.map((k) => `'${k}'`).join(', ')} was written twice; the second was read as a repeat, not as text of the value.`,
  strayValueClose: (grammar: string) =>
    `A ${grammar} call wrote a value's closing marker right after the tool's name, with no argument before it; it was stepped over.`,
  headerEndMissing: (grammar: string) =>
    `A ${grammar} call wrote a tool or argument name with no end to its tag; the name was read up to its line break.`,
  endMarkersMissing: (grammar: string) =>
    `A ${grammar} call ended without its closing marker; it was read with the arguments written before the text ended (a later argument may have been cut off).`,
  listCloseMissing: (grammar: string) => `A ${grammar} call list was closed without its \`]\`; the calls written in it were read.`,
  lateReasoningClose: (marker: string) =>
    `A reasoning close (${marker}) with no open stands after tool calls. If the chat template opened the reasoning block in the prompt, the calls and text before it were written inside reasoning, yet they were read as the answer: pass reasoning_started for such a template.`,
  foreignTurn: (token: string) =>
    `The response ran on past the end of its turn into another role's turn (${token}): the model wrote on as a tool's result or a user's message because generation did not stop at its end token. That text was dropped, and no call in it was read.`,
  callInReasoning: (grammar: string, marker: string) =>
    `Tool-call markup (${marker}) stands inside a ${grammar} reasoning block; it was kept as reasoning and did not run. A call runs only after the reasoning block has closed.`,
} as const;
