/**
 * Model-facing texts of the lanes in this directory. The wording is ours; what other code
 * matches on is kept stable: the violation `kind`, the `protocol_violation:` prefix, and the
 * leading forms listed in docs/design.md, "Diagnostics" (`The ```tool block is not valid JSON:`,
 * `Unterminated ```tool fence`, `The `<tool_calls>` chat-template envelope is malformed:`).
 *
 * Two tables keyed by profile: `harn` is the reference runtime's wording (pinned by the
 * conformance vectors); `gateway` says what was read and never tells a model to switch grammars.
 */
import { CALL_SHAPES } from '../../dialects/vocabulary.js';
import type { Profile } from '../context.js';

const TOOL_FENCE_SHAPE = '`{ "name": ..., "args": { ... } }`';

/** How the model should carry a long or multi-line value in the JSON grammar (the verbatim heredoc). */
const JSON_ERROR_HINT =
  'Do not hand-escape long or multi-line values: write the value as "<<BODY", then put the raw text after the JSON object inside the same ```tool fence and end it with a line that is exactly BODY. Keep short values as ordinary JSON strings (\\n for a newline, \\" for a quote, \\\\ for a backslash; backticks are fine as they are).';

/** The `harn` wording (the reference runtime's). */
export const laneMessages = {
  // --- json_call
  fenceEntryNotObject: `A \`\`\`tool block must contain one or more JSON objects ${TOOL_FENCE_SHAPE}, one object per call; arrays, scalars and other non-object entries are rejected.`,
  fenceMissingName: `The \`\`\`tool JSON object is missing a non-empty string \`name\`; write it as ${TOOL_FENCE_SHAPE}.`,
  fenceArgsNotObject: 'The `args` field of a ```tool object must be a JSON object (`{ ... }`); leave it out when the tool takes no arguments.',
  argumentsStringInvalid: (name: string, error: string) => `Tool \`${name}\` arguments string is invalid JSON: ${error}`,

  // --- JSON lane
  jsonError: (detail: string) => `The \`\`\`tool block is not valid JSON: ${detail}. ${JSON_ERROR_HINT}`,
  noObject: 'the block holds no JSON object',
  near: (detail: string, source: string) => `${detail} (near \`${source}\`)`,
  unterminated:
    'Unterminated ```tool fence opened on line 1 (1-based): output ended inside an incomplete JSON object, so nothing in it ran. Re-emit the whole call in a ```tool ... ``` block closed by a line that is exactly ```.',
  fenceDialect: (fence: string) =>
    `protocol_violation: a tool call arrived in a ${fence} fence, but the contract is a bare \`\`\`tool fence. It ran this turn; use \`\`\`tool from now on.`,
  bareJson: `protocol_violation: a tool call arrived as a bare JSON object; the contract wraps each ${TOOL_FENCE_SHAPE} object in a \`\`\`tool fence. It ran this turn; use \`\`\`tool from now on.`,
  bareCallOnJsonPin: (name: string) =>
    `protocol_violation: \`${name}({ ... })\` arrived as a bare call expression while \`tool_format\` is \`json\`; it did NOT run. Re-emit it as a strict JSON object inside a \`\`\`tool fence.`,
  taggedOnJsonRecovered:
    'Recovered `<tool_call>...</tool_call>` markup while `tool_format` is `json`; it ran this turn, but from now on write each call as a strict JSON object inside a ```tool fence.',
  taggedOnJsonLost:
    'protocol_violation: `<tool_call>...</tool_call>` markup arrived while `tool_format` is `json` and nothing ran; write each call as a strict JSON object inside a ```tool fence instead.',

  // --- verbatim binding
  verbatimUndeclared: (line: string) => `a verbatim heredoc \`${line}\` follows the JSON, but no argument value declares it`,
  verbatimCardinality: (opener: string, available: number, required: number) =>
    `verbatim declaration \`${opener}\` has ${available} matching bodies, expected ${required}`,
  verbatimUnmatched: (line: string) => `the trailing verbatim body \`${line}\` matches no argument declaration`,
  verbatimCountMismatch: (opener: string, tag: string) =>
    `verbatim body \`${opener}\` did not close on the line its \`:N\` count declared; recount the body lines, or drop the \`:N\` and close with a line that is exactly \`${tag}\``,
  verbatimNeverClosed: (tag: string) =>
    `verbatim body \`<<${tag}\` never closed; end it with a line that is exactly \`${tag}\`, or declare \`<<${tag}:N\` with N body lines when the body itself contains that line`,
  verbatimClosedEarly: (tag: string, leftover: string) =>
    `verbatim body \`<<${tag}\` closed early on a line that is exactly \`${tag}\`, leaving \`${leftover}\` unclaimed; when the body itself contains that line, declare \`<<${tag}:N\` with N body lines so it closes on the count`,
  verbatimBadCount: (opener: string, tag: string) =>
    `verbatim declaration \`${opener}\` gives a line count that is not a usable number; use \`<<${tag}\` and close the body with a line that is exactly \`${tag}\``,

  // --- envelopes
  envelopeMalformed: (detail: string) =>
    `The \`<tool_calls>\` chat-template envelope is malformed: ${detail}. None of its entries were executed; re-emit complete calls as canonical \`\`\`tool JSON blocks.`,
  envelopeOnJsonPin:
    'protocol_violation: a tool call arrived in a chat-template tool envelope while `tool_format` is `json`; it ran this turn, but emit canonical ```tool JSON blocks from now on.',
  envelopeEntryNotObject: 'each chat-template tool entry must be a JSON object',
  envelopeMissingName: 'a JSON tool object was missing a non-empty name',
  envelopeArgsString: (error: string) => `arguments string did not parse: ${error}`,
  envelopeArgsNotObject: 'arguments must be a JSON object',
  envelopeObjectUnclosed: 'a JSON tool object ended before its closing `}`',
  envelopeObjectInvalid: (error: string) => `a JSON tool object did not parse: ${error}`,
  envelopeExpectedObject: (found: string) => `expected a JSON tool object, found \`${found}\``,
  envelopeMarkerTwice: 'a `<tool>` marker must be followed by a JSON object before another `<tool>` marker',
  envelopeUnmatchedClose: 'found an unmatched `</tool>` close without a preceding `<tool>` marker',
  envelopeObjectWithoutMarker: 'expected a `<tool>` marker before this JSON object',
  envelopeNoMarker: 'the envelope contained no `<tool>` marker',
  envelopeMarkerUnfinished: 'a `<tool>` marker ended without a complete JSON object',
  envelopeExpectedCallTag: (found: string) => `expected a tool-call tag inside \`<tool_calls>\`, found \`${found}\``,
  envelopeExpectedArgTag: (call: string, found: string) => `expected an argument tag inside \`<${call}>\`, found \`${found}\``,
  envelopeDuplicateArg: (call: string, key: string) =>
    `the \`<${call}>\` call repeated the \`<${key}>\` argument, and a call with an ambiguous duplicate argument is not executed`,
  envelopeArgUnclosed: (key: string) => `the \`<${key}>\` argument tag was not closed with \`</${key}>\` before end of output`,
  envelopeCallUnclosed: (call: string) => `the \`<${call}>\` call tag was not closed with \`</${call}>\` before end of output`,
  envelopeNoCallTags: 'the `<tool_calls>` envelope contained no tool-call tags',

  // --- sibling recovery
  siblingJsonFromTagged:
    'Recovered JSON tool objects from a `<tool_call>` block the tagged body grammar could not read; they ran this turn, but from now on emit one complete call per closed `<tool_call>...</tool_call>` block.',
  siblingTaggedOnJson:
    'Recovered a tool call written in the tagged grammar while `tool_format` is `json`; it ran this turn, but from now on write each call as a strict JSON object inside a ```tool fence.',

  // --- provider dialects
  mistralDialect: `Tool call(s) arrived with Mistral \`[TOOL_CALLS]name[ARGS]{...}\` markers. They ran this turn so work moves forward; use ${CALL_SHAPES.text.call_syntax} from now on.`,
  mistralPayloadInvalid: (error: string) => `Mistral [TOOL_CALLS] JSON payload did not parse: ${error}.`,
  mistralPayloadEmpty: 'empty payload',
  mistralUnknownJson: (name: string) => `Unknown tool '${name}' in Mistral [TOOL_CALLS] JSON payload.`,
  mistralMissingName: 'Mistral [TOOL_CALLS] marker was missing a tool name.',
  mistralUnknownMarker: (name: string) => `Unknown tool '${name}' in Mistral [TOOL_CALLS] marker.`,
  mistralArgsInvalid: (name: string, error: string) => `Mistral [TOOL_CALLS] arguments for \`${name}\` are not valid JSON: ${error}.`,
  mistralArgsNotObject: (name: string) => `Mistral [TOOL_CALLS] arguments for \`${name}\` must be a JSON object.`,
  dsmlUnknown: (name: string) => `Unknown tool '${name}' in DeepSeek DSML invoke.`,
  dsmlParamInvalid: (key: string, name: string, error: string) =>
    `DeepSeek DSML parameter \`${key}\` for \`${name}\` could not parse as JSON: ${error}.`,
  dsmlTruncated: (name: string) =>
    `TOOL CALL TRUNCATED: a DeepSeek DSML invoke${name === '' ? '' : ` of \`${name}\``} was opened but never closed; the response appears to have been cut off. The call was NOT executed; re-emit the complete call.`,
} as const;

type LaneMessages = { readonly [K in keyof typeof laneMessages]: (typeof laneMessages)[K] extends string ? string : (typeof laneMessages)[K] };

const gatewayLaneMessages: LaneMessages = {
  ...laneMessages,
  fenceDialect: (fence: string) => `protocol_violation: a tool call was read from a ${fence} fence.`,
  bareJson: 'protocol_violation: a tool call was read from a bare JSON object outside any fence.',
  bareCallOnJsonPin: (name: string) =>
    `protocol_violation: \`${name}({ ... })\` was written as a bare call expression, which this response's grammar does not read as a call, so it did NOT run.`,
  taggedOnJsonRecovered: 'A call was read from `<tool_call>...</tool_call>` markup.',
  taggedOnJsonLost: 'protocol_violation: `<tool_call>...</tool_call>` markup arrived, but no call could be read from it, so nothing ran.',
  envelopeMalformed: (detail: string) => `The \`<tool_calls>\` chat-template envelope is malformed: ${detail}. None of its entries were executed.`,
  envelopeOnJsonPin: 'protocol_violation: a tool call was read from a chat-template tool envelope.',
  siblingJsonFromTagged: 'JSON tool objects were read from a `<tool_call>` block whose body is not a single call expression.',
  siblingTaggedOnJson: 'A tool call written in the tagged `<tool_call>` grammar was read.',
  mistralDialect: 'Tool call(s) were read from Mistral `[TOOL_CALLS]name[ARGS]{...}` markers.',
};

const laneMessagesByProfile: Record<Profile, LaneMessages> = { gateway: gatewayLaneMessages, harn: laneMessages };

/** The lanes' messages for a profile; an absent profile reads as `harn`, as the rest of the context does. */
export function laneMessagesFor(profile: Profile | undefined): LaneMessages {
  return laneMessagesByProfile[profile ?? 'harn'];
}
