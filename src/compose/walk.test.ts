import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { scanUnits } from '../scan/index.js';
import { composeContext } from './context.js';
import { walkScan } from './walk.js';
import { parseToolCalls } from './parse.js';

const SAMPLE = [{ name: 'run', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }];

const trace = (text: string, profile: 'gateway' | 'harn' = 'gateway') => {
  const ctx = composeContext(SAMPLE, 'text', null, profile);
  const scan = scanUnits(text, buildScanSpec(ctx.registry));
  return walkScan(scan, ctx, true);
};

describe('walk trace: every unit accounted for, with the rung that decided it', () => {
  it('names the account, outcome and rung of each unit in order', () => {
    const text = [
      '<assistant_prose>Plan.</assistant_prose>',
      'Some words.',
      '<tool_call>run({ command: "ls" })</tool_call>',
      '<tool_call>\n{"name": "run", "arguments": {"command": "pwd"}}\n</tool_call>',
      '<notes>',
      'run({ command: "bare" })',
      '<tool_call>\nrun({ command: "cut',
    ].join('\n');
    const { result, trace: entries } = trace(text);
    expect(entries?.map((e) => [e.account, e.outcome, e.rung ?? null])).toEqual([
      ['structural', 'prose_block', null],
      ['drop', 'salvaged_as_prose', 'salvage'],
      ['call', 'call', 'fast-path'],
      ['call', 'call', 'json-body'],
      ['drop', 'salvaged_as_prose', null],
      ['call', 'call', 'sniff'],
      ['drop', 'unparsed_call_block', 'truncated'],
    ]);
    expect(result.calls.map((c) => c.arguments.command)).toEqual(['ls', 'pwd', 'bare']);
    expect(result.tool_parse_errors).toHaveLength(1);
  });
});

  it('holds a canonical tool fence until the walk ends, then runs it when nothing else did', () => {
    const { result, trace: entries } = trace('Plan:\n```tool\n{"name": "run", "args": {"command": "ls"}}\n```');
    expect(entries?.map((e) => [e.account, e.outcome])).toEqual([
      ['structural', 'fence_held'],
      ['call', 'fence_recovered'],
    ]);
    expect(result.calls.map((c) => c.arguments)).toEqual([{ command: 'ls' }]);
    expect(result.protocol_violations.map((v) => v.kind)).toEqual(['recovered_dialect']);
    expect(result.recovered_from_stray_count).toBe(1);
  });

  it('keeps a held fence as a fenced_narration drop when the turn already made a call', () => {
    const { result, trace: entries } = trace('<tool_call>run({ command: "a" })</tool_call>\nAlso:\n```tool\n{"name": "run", "args": {"command": "b"}}\n```');
    expect(entries?.map((e) => [e.account, e.outcome])).toEqual([
      ['call', 'call'],
      ['structural', 'fence_held'],
      ['drop', 'fenced_narration'],
    ]);
    expect(result.calls.map((c) => c.arguments)).toEqual([{ command: 'a' }]);
    expect(result.protocol_violations.map((v) => v.kind)).toEqual(['wrong_tool_format']);
    expect(result.dropped.map((d) => d.reason)).toEqual(['fenced_narration']);
  });

  const framed = '<|start|>assistant<|message|><function_calls></function_calls></tool_call>\n<user_response>\nAll good.';

  it('records nothing for frames, wrappers and stray closes under harn, and keeps pending text as prose', () => {
    const { result, trace: entries } = trace(framed, 'harn');
    expect(entries?.map((e) => e.outcome)).toEqual(['harmony_skip', 'wrapper', 'wrapper', 'stray_close', 'pending_open', 'pending_prose']);
    expect(result.dropped).toEqual([]);
    expect(result.user_response).toBe('All good.');
  });

  it('records a stray close on the drop ledger under the gateway: it may be all that is left of a call', () => {
    const { result, trace: entries } = trace(framed);
    expect(entries?.map((e) => e.outcome)).toEqual(['harmony_skip', 'wrapper', 'wrapper', 'stray_close_tag', 'pending_open', 'pending_prose']);
    expect(result.dropped).toEqual([{ text: '</tool_call>', reason: 'stray_close_tag' }]);
    expect(result.user_response).toBe('All good.');
  });

describe('a `<` with no tag name after it', () => {
  it('is no unknown tag under gateway (a protocol trace\'s `<--` line, `<= 5`), and kept as written', () => {
    const trace = '--> {"jsonrpc": "2.0", "method": "subtract", "id": 1}\n<-- {"jsonrpc": "2.0", "result": 19, "id": 1}';
    const r = parseToolCalls(trace, { tools: ['search'], profile: 'gateway' });
    expect(r.protocol_violations).toEqual([]);
    expect(r.prose).toBe(trace);
    expect(parseToolCalls('<foo> and more', { tools: ['search'], profile: 'gateway' }).protocol_violations.map((v) => v.kind)).toEqual(['unknown_tag']);
  });
});
