import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callFromBody } from '../ladders/body.js';
import { taggedLane } from '../tagged-lane.js';
import type { LaneResult } from '../types.js';
import { dsmlResult, jsonLane, mistralResult, readEnvelope, siblingRecovery } from './index.js';
import { jsonCtx, SAMPLE_TOOLS, textCtx } from '../../../test/support/compose-contexts.js';

/** Model-ish text: the markers every lane reacts to, mixed with JSON punctuation and noise. */
const modelText = fc.string({
  unit: fc.constantFrom(
    '```tool\n', '```json\n', '~~~tool\n', '```\n', '\n', '{', '}', '[', ']', '"', ':', ',', '\\', ' ',
    '"name"', '"args"', '"run"', '"<<T:1"', '<<T:1\n', 'T\n', '<<EOF\n', 'EOF\n',
    '<tool_calls>', '</tool_calls>', '<tool>', '</tool>', '<tool_code>', '</tool_code>', '<tool_call>', '</tool_call>',
    '<tool_use>', '[[tool]]', '[[/tool]]', '<look>', '</look>', '<file>', '</file>',
    '[TOOL_CALLS]', '[ARGS]', '<\uff5cDSML\uff5cinvoke name="run">', '</\uff5cDSML\uff5cinvoke>',
    '<\uff5cDSML\uff5cparameter name="command" string="false">', '</\uff5cDSML\uff5cparameter>', '<\uff5cDSML\uff5cfunction_calls>',
    'run({ command: "ls" })', '&amp;', '\ud83d', 'x',
  ),
  maxLength: 40,
});

function wellFormed(r: LaneResult): void {
  expect(Array.isArray(r.calls)).toBe(true);
  for (const call of r.calls) {
    expect(typeof call.name).toBe('string');
    expect(call.name).not.toBe('');
    expect(call.arguments !== null && typeof call.arguments === 'object' && !Array.isArray(call.arguments)).toBe(true);
  }
  expect(typeof r.prose).toBe('string');
  expect(typeof r.canonical_text).toBe('string');
  for (const d of r.dropped) expect(typeof d.text).toBe('string');
}

describe('lanes never throw on model text (property)', () => {
  it('jsonLane with and without heredoc recovery, then sibling recovery', () => {
    fc.assert(
      fc.property(fc.oneof(modelText, fc.string({ unit: 'binary' })), fc.boolean(), (text, recoverHeredoc) => {
        const ctx = jsonCtx(SAMPLE_TOOLS);
        const pinned = jsonLane(text, ctx, recoverHeredoc ? { taggedLane } : {});
        wellFormed(pinned);
        wellFormed(siblingRecovery(pinned, text, ctx, taggedLane));
      }),
      { numRuns: 400 },
    );
  });

  it('readEnvelope, mistralResult, dsmlResult on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(modelText, fc.string({ unit: 'binary' })), (text) => {
        const ctx = textCtx();
        const envelope = readEnvelope(text, ctx, (body, c) => callFromBody(body, c));
        if (envelope !== null) wellFormed(envelope.result);
        const mistral = mistralResult(text, ctx);
        if (mistral !== null) wellFormed(mistral);
        const dsml = dsmlResult(text, ctx);
        if (dsml !== null) wellFormed(dsml);
        expect(mistral === null).toBe(!text.includes('[TOOL_CALLS]'));
      }),
      { numRuns: 400 },
    );
  });

  it('sibling recovery on a text pin', () => {
    fc.assert(
      fc.property(modelText, (text) => {
        const ctx = textCtx();
        wellFormed(siblingRecovery({ calls: [], prose: '', user_response: null, done_marker: null, canonical_text: '', tool_parse_errors: [], protocol_violations: [], dropped: [], recovered_from_stray_count: 0 }, text, ctx, taggedLane));
      }),
      { numRuns: 300 },
    );
  });
});

describe('lanes never throw on hostile sizes', () => {
  const deep = '['.repeat(50000) + ']'.repeat(50000);

  it('a value nested past the reader limit is an error, never a value to render', () => {
    const ctx = textCtx();
    const mistral = mistralResult(`[TOOL_CALLS]run[ARGS]{"command": ${deep}}`, ctx);
    expect(mistral?.calls).toEqual([]);
    expect(mistral?.tool_parse_errors).toHaveLength(1);
    const D = '<\uff5cDSML\uff5c';
    const dsml = dsmlResult(`${D}invoke name="run">${D}parameter name="command" string="false">${deep}</\uff5cDSML\uff5cparameter></\uff5cDSML\uff5cinvoke>`, ctx);
    expect(dsml?.tool_parse_errors).toHaveLength(1);
    expect(dsml?.calls[0]?.arguments.command).toBe(deep);
    const envelope = readEnvelope(`<tool_calls><tool>{"name":"run","args":{"x":${deep}}}</tool_calls>`, ctx, () => ({ ok: false }));
    expect(envelope?.malformed).toBe(true);
    const fenced = jsonLane('```tool\n{"name":"run","args":{"x":' + deep + '}}\n```', jsonCtx());
    expect(fenced.calls).toEqual([]);
    expect(fenced.tool_parse_errors).toHaveLength(1);
  });

  it('hundreds of thousands of lines or calls go through without stack growth', () => {
    const lines = 'line\n'.repeat(300000);
    expect(jsonLane('```python\n' + lines, jsonCtx()).prose.length).toBeGreaterThan(lines.length);
    const objects = '{"name":"run","args":{}}\n'.repeat(150000);
    expect(jsonLane('```tool\n' + objects + '```', jsonCtx()).calls).toHaveLength(150000);
  });
});
