import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callFromBody } from '../ladders/body.js';
import type { LaneResult } from '../types.js';
import { readEnvelope } from './envelope.js';
import { jsonLane } from './json-lane.js';
import { mergeEnvelopeRemainder } from './merge.js';
import { jsonCtx, SAMPLE_TOOLS } from '../../../test/support/compose-contexts.js';

const ctx = jsonCtx(SAMPLE_TOOLS);

/** The reference's shape: merge one envelope, and let the lane recurse into the trailing text. */
function recursiveLane(text: string): LaneResult {
  const envelope = readEnvelope(text, ctx, (body, c) => callFromBody(body, c));
  if (envelope === null) return jsonLane(text, ctx);
  if (envelope.malformed) return { ...envelope.result, prose: text.trim() };
  return mergeEnvelopeRemainder(envelope, recursiveLane);
}

const piece = fc.constantFrom(
  'note ',
  '\n',
  '<tool>{"name":"a","args":{"k":1}}</tool>',
  '<tool_use>{"name":"b"}</tool_use>',
  '[[tool]]run({ command: "ls" })[[/tool]]',
  '<tool_code>{"name":"c"}{"name":"d"}</tool_code>',
  '<tool_calls><tool>{"name":"e"}</tool></tool_calls>',
  '<tool_calls><look><file>x</file></look></tool_calls>',
  '<tool_code>oops</tool_code>',
  '```tool\n{"name":"f"}\n```\n',
  '{"name":"g"}',
);

describe('mergeEnvelopeChain', () => {
  it('reads a run of envelopes exactly as the recursive merge does (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(jsonLane(text, ctx)).toEqual(recursiveLane(text));
      }),
      { numRuns: 300 },
    );
  });
});
