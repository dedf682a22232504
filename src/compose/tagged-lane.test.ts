/**
 * The tagged walk through `parseToolCalls`, on the reference's worked examples
 * (groups A-D, F, I of conformance/composer). Messages are ours, so violations are compared by kind and excerpt.
 */
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse.js';
import type { ParseResult } from './types.js';

const str = (required = false) => ({ type: 'string', required });
const SAMPLE = {
  _type: 'tool_registry',
  tools: [
    {
      name: 'edit',
      parameters: {
        action: { type: 'string', required: true, enum: ['create', 'patch', 'replace_body'] },
        path: str(true),
        content: str(),
        ops: { type: 'list', required: false },
      },
    },
    { name: 'run', parameters: { command: str(true) } },
  ],
};
const CORPUS = {
  _type: 'tool_registry',
  tools: [
    { name: 'look', parameters: { file: str(true), intent: str() } },
    { name: 'edit', parameters: { action: str(), path: str(), content: str() } },
    { name: 'run', parameters: { command: str(true) } },
    { name: 'verify', parameters: {} },
  ],
};

const parse = (text: string, tools: unknown = SAMPLE): ParseResult => parseToolCalls(text, { tools, tool_format: 'text', profile: 'harn' });
const kinds = (r: ParseResult) => r.protocol_violations.map((v) => v.kind);
const named = (r: ParseResult) => r.calls.map((c) => [c.name, c.arguments]);
const RUN_LS = '<tool_call>\nrun({\n  "command": "ls"\n})\n</tool_call>';

describe('tagged walk: canonical blocks (7.A)', () => {
  it('reads a canonical call block through the fast path', () => {
    const r = parse('<tool_call>\nrun({ command: "ls" })\n</tool_call>');
    expect(r.calls).toEqual([{ id: 'tc_0', name: 'run', arguments: { command: 'ls' } }]);
    expect(r.canonical_text).toBe(RUN_LS);
    expect(r.dropped).toEqual([]);
    expect(r.protocol_violations).toEqual([]);
    expect(r.recovered_from_stray_count).toBe(0);
  });

  it('reads the brace head form', () => {
    expect(named(parse('<tool_call>run{ command: "ls" }</tool_call>'))).toEqual([['run', { command: 'ls' }]]);
  });

  it('replays a full response canonically, compact spellings included', () => {
    const r = parse('<assistantprose>Checking status.</assistantprose>\n<userresponse>Done.</userresponse>\n<toolcall>\nrun({ command: "git status" })\n</toolcall>\n<done>##DONE##</done>');
    expect(named(r)).toEqual([['run', { command: 'git status' }]]);
    expect(r.prose).toBe('Done.');
    expect(r.user_response).toBe('Done.');
    expect(r.done_marker).toBe('##DONE##');
    expect(r.canonical_text).toBe(
      '<assistant_prose>\nChecking status.\n</assistant_prose>\n\n<user_response>\nDone.\n</user_response>\n\n<tool_call>\nrun({\n  "command": "git status"\n})\n</tool_call>\n\n<done>##DONE##</done>',
    );
    expect(r.dropped).toEqual([]);
  });
});

describe('tagged walk: stray text (7.B)', () => {
  it('executes a bare call and counts it as recovered from stray text', () => {
    const r = parse('edit({ action: "create", path: "a.rs", content: "x" })');
    expect(named(r)).toEqual([['edit', { action: 'create', content: 'x', path: 'a.rs' }]]);
    expect(r.recovered_from_stray_count).toBe(1);
    expect(r.dropped).toEqual([]);
  });

  it('keeps the prose around a sniffed call, call block first in canonical text', () => {
    const r = parse('Let me inspect the parser first.\nlook({ file: "src/parse.zig" })\nThen I will patch it.', CORPUS);
    expect(named(r)).toEqual([['look', { file: 'src/parse.zig' }]]);
    expect(r.prose).toBe('Let me inspect the parser first.\n\nThen I will patch it.');
    expect(r.canonical_text.startsWith('<tool_call>\nlook(')).toBe(true);
    expect(r.canonical_text.endsWith('<assistant_prose>\nLet me inspect the parser first.\n\nThen I will patch it.\n</assistant_prose>')).toBe(true);
  });

  it('salvages plain prose and records it as dropped', () => {
    const r = parse('just prose with no tags at all');
    expect(r.prose).toBe('just prose with no tags at all');
    expect(r.dropped).toEqual([{ text: 'just prose with no tags at all', reason: 'salvaged_as_prose' }]);
    expect(r.canonical_text).toBe('<assistant_prose>\njust prose with no tags at all\n</assistant_prose>');
  });

  it('executes a call inside a markdown fence: fencing does not make it inert', () => {
    const r = parse('```python\nrun({ command: "ls" })\n```');
    expect(named(r)).toEqual([['run', { command: 'ls' }]]);
    expect(r.recovered_from_stray_count).toBe(1);
  });

  it('reports an unknown tool as an error and drops the text', () => {
    const r = parse('fictitious_tool({ x: 1 })');
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors).toHaveLength(1);
    expect(r.tool_parse_errors[0]).toContain('fictitious_tool');
    expect(r.dropped).toEqual([{ text: 'fictitious_tool({ x: 1 })', reason: 'salvaged_as_prose' }]);
    expect(r.prose).toBe('');
  });

  it('reports a protocol fragment as stray_text with prose blanked', () => {
    const r = parse('_call>_call>');
    expect(kinds(r)).toEqual(['stray_text']);
    expect(r.protocol_violations[0]?.excerpt).toBe('_call>_call>');
    expect(r.prose).toBe('');
    expect(r.recovered_from_stray_count).toBe(0);
    expect(r.dropped).toEqual([{ text: '_call>_call>', reason: 'salvaged_as_prose' }]);
  });

  it('reports a stray close tag', () => {
    const r = parse('</notes>');
    expect(kinds(r)).toEqual(['stray_text']);
    expect(r.dropped).toEqual([{ text: '</notes>', reason: 'salvaged_as_prose' }]);
  });

  it('reports an unknown top-level tag beside a real block', () => {
    const r = parse('<notes>my thoughts</notes><tool_call>\nedit({ action: "create", path: "a.rs", content: "x" })\n</tool_call>');
    expect(named(r)).toEqual([['edit', { action: 'create', content: 'x', path: 'a.rs' }]]);
    expect(kinds(r)).toEqual(['unknown_tag', 'stray_text']);
    expect(r.prose).toBe('my thoughts');
    expect(r.dropped.map((d) => d.reason)).toEqual(['salvaged_as_prose', 'salvaged_as_prose', 'fenced_narration']);
    expect(r.recovered_from_stray_count).toBe(1);
  });
});

describe('tagged walk: unclosed blocks, pending responses, done (7.C)', () => {
  it('turns a truncated unclosed call into a TOOL CALL TRUNCATED error and records the block as dropped', () => {
    const r = parse('Now I\'ll create the error module.\n<tool_call>\nedit({ action: "create", path: "src/error.rs", content: "use std::io;\\npub enum E {\\n    IoError(');
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors).toHaveLength(1);
    expect(r.tool_parse_errors[0]?.startsWith('TOOL CALL TRUNCATED:')).toBe(true);
    expect(r.tool_parse_errors[0]).toContain('edit(');
    expect(r.prose).toBe("Now I'll create the error module.");
    expect(r.dropped[0]).toEqual({ text: "Now I'll create the error module.", reason: 'salvaged_as_prose' });
    expect(r.dropped[1]?.reason).toBe('unparsed_call_block');
    expect(r.dropped[1]?.text.startsWith('<tool_call>')).toBe(true);
    // The diagnosed drop does not double as an unparsed_tool_syntax finding.
    expect(kinds(r)).toEqual([]);
  });

  it('recovers a complete call from an unclosed block with recovered_dialect', () => {
    const r = parse('<tool_call>\nedit({ "action": "create", "path": "src/main.swift", "content": <<EOF\nimport Foundation\nEOF\n})');
    expect(named(r)).toEqual([['edit', { action: 'create', content: 'import Foundation', path: 'src/main.swift' }]]);
    expect(kinds(r)).toEqual(['recovered_dialect']);
    expect(r.dropped).toEqual([]);
  });

  it('normalises the reserved [[CALL] opener', () => {
    const r = parse('[[CALL]\nrun({ command: "cargo test -p core" })\n</tool_call>');
    expect(named(r)).toEqual([['run', { command: 'cargo test -p core' }]]);
    expect(r.protocol_violations).toEqual([]);
  });

  it('raises empty_done for an empty <done>', () => {
    const r = parse('<tool_call>\nedit({ action: "create", path: "a.rs", content: "x" })\n</tool_call>\n<done></done>');
    expect(r.calls).toHaveLength(1);
    expect(kinds(r)).toEqual(['empty_done']);
    expect(r.done_marker).toBeNull();
  });

  it('keeps the prose of an interrupted <user_response>', () => {
    const r = parse('<user_response>Visible answer without a close tag.\n<done>##DONE##</done>');
    expect(kinds(r)).toEqual(['unclosed_response']);
    expect(r.prose).toBe('Visible answer without a close tag.');
    expect(r.user_response).toBeNull();
    expect(r.done_marker).toBe('##DONE##');
    expect(r.dropped).toEqual([]);
  });

  it('makes an unclosed terminal <user_response> the answer', () => {
    const r = parse('<user_response>Implemented the INI schema validation.', CORPUS);
    expect(r.user_response).toBe('Implemented the INI schema validation.');
    expect(r.prose).toBe('Implemented the INI schema validation.');
    expect(r.canonical_text).toBe('<assistant_prose>\nImplemented the INI schema validation.\n</assistant_prose>');
  });

  it('keeps a call after an interrupted response tag', () => {
    const r = parse('<user_response>Done, verifying now.\n<tool_call>\nverify({})\n</tool_call>', CORPUS);
    expect(named(r)).toEqual([['verify', {}]]);
    expect(kinds(r)).toEqual(['unclosed_response']);
    expect(r.prose).toBe('Done, verifying now.');
    expect(r.tool_parse_errors).toEqual([]);
  });

  it('a stray closing response tag turns prior prose into the answer', () => {
    const r = parse('All tests pass.\n</user_response>');
    expect(r.user_response).toBe('All tests pass.');
    expect(r.dropped).toEqual([{ text: 'All tests pass.', reason: 'salvaged_as_prose' }]);
  });

  it('an unclosed <done> never sets the marker', () => {
    const r = parse('Finished.\n<done>##DONE##');
    expect(r.done_marker).toBeNull();
    expect(r.prose).toBe('Finished.\n\n##DONE##');
  });

  it('a <done> block is a done block even when its body reads like a call (deliberate)', () => {
    const r = parse('<done>run({ command: "ls" })</done>');
    expect(r.calls).toEqual([]);
    expect(r.done_marker).toBe('run({ command: "ls" })');
  });
});

describe('tagged walk: markup and angle calls (7.D)', () => {
  it('recovers top-level function markup with recovered_dialect', () => {
    const r = parse('<function=run>\n<parameter=command>\ngo test ./...\n</parameter>\n</function>');
    expect(named(r)).toEqual([['run', { command: 'go test ./...' }]]);
    expect(kinds(r)).toEqual(['recovered_dialect']);
    expect(r.protocol_violations[0]?.message).toContain('`<tool_call>run({ ... })</tool_call>`');
  });

  it('records markup naming an unknown tool as an error and a diagnosed drop', () => {
    const r = parse('<function=frobnicate>\n<parameter=level>\n9\n</parameter>\n</function>');
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors).toHaveLength(1);
    expect(r.tool_parse_errors[0]).toContain('frobnicate');
    expect(r.dropped).toHaveLength(1);
    expect(r.dropped[0]?.reason).toBe('unparsed_markup');
    expect(kinds(r)).toEqual([]);
  });

  it('swallows <function_calls> wrappers around <invoke> markup', () => {
    const r = parse('<function_calls>\n<invoke name="look">\n<parameter name="file" string="true">src/main.zig</parameter>\n<parameter name="intent" string="true">read</parameter>\n</invoke>\n</function_calls>', CORPUS);
    expect(named(r)).toEqual([['look', { file: 'src/main.zig', intent: 'read' }]]);
    expect(r.dropped).toEqual([]);
  });

  it('credits an angle-wrapped call', () => {
    const r = parse('<run({ command: "ls" })>');
    expect(named(r)).toEqual([['run', { command: 'ls' }]]);
    expect(kinds(r)).toEqual(['recovered_dialect']);
    expect(r.canonical_text).toBe(RUN_LS);
  });

  it('reports prose mentioning markup through the shape detector', () => {
    const r = parse('I considered emitting <function=edit> markup but used the native channel.');
    expect(r.calls).toEqual([]);
    expect(kinds(r)).toEqual(['unparsed_tool_syntax']);
    expect(r.protocol_violations[0]?.dropped_reason).toBe('salvaged_as_prose');
  });
});

describe('tagged walk: frames and provider dialects (7.F)', () => {
  it('leaves no harmony debris', () => {
    const r = parse('<|start|>assistant<|channel|>analysis<|message|>I need to inspect the files first.<|end|><|start|>assistant<|channel|>commentary<|message|><tool_call>\nedit({ action: "create", path: "a.rs", content: "a" })\n</tool_call><|end|>');
    expect(named(r)).toEqual([['edit', { action: 'create', content: 'a', path: 'a.rs' }]]);
    expect(r.prose).toBe('I need to inspect the files first.');
    expect(r.dropped).toEqual([{ text: 'I need to inspect the files first.', reason: 'salvaged_as_prose' }]);
  });

  it('gives two calls distinct consecutive ids where the reference had tc_0 twice', () => {
    const r = parse('<tool_call>\nrun({ "command": "cargo test -p core" })\n</tool_call><tool_call<|message|>run({ "command": "cargo test -p app" })');
    expect(r.calls.map((c) => c.id)).toEqual(['tc_0', 'tc_1']);
    expect(r.calls.map((c) => c.arguments.command)).toEqual(['cargo test -p core', 'cargo test -p app']);
  });

  it('routes Mistral markers to the provider dialect', () => {
    const r = parse('I\'ll inspect first.[TOOL_CALLS]edit[ARGS]{"action":"create","path":"a.rs"}');
    expect(named(r)).toEqual([['edit', { action: 'create', path: 'a.rs' }]]);
    expect(kinds(r)).toEqual(['provider_dialect']);
  });
});
