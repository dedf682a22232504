import { describe, expect, it } from 'vitest';
import { callFromBody } from '../ladders/body.js';
import type { LaneResult } from '../types.js';
import { readEnvelope } from './envelope.js';
import { joinHalves, mergeEnvelopeRemainder } from './merge.js';
import { emptyLane } from './result.js';
import { jsonCtx, textCtx } from '../../../test/support/compose-contexts.js';
import type { BodyLadder } from './types.js';

const ladder: BodyLadder = (body, ctx) => callFromBody(body, ctx);
const noLadder: BodyLadder = () => ({ ok: false });
const read = (text: string, body: BodyLadder = noLadder) => readEnvelope(text, jsonCtx(), body);
const errorOf = (text: string): string => {
  const match = read(text);
  expect(match?.malformed).toBe(true);
  expect(match?.result.calls).toEqual([]);
  return match?.result.tool_parse_errors[0] ?? '';
};

describe('readEnvelope: locating', () => {
  it('returns null without an opener, and for a <tool_call> body that is not JSON', () => {
    expect(read('plain prose')).toBeNull();
    expect(read('<tool_call>\nrun({ command: "ls" })\n</tool_call>', ladder)).toBeNull();
  });

  it('the earliest opener wins, whatever its list position', () => {
    const match = read('<tool>{"name":"a","args":{}}</tool> then <tool_calls><tool>{"name":"b"}</tool_calls>');
    expect(match?.result.calls.map((c) => c.name)).toEqual(['a']);
    expect(match?.trailing).toBe('then <tool_calls><tool>{"name":"b"}</tool_calls>');
  });

  it('Ex57: a <tool_use> JSON body is one tc_envelope call with the envelope violation', () => {
    const match = read('<tool_use>{"name":"run","arguments":{"command":"ls"}}</tool_use>');
    expect(match?.malformed).toBe(false);
    expect(match?.result.calls).toEqual([{ id: 'tc_envelope', name: 'run', arguments: { command: 'ls' } }]);
    expect(match?.result.protocol_violations.map((v) => v.kind)).toEqual(['wrong_tool_format']);
    expect(match?.prose).toBe('');
    expect(match?.trailing).toBe('');
  });

  it('Ex58: a [[tool]] body the tagged ladder reads is a call only when the ladder yields one', () => {
    const ctx = textCtx();
    const match = readEnvelope('[[tool]]run({ command: "ls" })[[/tool]]', ctx, ladder);
    expect(match?.result.calls).toEqual([{ id: 'tc_0', name: 'run', arguments: { command: 'ls' } }]);
    expect(readEnvelope('[[tool]]search({ q: "x" })[[/tool]]', ctx, ladder)).toBeNull();
    expect(readEnvelope('[[tool]]run({ command: "ls" })', ctx, ladder)).toBeNull();
  });

  it('a label line names a <tool_call>-kind JSON body', () => {
    const match = read('<tool>run\n{"args": {"command": "ls"}}</tool>');
    expect(match?.result.calls).toEqual([{ id: 'tc_envelope', name: 'run', arguments: { command: 'ls' } }]);
  });
});

describe('readEnvelope: <tool_calls> readers', () => {
  it('marker form: optional per-call closes, several objects per marker, string arguments decoded', () => {
    const match = read('<tool_calls><tool>{"name":"a","args":{"k":1}}</tool><tool>{"tool":"b","arguments":"{\\"v\\":2}"}</tool></tool_calls>');
    expect(match?.result.calls).toEqual([
      { id: 'tc_envelope', name: 'a', arguments: { k: 1 } },
      { id: 'tc_envelope', name: 'b', arguments: { v: 2 } },
    ]);
  });

  it('marker form: text after the close is the trailing remainder', () => {
    const match = read('Before.\n<tool_calls><tool>{"name":"a"}</tool_calls>\nAfter.');
    expect(match?.prose).toBe('Before.');
    expect(match?.trailing).toBe('After.');
  });

  it('marker form faults', () => {
    expect(errorOf('<tool_calls><tool>{"name":"a"}<tool></tool_calls>')).toContain('a `<tool>` marker ended without a complete JSON object');
    expect(errorOf('<tool_calls></tool></tool_calls>')).toContain('unmatched `</tool>`');
    expect(errorOf('<tool_calls>{"name":"a"}</tool_calls>')).toContain('no `<tool>` marker');
    expect(errorOf('<tool_calls><tool><tool>{"name":"a"}</tool_calls>')).toContain('before another `<tool>` marker');
    expect(errorOf('<tool_calls><tool>{"name":"a"}</tool>{"name":"b"}</tool_calls>')).toContain('expected a `<tool>` marker before this JSON object');
    expect(errorOf('<tool_calls>\n<tool>\n{"name":"look"')).toContain('ended before its closing `}`');
    expect(errorOf('<tool_calls><tool>{"name":}</tool_calls>')).toContain('did not parse');
    expect(errorOf('<tool_calls><tool>{"args":{}}</tool_calls>')).toContain('missing a non-empty name');
    expect(errorOf('<tool_calls><tool>nope</tool_calls>')).toContain('expected a JSON tool object, found `nope</tool_calls>`');
    expect(errorOf('<tool_calls><tool>{"name":"a"} nope</tool_calls>')).toContain('expected a `<tool>` marker before');
  });

  it('Ex79: XML form with string arguments, a literal envelope close inside a value, and no outer close', () => {
    const match = read('<tool_calls>\n<look>\n<file>\nsrc/writer.zig\n</file>\n<intent>\nread\n</intent>\n</look>');
    expect(match?.result.calls).toEqual([{ id: 'tc_envelope_xml', name: 'look', arguments: { file: 'src/writer.zig', intent: 'read' } }]);
    const literal = read('<tool_calls>\n<write>\n<content>\n</tool_calls>\n</content>\n</write>\n</tool_calls>');
    expect(literal?.result.calls[0]?.arguments).toEqual({ content: '</tool_calls>' });
  });

  it('XML form faults', () => {
    expect(errorOf('<tool_calls>\n<look>\n<file>\na.rs\n</file>\n<file>\nb.rs\n</file>\n</look>\n</tool_calls>')).toContain('repeated the `<file>` argument');
    expect(errorOf('<tool_calls>\n<look>\n<file>\nsrc/writer.zig')).toContain('the `<file>` argument tag was not closed');
    expect(errorOf('<tool_calls>\n<look>\n<file>a</file>')).toContain('the `<look>` call tag was not closed');
    expect(errorOf('<tool_calls>\n<look>\nplain\n</look>')).toContain('expected an argument tag inside `<look>`');
    expect(errorOf('<tool_calls>\nplain words')).toContain('expected a tool-call tag');
    expect(errorOf('<tool_calls>\n</tool_calls>')).toContain('no tool-call tags');
  });
});

describe('readEnvelope: JSON list envelopes', () => {
  it('reads several objects and hands the text after the close back as trailing', () => {
    const match = read('<tool_code>\n{"name":"a","args":{"k":1}}\n{"name":"b","args":{"v":2}}\n</tool_code>\nDone.');
    expect(match?.result.calls.map((c) => c.name)).toEqual(['a', 'b']);
    expect(match?.trailing).toBe('Done.');
  });

  it('a close tag inside a JSON string is content', () => {
    const match = read('<tool_code>\n{ "name": "write", "args": { "content": "</tool_code>" } }\n</tool_code>');
    expect(match?.result.calls[0]?.arguments).toEqual({ content: '</tool_code>' });
  });

  it('faults always name the <tool_calls> envelope', () => {
    expect(errorOf('<tool_code>\nlol this is not json at all\n</tool_code>')).toBe(
      'The `<tool_calls>` chat-template envelope is malformed: expected a JSON tool object, found `lol this is not json at all\n</tool_code>`. None of its entries were executed; re-emit complete calls as canonical ```tool JSON blocks.',
    );
    expect(errorOf('<tool_code>{"name": "a", "args": {')).toContain('ended before its closing `}`');
    expect(errorOf('<tool_code>{"name":"a"}[1]</tool_code>')).toContain('must be a JSON object');
    expect(errorOf('<tool_code>{"name":"a","args":"{bad"}</tool_code>')).toContain('arguments string did not parse');
    expect(errorOf('<tool_code>{"name":"a","args":[1]}</tool_code>')).toContain('arguments must be a JSON object');
  });
});

describe('merges: envelope remainders and split halves', () => {
  const lane = (prose: string, name?: string): LaneResult => ({
    ...emptyLane(),
    prose,
    calls: name ? [{ id: 'tc_0', name, arguments: {} }] : [],
    tool_parse_errors: [`${prose}-error`],
    protocol_violations: [{ kind: 'stray_text', message: prose, excerpt: null, dropped_reason: null }],
    dropped: [{ text: prose, reason: 'salvaged_as_prose' }],
    recovered_from_stray_count: 1,
  });

  it('returns the envelope result itself when nothing surrounds it', () => {
    const match = read('<tool_use>{"name":"a"}</tool_use>');
    if (!match) throw new Error('expected an envelope');
    expect(mergeEnvelopeRemainder(match, () => { throw new Error('no remainder to parse'); })).toBe(match.result);
  });

  it('orders calls and errors by document, the envelope violation first, prose joined by newline', () => {
    const match = read('before <tool_use>{"name":"mid"}</tool_use> after');
    if (!match) throw new Error('expected an envelope');
    const merged = mergeEnvelopeRemainder(match, (text) => lane(text, text === 'before' ? 'first' : 'last'));
    expect(merged.calls.map((c) => c.name)).toEqual(['first', 'mid', 'last']);
    expect(merged.tool_parse_errors).toEqual(['before-error', 'after-error']);
    expect(merged.protocol_violations.map((v) => v.kind)).toEqual(['wrong_tool_format', 'stray_text', 'stray_text']);
    expect(merged.dropped.map((d) => d.text)).toEqual(['before', 'after']);
    expect(merged.prose).toBe('before\nafter');
    expect(merged.recovered_from_stray_count).toBe(0);
    expect(merged.canonical_text).toBe('<tool_call>\nfirst({})\n</tool_call>\n<tool_call>\nmid({})\n</tool_call>\n<tool_call>\nlast({})\n</tool_call>');
  });

  it('joinHalves concatenates head then tail and keeps the head-only fields', () => {
    const head = { ...lane('head', 'a'), user_response: 'answer', done_marker: '##DONE##' };
    const joined = joinHalves(head, lane('tail', 'b'));
    expect(joined.calls.map((c) => c.name)).toEqual(['a', 'b']);
    expect(joined.tool_parse_errors).toEqual(['head-error', 'tail-error']);
    expect(joined.dropped.map((d) => d.text)).toEqual(['head', 'tail']);
    expect(joined.prose).toBe('head\ntail');
    expect([joined.user_response, joined.done_marker, joined.recovered_from_stray_count]).toEqual(['answer', '##DONE##', 1]);
    expect(joinHalves(lane(''), lane('tail')).prose).toBe('tail');
  });
});
