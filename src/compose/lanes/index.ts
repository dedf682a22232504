// The composer's non-tagged lanes (docs/design.md, "Other lanes"): the JSON lane with its
// fence chunker and verbatim binding, chat-template envelopes and their merges, sibling
// recovery across grammars, and the Mistral / DeepSeek DSML provider dialects.
//
//   jsonLane(text, ctx, {taggedLane?})          4.8   `tool_format: "json"` lane (pinned: with taggedLane)
//   readEnvelope(text, ctx, bodyLadder)         4.7.1-4.7.4
//   mergeEnvelopeRemainder(envelope, lane)      4.7.5
//   mergeEnvelopeChain(first, takeNext, lane)   4.7.5 over a run of envelopes, without recursion
//   joinHalves(head, tail)                      4.7.6
//   siblingRecovery(pinned, text, ctx, tagged)  4.9
//   mistralResult(text, ctx) / dsmlResult(...)  4.10  (null when the marker is absent)
export type { BodyLadder, EnvelopeMatch, JsonLaneOptions, NextEnvelope, RemainderLane } from './types.js';
export { jsonLane } from './json-lane.js';
export { readEnvelope, readEnvelopeAt, EnvelopeOpeners } from './envelope.js';
export { mergeEnvelopeRemainder, mergeEnvelopeChain, joinHalves } from './merge.js';
export { siblingRecovery } from './sibling.js';
export { mistralResult } from './mistral.js';
export { dsmlResult } from './dsml.js';
export { jsonChunks, fenceInfoIntent } from './fence-chunker.js';
export type { FenceChunks, FenceIntent } from './fence-chunker.js';
export { jsonCall } from './json-call.js';
export { emptyLane, providerResult, callBlock, callBlocks } from './result.js';
