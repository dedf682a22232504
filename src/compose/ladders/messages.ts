/**
 * Model-facing diagnostics of the recovery ladders. The wording is this project's own; the
 * fixed prefixes that downstream code matches (`TOOL CALL TRUNCATED: `, `<tool_call> body`,
 * `Unknown tool '…'`) are contract (docs/design.md, "Diagnostics") and must not change.
 *
 * Where the `harn` wording (the reference runtime's) points the model at another grammar, a
 * `…For(profile)` accessor gives the `gateway` wording, which only says what was not read.
 */

import type { Profile } from '../context.js';
import { MACHINE_PREFIXES } from '../diagnostics.js';

/** Downstream code matches this prefix to classify a cut-off response (catalogued in diagnostics.ts). */
export const TRUNCATED_PREFIX = `${MACHINE_PREFIXES.truncated} `;

/** Quoted the way the model wrote it: JSON string syntax, so newlines and quotes stay visible. */
const quote = (text: string): string => JSON.stringify(text);

/** `[a, b, c]` — the sorted registry names, optionally capped. */
export function toolList(names: readonly string[], cap?: number): string {
  const shown = cap === undefined ? names : names.slice(0, cap);
  return `[${shown.join(', ')}]`;
}

/** Markup and nested-XML diagnostics list at most this many names. */
export const SHORT_TOOL_LIST = 20;

export const bodyMessages = {
  noCallExpression: (body: string): string =>
    `<tool_call> body did not contain a bare \`name({ ... })\` expression. Got: ${quote(body)}`,
  /** Gateway only: a block that begins with a registered tool's name and holds no arguments that read. */
  unreadCall: (name: string, body: string): string =>
    `<tool_call> body names the tool '${name}' but holds no arguments that could be read, so it did not run. Got: ${quote(body)}`,
  /** Gateway only: a block whose body is call markup or a call object that no rung read (a template's line breaks written as `\\n`). */
  unreadSyntax: (body: string): string =>
    `<tool_call> body holds tool-call syntax that could not be read, so nothing ran. Got: ${quote(body)}`,
  severalCalls: (count: number): string =>
    `<tool_call> body contained ${count} calls; write exactly one call in each <tool_call> block.`,
  defaultFailure: 'tool-call parse failed',
} as const;

export const truncatedMessages = {
  unclosedWithHead: (head: string): string =>
    `${TRUNCATED_PREFIX}the \`<tool_call>\` block opening \`${head}(...)\` never reached \`</tool_call>\`; the output seems to have stopped mid-call (often the output token limit). ` +
    `Send the whole \`<tool_call>${head}({ ... })</tool_call>\` block again, and split very large arguments across several smaller calls.`,
  unclosedWithoutHead: (): string =>
    `${TRUNCATED_PREFIX}a \`<tool_call>\` block was opened and never closed; the output seems to have stopped mid-call.`,
} as const;

export const recoveredMessages = {
  unclosedBlock:
    'Recovered a tool call from a `<tool_call>` block that was never closed. Close every block with `</tool_call>`.',
} as const;

export const markupMessages = {
  openTagUnclosed: (subject: string): string =>
    `${TRUNCATED_PREFIX}${subject} open tag never reached its closing \`>\`; the output seems to have been cut off. Nothing was executed; send the complete call again.`,
  unknownTool: (name: string, label: string, names: readonly string[]): string =>
    `Unknown tool '${name}' in chat-template ${label} tool-call markup. Available tools: ${toolList(names, SHORT_TOOL_LIST)}`,
  parameterUnclosed: (label: string, name: string): string =>
    `${TRUNCATED_PREFIX}a \`<parameter ...>\` block in the ${label} markup for \`${name}\` never reached \`</parameter>\`; the output seems to have been cut off. Nothing was executed; send the complete call again.`,
  severalCalls: (label: string, name: string): string =>
    `The ${label} markup block for \`${name}\` held more than one call; write exactly one call in each <tool_call> block.`,
  jsonUnclosed: (label: string, name: string): string =>
    `${TRUNCATED_PREFIX}the JSON arguments object in the ${label} markup for \`${name}\` never closed; the output seems to have been cut off. Nothing was executed; send the complete call again.`,
  jsonInvalid: (label: string, name: string, error: string): string =>
    `The ${label} markup for \`${name}\` carried a JSON arguments object that is not valid JSON: ${error}. Nothing was executed.`,
  jsonNotObject: (label: string, name: string, value: unknown): string =>
    `JSON arguments for tool '${name}' in ${label} markup must be an object; got \`${JSON.stringify(value)}\`.`,
} as const;

export const nestedXmlMessages = {
  unknownTool: (name: string, names: readonly string[]): string =>
    `Unknown tool '${name}' in nested XML tool-call body. Available tools: ${toolList(names, SHORT_TOOL_LIST)}`,
  incomplete: (name: string): string =>
    `<tool_call><${name}> body did not hold a complete JSON object. Write \`<tool_call>${name}({ ... })</tool_call>\` instead.`,
  invalid: (name: string, error: string): string =>
    `<tool_call><${name}> body is not a valid JSON object: ${error}. Write \`<tool_call>${name}({ ... })</tool_call>\` instead.`,
  notObject: (name: string, value: unknown): string =>
    `Nested XML arguments for tool '${name}' must be a JSON object; got \`${JSON.stringify(value)}\`.`,
} as const;

export const jsonBodyMessages = {
  invalid: (error: string): string =>
    `<tool_call> body looked like JSON but is not valid JSON: ${error}. Write either \`name({ ... })\` or JSON with \`name\` and \`arguments\`.`,
  severalCalls: (count: number): string =>
    `<tool_call> JSON array held ${count} calls; write exactly one call in each <tool_call> block.`,
  notObject: (value: unknown): string =>
    `<tool_call> JSON body must be an object; got \`${JSON.stringify(value)}\`.`,
  missingName: '<tool_call> JSON body did not name a tool',
  unknownTool: (name: string, names: readonly string[]): string =>
    `Unknown tool '${name}'. Available tools: ${toolList(names)}`,
  argumentsStringInvalid: (name: string, error: string): string =>
    `Could not parse JSON string arguments for tool '${name}': ${error}`,
  argumentsNotObject: (name: string, value: unknown): string =>
    `Tool '${name}' arguments must be a JSON object; got \`${JSON.stringify(value)}\`.`,
} as const;

type Table<T> = { readonly [K in keyof T]: T[K] extends string ? string : T[K] };

/** The table for a profile; an absent profile reads as `harn`, as the rest of the context does. */
function byProfile<T>(harn: T, gateway: Table<T>): (profile: Profile | undefined) => Table<T> {
  return (profile) => (profile === 'gateway' ? gateway : (harn as Table<T>));
}

export const markupMessagesFor = byProfile(markupMessages, {
  ...markupMessages,
  severalCalls: (label: string, name: string): string => `The ${label} markup block for \`${name}\` held more than one call, so the block was not read as a call.`,
});

export const nestedXmlMessagesFor = byProfile(nestedXmlMessages, {
  ...nestedXmlMessages,
  incomplete: (name: string): string => `<tool_call><${name}> body did not hold a complete JSON object.`,
  invalid: (name: string, error: string): string => `<tool_call><${name}> body is not a valid JSON object: ${error}.`,
});

export const jsonBodyMessagesFor = byProfile(jsonBodyMessages, {
  ...jsonBodyMessages,
  invalid: (error: string): string => `<tool_call> body looked like JSON but is not valid JSON: ${error}.`,
});
