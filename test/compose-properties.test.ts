/**
 * Properties of the composer over random mixes of dialect fragments and noise:
 * never throws; every unit is accounted for (the drop invariant); ids are distinct and
 * consecutive; canonical text parses back to the same calls.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../src/dialects/index.js';
import { composeContext } from '../src/compose/context.js';
import { parseToolCalls } from '../src/compose/parse.js';
import { callFromBody } from '../src/compose/ladders/index.js';
import { joinHalves, mergeEnvelopeRemainder, readEnvelope } from '../src/compose/lanes/index.js';
import { messagesFor } from '../src/compose/messages.js';
import { taggedLane } from '../src/compose/tagged-lane.js';
import { walkScan } from '../src/compose/walk.js';
import type { LaneResult } from '../src/compose/types.js';
import type { ComposeContext } from '../src/compose/context.js';
import { scanUnits } from '../src/scan/index.js';

const TOOLS = [
  { name: 'run', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
  { name: 'look', parameters: { type: 'object', properties: { file: { type: 'string' } } } },
];

const DIALECT_FRAGMENTS = [
  '<tool_call>run({ command: "x" })</tool_call>',
  '<tool_call>\nlook({ file: "a.txt" })\n</tool_call>',
  '<toolcall>run{ command: "brace" }</toolcall>',
  '<tool_call>\nlook({ file: "cut',
  '<tool_call>\n{"name": "run", "arguments": {"command": "json"}}\n</tool_call>',
  '<tool_call>\n<thinking>why</thinking>\nrun({ command: "t" })\n</tool_call>',
  '<tool_call>nothing callable here</tool_call>',
  '<tool_call></tool_call>',
  '<assistant_prose>Looking around.</assistant_prose>',
  '<user_response>All done.</user_response>',
  '<done>##DONE##</done>',
  '<done></done>',
  '<user_response>cut off answer',
  '</user_response>',
  'run({ command: "bare" })',
  'tool_code: look({ file: "b" })',
  'unknown_tool({ a: 1 })',
  'Hint: run({ command: "ls" })',
  '```tool\n{"name": "run", "args": {"command": "fenced"}}\n```',
  '```python\nrun({ command: "py" })\n```',
  '<function=run>\n<parameter=command>\nls -la\n</parameter>\n</function>',
  '<function=nope>\n<parameter=x>\n1\n</parameter>\n</function>',
  '<function_calls>\n<invoke name="look">\n<parameter name="file">c.txt</parameter>\n</invoke>\n</function_calls>',
  '<run({ command: "angle" })>',
  '<|start|>assistant<|channel|>analysis<|message|>',
  '<|end|>',
  '<tool_call<|message|>run({ command: "corrupt" })',
  '[[CALL]\nrun({ command: "reserved" })\n</tool_call>',
  '</tool_call>',
  '<notes>',
  '</notes>',
  '_call>',
  '<thinking>hidden</thinking>',
  'Plain words between things.',
];

/**
 * Fragments whose prose holds no protocol markup, joined by whole lines. Canonical text does
 * not escape prose, so a response whose prose quotes tags (an unclosed answer swallowing a
 * call block, say) or leaves a markdown fence open replays them; round trips are only claimed
 * for turns whose prose is plain.
 */
const PLAIN_PROSE_FRAGMENTS = DIALECT_FRAGMENTS.filter(
  (f) => !['<user_response>cut off answer', '</user_response>', '<tool_call>\nlook({ file: "cut', '<notes>', '</notes>', '_call>', 'Hint: run({ command: "ls" })', 'unknown_tool({ a: 1 })'].includes(f),
);

const SAFE_PROSE = fc.string({ unit: fc.constantFrom(...'abcdefghij XYZ.,:;!?-_0123456789'.split('')), maxLength: 24 });
const HOSTILE = fc.string({ unit: fc.constantFrom(...'ab <>/{}()[]"\'`:=|\n\t_#~*\\'.split('')), maxLength: 24 });
const SEPARATOR = fc.constantFrom('', ' ', '\n', '\n\n', '\n```\n');

/** Separators that never leave a markdown fence open between fragments. */
const LINE_SEPARATOR = fc.constantFrom('\n', '\n\n');

function mix(noise: fc.Arbitrary<string>, fragments: readonly string[] = DIALECT_FRAGMENTS, separator = SEPARATOR): fc.Arbitrary<string> {
  const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...fragments) }, { weight: 1, arbitrary: noise });
  return fc.array(fc.tuple(piece, separator), { maxLength: 8 }).map((parts) => parts.map(([p, s]) => p + s).join(''));
}

const nonSpace = (s: string) => s.replace(/\s+/g, '');

describe('composer properties', () => {
  it('never throws on any mix, in every format', () => {
    fc.assert(
      fc.property(mix(HOSTILE), fc.constantFrom('text', 'json', 'native', '', 'adaptive', 'other'), (text, format) => {
        const r = parseToolCalls(text, { tools: TOOLS, tool_format: format });
        expect(Array.isArray(r.calls)).toBe(true);
        for (const call of r.calls) expect(call.arguments !== null && typeof call.arguments === 'object' && !Array.isArray(call.arguments)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('accounts for every unit: a call, a recorded drop, or a named structural outcome', () => {
    const ctx = composeContext(TOOLS, 'text');
    const spec = buildScanSpec(ctx.registry);
    fc.assert(
      fc.property(mix(HOSTILE), (text) => {
        const scan = scanUnits(text, spec);
        const { result, trace } = walkScan(scan, ctx, true);
        const walked = (trace ?? []).filter((e) => e.start >= 0);
        // Each unit exactly once, in order.
        expect(walked.map((e) => [e.start, e.end])).toEqual(scan.units.map((u) => [u.start, u.end]));
        // The units' spans cover every non-whitespace character of the source.
        const covered = new Uint8Array(scan.source.length);
        for (const e of walked) covered.fill(1, e.start, e.end);
        for (let i = 0; i < scan.source.length; i++) {
          if (!covered[i] && /\S/.test(scan.source[i]!)) throw new Error(`uncovered ${JSON.stringify(scan.source[i])} at ${i} in ${JSON.stringify(scan.source)}`);
        }
        // A dropped unit's text is the whole unit, whitespace aside.
        for (const e of walked.filter((w) => w.account === 'drop')) expect(nonSpace(e.text ?? '')).toBe(nonSpace(scan.source.slice(e.start, e.end)));
        // Every ledger entry comes from the walk (or the post-loop fence decision).
        expect(result.dropped.map((d) => d.text)).toEqual((trace ?? []).filter((e) => e.account === 'drop').map((e) => e.text));
        // Every credited call is accounted for by some unit or the fence recovery.
        expect((trace ?? []).some((e) => e.account === 'call')).toBe(result.calls.length > 0);
      }),
      { numRuns: 400 },
    );
  });

  it('stamps distinct consecutive ids from call_id_start', () => {
    fc.assert(
      fc.property(mix(SAFE_PROSE), fc.nat({ max: 1000 }), (text, start) => {
        const r = parseToolCalls(text, { tools: TOOLS, call_id_start: start });
        expect(r.calls.map((c) => c.id)).toEqual(r.calls.map((_, i) => `tc_${start + i}`));
        expect(r.recovered_from_stray_count).toBeLessThanOrEqual(r.calls.length);
      }),
      { numRuns: 300 },
    );
  });

  it('parses its own canonical text back to the same calls', () => {
    fc.assert(
      fc.property(mix(SAFE_PROSE, PLAIN_PROSE_FRAGMENTS, LINE_SEPARATOR), (text) => {
        const first = parseToolCalls(text, { tools: TOOLS, tool_format: 'text' });
        const again = parseToolCalls(first.canonical_text, { tools: TOOLS, tool_format: 'text' });
        expect(again.calls.map((c) => [c.name, c.arguments])).toEqual(first.calls.map((c) => [c.name, c.arguments]));
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * The entry ladder as the reference states it: recursive, re-reading each remainder. The lane
 * follows the same chain in a loop; both must agree on every turn.
 */
function recursiveEntry(text: string, ctx: ComposeContext): LaneResult {
  const taggedAt = text.indexOf('<tool_call>');
  const alternates = ['<tool_calls>', '<tool_code>', '<tool_use>', '<tool>', '[[tool]]'].map((o) => text.indexOf(o)).filter((i) => i >= 0);
  const alternateAt = alternates.length > 0 ? Math.min(...alternates) : -1;
  if (alternateAt > 0 && taggedAt >= 0 && taggedAt < alternateAt) {
    return joinHalves(recursiveEntry(text.slice(0, alternateAt), ctx), recursiveEntry(text.slice(alternateAt), ctx));
  }
  if (taggedAt < 0 || (alternateAt >= 0 && alternateAt < taggedAt)) {
    const envelope = readEnvelope(text, ctx, (body, c) => callFromBody(body, c));
    if (envelope && !envelope.malformed && envelope.result.calls.length > 0) {
      const merged = mergeEnvelopeRemainder(envelope, (rest) => recursiveEntry(rest, ctx));
      return { ...merged, protocol_violations: [{ kind: 'recovered_dialect', message: messagesFor(ctx.profile).envelopeRecovered(ctx.toolFormat), excerpt: null, dropped_reason: null }] };
    }
  }
  return walkScan(scanUnits(text, buildScanSpec(ctx.registry)), ctx).result;
}

const ENVELOPE_FRAGMENTS = [
  '<tool>run({ command: "t" })</tool>',
  '<tool_use>{"name": "look", "arguments": {"file": "u"}}</tool_use>',
  '<tool_calls>\n<tool>{"name": "run", "arguments": {"command": "v"}}</tool>\n</tool_calls>',
  '<tool_code>{"name": "run", "arguments": {"command": "w"}}</tool_code>',
  '[[tool]]{"name": "run", "arguments": {"command": "x"}}[[/tool]]',
  '<tool>not json</tool>',
  '<tool_call>run({ command: "y" })</tool_call>',
  '<tool_call>\nlook({ file: "cut',
  'Some prose.',
  '<user_response>answer</user_response>',
  '<notes>',
];

describe('entry ladder chain', () => {
  it('agrees with the recursive statement of the entry ladder', () => {
    const ctx = composeContext(TOOLS, 'text');
    fc.assert(
      fc.property(mix(SAFE_PROSE, ENVELOPE_FRAGMENTS), (text) => {
        expect(taggedLane(text, ctx)).toEqual(recursiveEntry(text, ctx));
      }),
      { numRuns: 400 },
    );
  });

  it('reads thousands of envelopes without deep recursion', () => {
    const ctx = composeContext(TOOLS, 'text');
    const text = '<tool_call>run({ command: "a" })</tool_call>\n<tool>run({ command: "b" })</tool>\n'.repeat(5000);
    const result = taggedLane(text, ctx);
    expect(result.calls).toHaveLength(10000);
    expect(result.protocol_violations.map((v) => v.kind)).toEqual(['recovered_dialect']);
  });
});

/** Nesting far past any reader's limit, in every place a body is read as JSON or as a value. */
const DEEP = fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom('[]', '{}', '[{"a":]}', '({)}')).map(([depth, pair]) => {
  const half = pair.length / 2;
  const open = pair.slice(0, half);
  const close = pair.slice(half);
  return open.repeat(depth) + close.repeat(depth);
});
const DEEP_SHAPES: readonly ((deep: string) => string)[] = [
  (d) => `<tool_call>{"name":"look","arguments":{"a":${d}}}</tool_call>`,
  (d) => `<look>{"a":${d}}</look>`,
  (d) => `<tool_call>look\n{"a":${d}}\n</tool_call>`,
  (d) => `<tool_call>look({a: ${d}})</tool_call>`,
  (d) => `<function=look>\n<parameter=a>\n${d}\n</parameter>\n</function>`,
  (d) => `<tool_call>{"name":"tool","arguments":{"name":"look","arguments":${JSON.stringify(`{"a":${d}}`)}}}</tool_call>`,
  (d) => '```tool\n{"name":"look","args":{"a":' + d + '}}\n```',
  (d) => `[TOOL_CALLS]look[ARGS]{"a":${d}}`,
  (d) => `look({"a": ${d}})`,
];
/** One fragment repeated tens of thousands of times. */
const FLOOD = fc.tuple(fc.constantFrom(...DIALECT_FRAGMENTS, '<b>\n', '</x>', '<tool_call>run(\n'), fc.integer({ min: 1000, max: 20_000 })).map(([f, n]) => f.repeat(n));
/** A mix several hundred kilobytes long. */
const LONG = fc.array(fc.constantFrom(...DIALECT_FRAGMENTS), { minLength: 200, maxLength: 400 }).map((parts) => parts.join('\n').repeat(20));

describe('composer never throws on hostile sizes (property)', () => {
  const parses = (text: string, format: string): void => {
    const r = parseToolCalls(text, { tools: TOOLS, tool_format: format });
    expect(typeof JSON.stringify(r)).toBe('string');
  };
  const FORMAT = fc.constantFrom('text', 'json');

  it('deep nesting in every body shape', () => {
    fc.assert(fc.property(DEEP, fc.constantFrom(...DEEP_SHAPES), FORMAT, (deep, shape, format) => parses(shape(deep), format)), { numRuns: 60 });
  });

  it('floods of one fragment', () => {
    fc.assert(fc.property(FLOOD, FORMAT, parses), { numRuns: 20 });
  });

  it('very long mixed input', () => {
    fc.assert(fc.property(LONG, FORMAT, parses), { numRuns: 6 });
  });
});
