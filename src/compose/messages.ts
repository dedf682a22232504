/**
 * Model-facing texts of the walk. Consumers branch on the violation `kind` and on the
 * machine-matched prefixes of `MACHINE_PREFIXES`; the wording itself is ours.
 *
 * Two tables keyed by profile: `harn` words every message as the reference runtime does (the
 * conformance vectors pin it byte for byte); `gateway` says what happened and what was read,
 * in the grammar the model used or neutrally, and never tells a model to switch grammars.
 */
import { CALL_SHAPES, DIALECTS } from '../dialects/vocabulary.js';
import type { Profile } from './context.js';
import { MACHINE_PREFIXES } from './diagnostics.js';

export const CANONICAL_TAGS = '<tool_call>, <assistant_prose>, <user_response> and <done>';

/** The call syntax a route taught, as other messages quote it. */
export function callSyntax(toolFormat: string): string {
  if (toolFormat === 'native') return CALL_SHAPES.native.call_syntax;
  if (toolFormat === 'json') return 'a ```tool fence holding one JSON object with `name` and `args` keys';
  return CALL_SHAPES.text.call_syntax;
}

/** The call syntax with a tool's name filled in (falls back to `callSyntax` for an empty name). */
export function callSyntaxNamed(toolFormat: string, name: string): string {
  if (name === '') return callSyntax(toolFormat);
  if (toolFormat === 'native') return `a native tool call to \`${name}\` on the provider's tool channel`;
  if (toolFormat === 'json') return `a \`\`\`tool fence holding \`{"name": "${name}", "args": { ... }}\``;
  return `\`<tool_call>${name}({ ... })</tool_call>\``;
}

/** The `harn` wording (the reference runtime's). */
export const messages = {
  adaptiveRefused: '`tool_format=adaptive` has no parser. Use `json` (```tool fenced JSON), `text` (`<tool_call>` blocks) or `native` (the provider tool channel).',
  strayText: (fragment: string) =>
    `Text outside the response tags: ${JSON.stringify(fragment)}. Put prose inside <assistant_prose>...</assistant_prose> or <user_response>...</user_response> and each tool call inside <tool_call>...</tool_call>.`,
  unknownTag: (raw: string) =>
    `The top-level tag ${JSON.stringify(raw)} is not part of the response protocol; only ${CANONICAL_TAGS} are accepted.`,
  unclosedResponse: (spelling: string) =>
    `<${spelling}> was opened and never closed. Close it with </${spelling}> or remove it; only ${CANONICAL_TAGS} are accepted.`,
  emptyDone: `<done> arrived empty. Put the done sentinel (by default \`${DIALECTS.DEFAULT_DONE_SENTINEL}\`) inside the block.`,
  unclosedCallRecovered: 'A `<tool_call>` block was never closed; its call was recovered. End every block with `</tool_call>`.',
  angleCallRecovered: 'An angle-wrapped call `<name(...)>` was recovered; put calls inside <tool_call>...</tool_call>.',
  markupRecovered: (name: string, toolFormat: string) =>
    `The call to \`${name}\` arrived as chat-template function markup instead of ${callSyntaxNamed(toolFormat, name)}. It ran this turn; use the canonical form from now on.`,
  envelopeRecovered: (toolFormat: string) =>
    `A call was recovered from a chat-template envelope. Write each call as ${callSyntax(toolFormat)} from the next turn on.`,
  fenceRecovered: 'A call was recovered from a ```tool fence while `tool_format` is `text`; it ran this turn, but put it inside <tool_call>...</tool_call> next turn.',
  fenceNotDispatched: (alreadyCalled: boolean) =>
    `A \`\`\`tool fence appeared while \`tool_format\` is \`text\` and did not run ${alreadyCalled ? 'because the turn already made a call in the taught grammar' : 'because its body is not a readable tool call'}; put calls inside <tool_call>...</tool_call>.`,
  callBlockFailed: 'the <tool_call> block did not parse',
  markupFailed: 'the function markup did not parse',
  truncatedWithHead: (head: string) =>
    `${MACHINE_PREFIXES.truncated} the <tool_call> block opening \`${head}(...)\` never closed, so the response was probably cut off mid-call (often the output token limit). Re-emit the whole \`<tool_call>${head}({ ... })</tool_call>\` block; split very large arguments over several calls.`,
  truncatedNoHead: `${MACHINE_PREFIXES.truncated} a <tool_call> block was opened and never closed, so the response was probably cut off mid-call.`,
  unparsedToolSyntax: (toolFormat: string, excerpt: string) =>
    `${MACHINE_PREFIXES.unparsed_tool_syntax} this text looks like a tool call but was not read as one, so nothing ran. Write every call as ${callSyntax(toolFormat)}. Fragment: ${excerpt}`,
  missingRequired: (tool: string, params: readonly string[]) =>
    `Tool '${tool}' was called without its required argument${params.length === 1 ? '' : 's'} ${params.map((p) => `\`${p}\``).join(', ')}.`,
} as const;

type WalkMessages = { readonly [K in keyof typeof messages]: (typeof messages)[K] extends string ? string : (typeof messages)[K] };

const gatewayMessages: WalkMessages = {
  ...messages,
  adaptiveRefused: '`tool_format=adaptive` has no parser; the supported values are `json`, `text`, `native` and `""`.',
  strayText: (fragment: string) => `Text outside the response tags: ${JSON.stringify(fragment)}.`,
  unknownTag: (raw: string) => `The top-level tag ${JSON.stringify(raw)} is not a response tag this parser recognises.`,
  unclosedResponse: (spelling: string) => `<${spelling}> was opened and never closed before the response ended.`,
  unclosedCallRecovered: 'A `<tool_call>` block was never closed; its call was read up to the end of the response.',
  angleCallRecovered: 'A call written as an angle-wrapped `<name(...)>` expression was read.',
  markupRecovered: (name: string) => `A call to \`${name}\` was read from chat-template function markup.`,
  envelopeRecovered: () => 'A call was read from a chat-template tool-call envelope.',
  fenceRecovered: 'A call was read from a fenced ```tool block.',
  fenceNotDispatched: (alreadyCalled: boolean) =>
    `A fenced \`\`\`tool block did not run ${alreadyCalled ? 'because the turn already made its calls elsewhere in the response' : 'because its body is not a readable tool call'}.`,
  unparsedToolSyntax: (_toolFormat: string, excerpt: string) =>
    `${MACHINE_PREFIXES.unparsed_tool_syntax} this text looks like a tool call but was not read as one, so nothing ran. Fragment: ${excerpt}`,
};

const walkMessagesByProfile: Record<Profile, WalkMessages> = { gateway: gatewayMessages, harn: messages };

/** The walk's messages for a profile; an absent profile reads as `harn`, as the rest of the context does. */
export function messagesFor(profile: Profile | undefined): WalkMessages {
  return walkMessagesByProfile[profile ?? 'harn'];
}
