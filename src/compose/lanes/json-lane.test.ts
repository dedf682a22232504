import { describe, expect, it } from 'vitest';
import { taggedLane } from '../tagged-lane.js';
import type { ComposeContext } from '../context.js';
import { jsonLane } from './json-lane.js';
import { jsonCtx, SAMPLE_TOOLS } from '../../../test/support/compose-contexts.js';

/** The lane as `tool_format: "json"` pins it: `<tool_call>` markup goes to the tagged lane first. */
const pinnedJsonLane = (text: string, ctx: ComposeContext) => jsonLane(text, ctx, { taggedLane });

const fence = (body: string, info = 'tool'): string => '```' + info + '\n' + body + '\n```';

describe('jsonLane: fenced calls (worked examples, JSON lane)', () => {
  it('Ex65: one clean call, canonical block, nothing else', () => {
    const r = pinnedJsonLane(fence('{"name": "read_file", "args": {"path": "a.rs"}}'), jsonCtx());
    expect(r).toEqual({
      calls: [{ id: 'tc_json', name: 'read_file', arguments: { path: 'a.rs' } }],
      prose: '',
      user_response: null,
      done_marker: null,
      canonical_text: '<tool_call>\nread_file({\n  "path": "a.rs"\n})\n</tool_call>',
      tool_parse_errors: [],
      protocol_violations: [],
      dropped: [],
      recovered_from_stray_count: 0,
    });
  });

  it('Ex66: two fences with prose between; canonical joins blocks with one newline', () => {
    const text = `${fence('{"name": "a", "args": {}}')}\nsome prose\n${fence('{"name": "b", "args": {"k": 1}}')}`;
    const r = pinnedJsonLane(text, jsonCtx());
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([['a', {}], ['b', { k: 1 }]]);
    expect(r.prose).toBe('some prose');
    expect(r.canonical_text).toBe('<tool_call>\na({})\n</tool_call>\n<tool_call>\nb({\n  "k": 1\n})\n</tool_call>');
  });

  it('Ex67: aliases, precedence, generic wrappers, channel markers, absent and sibling arguments', () => {
    const read = (body: string) => pinnedJsonLane(fence(body), jsonCtx()).calls.map((c) => [c.name, c.arguments]);
    expect(read('{"tool": "read_file", "arguments": {"path": "a.rs"}}')).toEqual([['read_file', { path: 'a.rs' }]]);
    expect(read('{"name": "canonical", "tool": "alias", "args": {"k": 1}, "arguments": {"k": 2}}')).toEqual([['canonical', { k: 1 }]]);
    expect(read('{"name":"tool","args":{"name":"look","args":{"intent":"read","file":"src/lib.rs"}}}')).toEqual([
      ['look', { intent: 'read', file: 'src/lib.rs' }],
    ]);
    expect(read('{"name":"run<|channel|>commentary","args":{"command":"cargo test"}}')).toEqual([['run', { command: 'cargo test' }]]);
    expect(read('{"name": "list_dir"}')).toEqual([['list_dir', {}]]);
    expect(read('{"name":"look","file":"src/writer.zig","intent":"read"}')).toEqual([['look', { file: 'src/writer.zig', intent: 'read' }]]);
  });

  it('Ex68: a drifted opener runs the call and reports the spelling it saw', () => {
    for (const [text, spelling] of [
      [fence('{"name": "a", "args": {}}', 'json'), '```json'],
      [fence('{"name": "a", "args": {}}', 'tool_code'), '```tool_code'],
      [fence('{"name": "a", "args": {}}', 'tool python'), '```tool python'],
      ['~~~tool\n{"name": "a", "args": {}}\n~~~', '~~~tool'],
    ] as const) {
      const r = pinnedJsonLane(text, jsonCtx());
      expect(r.calls).toHaveLength(1);
      expect(r.protocol_violations).toHaveLength(1);
      expect(r.protocol_violations[0]?.kind).toBe('fence_dialect');
      expect(r.protocol_violations[0]?.message).toContain(`${spelling} fence`);
    }
    const broken = pinnedJsonLane(fence('not json', 'tool_code'), jsonCtx());
    expect(broken.calls).toEqual([]);
    expect(broken.protocol_violations.map((v) => v.kind)).toEqual(['fence_dialect']);
    expect(broken.tool_parse_errors).toHaveLength(1);
    expect(broken.tool_parse_errors[0]).toMatch(/^The ```tool block is not valid JSON: .*\(near `not json`\)/);
  });

  it('Ex69: a bare JSON object runs with a bare_json violation carrying the text', () => {
    const text = '{"name": "a", "args": {"k": 1}}';
    const r = pinnedJsonLane(text, jsonCtx());
    expect(r.calls).toEqual([{ id: 'tc_json', name: 'a', arguments: { k: 1 } }]);
    expect(r.prose).toBe('');
    expect(r.protocol_violations).toEqual([{ kind: 'bare_json', message: expect.stringContaining('protocol_violation:') as unknown, excerpt: text, dropped_reason: null }]);
  });

  it('Ex70: trailing bytes after a complete object keep the call and add one JSON error', () => {
    const r = pinnedJsonLane(fence('{"name": "a", "args": {}} trailing'), jsonCtx());
    expect(r.calls.map((c) => c.name)).toEqual(['a']);
    expect(r.tool_parse_errors).toHaveLength(1);
    expect(r.tool_parse_errors[0]).toContain('The ```tool block is not valid JSON: ');
    expect(r.tool_parse_errors[0]).toContain('(near `{"name": "a", "args": {}} trailing`)');
  });

  it('Ex71: a truncated string is Unterminated and runs nothing; a complete object without a close fence runs', () => {
    const cut = pinnedJsonLane('```tool\n{"name": "write_file", "args": {"content": "half a str', jsonCtx());
    expect(cut.calls).toEqual([]);
    expect(cut.tool_parse_errors).toHaveLength(1);
    expect(cut.tool_parse_errors[0]).toMatch(/^Unterminated ```tool fence opened on line 1/);
    expect(cut.dropped).toEqual([]);
    const open = pinnedJsonLane('```tool\n{"name": "a", "args": {"k": 1}}', jsonCtx());
    expect(open.calls).toEqual([{ id: 'tc_json', name: 'a', arguments: { k: 1 } }]);
    expect(open.tool_parse_errors).toEqual([]);
  });

  it('Ex72: arrays, missing names and non-object args are errors, not calls', () => {
    const errorOf = (body: string) => {
      const r = pinnedJsonLane(fence(body), jsonCtx());
      expect(r.calls).toEqual([]);
      expect(r.tool_parse_errors).toHaveLength(1);
      return r.tool_parse_errors[0];
    };
    expect(errorOf('[{"name": "a", "args": {}}]')).toContain('one or more JSON objects');
    expect(errorOf('{"args": {"path": "a"}}')).toContain('missing a non-empty string `name`');
    expect(errorOf('{"name": "  ", "args": {}}')).toContain('`name`');
    expect(errorOf('{"name": "a", "args": "oops"}')).toContain('must be a JSON object');
  });

  it('Ex73: a documentation fence stays prose and the callless turn is one unparsed_fenced_turn drop', () => {
    const text = "```python\nprint('hi')\n```";
    const r = pinnedJsonLane(text, jsonCtx());
    expect(r.calls).toEqual([]);
    expect(r.prose).toBe(text);
    expect(r.dropped).toEqual([{ text, reason: 'unparsed_fenced_turn' }]);
    expect(r.protocol_violations).toEqual([]);
  });

  it('Ex76 (pinned part): a bare call expression is reported, not run, when a registry is known', () => {
    const text = 'run({ command: "echo <x>" })';
    const r = pinnedJsonLane(text, jsonCtx(SAMPLE_TOOLS));
    expect(r.calls).toEqual([]);
    expect(r.dropped).toEqual([{ text, reason: 'unparsed_fenced_turn' }]);
    expect(r.protocol_violations.map((v) => v.kind)).toEqual(['wrong_tool_format']);
    expect(r.protocol_violations[0]?.message).toContain('`run({ ... })`');
    // Without a registry nothing is sniffed: the drop alone records the turn.
    expect(pinnedJsonLane(text, jsonCtx()).protocol_violations).toEqual([]);
  });

  it('fence content: embedded fences, close tags and heredoc-looking strings are plain JSON strings', () => {
    const read = (body: string) => pinnedJsonLane(fence(body), jsonCtx()).calls[0]?.arguments;
    expect(read('{"name": "w", "args": {"c": "before\\n```\\nafter"}}')).toEqual({ c: 'before\n```\nafter' });
    expect(read('{"name": "w", "args": {"c": "x </tool> y"}}')).toEqual({ c: 'x </tool> y' });
    expect(read('{"name": "write_file", "args": {"content": "<<EOF\\npackage main\\n"}}')).toEqual({ content: '<<EOF\npackage main\n' });
  });

  it('batches: several objects per fence, a second ```tool opener as separator, salvage before a cut tail', () => {
    const three = pinnedJsonLane(fence('{"name": "a", "args": {}}\n{"name": "b", "args": {}}\n{"name": "c", "args": {}}'), jsonCtx());
    expect(three.calls.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    const separated = pinnedJsonLane('```tool\n{"name": "a", "args": {}}\n```tool\n{"name": "b", "args": {}}', jsonCtx());
    expect(separated.calls.map((c) => c.name)).toEqual(['a', 'b']);
    expect(separated.protocol_violations).toEqual([]);
    const cut = pinnedJsonLane('```tool\n{"name": "a", "args": {}}\n{"name": "b", "args": {"file": "tr', jsonCtx());
    expect(cut.calls.map((c) => c.name)).toEqual(['a']);
    expect(cut.tool_parse_errors).toHaveLength(1);
    expect(cut.tool_parse_errors[0]).toMatch(/^Unterminated/);
  });

  it('a close-fence line inside a still-open JSON value is content, not the end of the fence', () => {
    const r = pinnedJsonLane('```tool\n{"name": "a",\n```\n"args": {}}\n```', jsonCtx());
    // The object is invalid once the fence line is inside it: an error, never a half-read call.
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors).toHaveLength(1);
  });

  it('keeps __proto__, constructor and prototype as ordinary own argument keys', () => {
    const r = pinnedJsonLane(fence('{"name": "a", "args": {"__proto__": {"x": 1}, "constructor": 2, "prototype": 3}}'), jsonCtx());
    const args = r.calls[0]?.arguments ?? {};
    expect(Object.keys(args)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toEqual({ x: 1 });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('jsonLane: verbatim bodies (Ex80-81)', () => {
  it('Ex80: a counted body may contain its own tag line; it ends on the count', () => {
    const text = '```tool\n{ "name": "write_file", "args": { "path": "a.txt", "content": "<<END:5" } }\n<<END:5\nbefore\nEND\nmiddle\nEND\nafter\nEND\n```';
    const r = pinnedJsonLane(text, jsonCtx());
    expect(r.tool_parse_errors).toEqual([]);
    expect(r.calls).toEqual([{ id: 'tc_json', name: 'write_file', arguments: { path: 'a.txt', content: 'before\nEND\nmiddle\nEND\nafter\n' } }]);
    expect(r.canonical_text).toBe('<tool_call>\nwrite_file({\n  "content": "before\\nEND\\nmiddle\\nEND\\nafter\\n",\n  "path": "a.txt"\n})\n</tool_call>');
  });

  it('a counted body keeps fences and tool openers as content', () => {
    const text = '```tool\n{ "name": "w", "args": { "content": "<<T:3" } }\n<<T:3\nline a\n```tool\nline c\nT\n```';
    expect(pinnedJsonLane(text, jsonCtx()).calls[0]?.arguments).toEqual({ content: 'line a\n```tool\nline c\n' });
  });

  it('an uncounted body runs to its tag line and has no final newline', () => {
    const text = '```tool\n{"name": "w", "args": {"content": "<<EOF"}}\n<<EOF\nfn main() {}\n```\nEOF\n```';
    const r = pinnedJsonLane(text, jsonCtx());
    expect(r.tool_parse_errors).toEqual([]);
    expect(r.calls[0]?.arguments).toEqual({ content: 'fn main() {}\n```' });
  });

  it('Ex81: an orphan trailing heredoc fails the whole body', () => {
    const text = '```tool\n{ "name": "write_file", "args": { "path": "a", "content": "x" } }\n<<ORPHAN:1\nstray\nORPHAN\n```';
    const r = pinnedJsonLane(text, jsonCtx());
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors).toHaveLength(1);
    expect(r.tool_parse_errors[0]).toContain('`<<ORPHAN:1`');
  });

  it('a declaration without its body fails loud instead of running with the placeholder', () => {
    const r = pinnedJsonLane(fence('{"name": "write_file", "args": {"path": "a", "content": "<<EOF"}}'), jsonCtx());
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors[0]).toContain('has 0 matching bodies, expected 1');
  });
});

describe('jsonLane: envelopes and <tool_call> markup on the JSON pin', () => {
  it('Ex77: a <tool_calls> marker envelope runs every object with one wrong_tool_format violation', () => {
    const r = pinnedJsonLane('<tool_calls>\n<tool>\n{"name":"look","file":"src/writer.zig"}\n{"name":"look","file":"src/parser.zig"}\n</tool_calls>', jsonCtx());
    expect(r.calls).toEqual([
      { id: 'tc_envelope', name: 'look', arguments: { file: 'src/writer.zig' } },
      { id: 'tc_envelope', name: 'look', arguments: { file: 'src/parser.zig' } },
    ]);
    expect(r.protocol_violations.map((v) => v.kind)).toEqual(['wrong_tool_format']);
    expect(r.prose).toBe('');
    expect(r.canonical_text).toBe('<tool_call>\nlook({\n  "file": "src/writer.zig"\n})\n</tool_call>\n\n<tool_call>\nlook({\n  "file": "src/parser.zig"\n})\n</tool_call>');
  });

  it('Ex77 (prose around): text before and after the envelope is read by the lane and kept as prose', () => {
    const r = pinnedJsonLane('I will read the writer next.\n<tool_calls>\n<tool>\n{"name":"look","file":"a.rs"}\n</tool_calls>\nDone reading.', jsonCtx());
    expect(r.calls.map((c) => c.name)).toEqual(['look']);
    expect(r.prose).toBe('I will read the writer next.\nDone reading.');
    expect(r.dropped).toEqual([
      { text: 'I will read the writer next.', reason: 'unparsed_fenced_turn' },
      { text: 'Done reading.', reason: 'unparsed_fenced_turn' },
    ]);
  });

  it('a run of envelopes is read in order without recursion, prose between them kept', () => {
    const unit = 'note <tool>{"name":"run","args":{}}</tool> ';
    const r = pinnedJsonLane(unit.repeat(20000) + 'tail <tool_calls><tool>{"name":"b"}</tool_calls> end', jsonCtx());
    expect(r.calls).toHaveLength(20001);
    expect(r.calls[20000]?.name).toBe('b');
    expect(r.protocol_violations).toHaveLength(20001);
    expect(r.prose.split('\n')).toHaveLength(20002);
    expect(r.prose.endsWith('tail\nend')).toBe(true);
    const broken = pinnedJsonLane('<tool>{"name":"a"}</tool> <tool_code>nope', jsonCtx());
    expect(broken.calls.map((c) => c.name)).toEqual(['a']);
    expect(broken.tool_parse_errors).toHaveLength(1);
    expect(broken.prose).toBe('<tool_code>nope');
  });

  it('Ex78: a malformed envelope runs nothing and keeps the whole text as prose', () => {
    const text = '<tool_calls><tool>{"name":"look","file":"src/lib.rs"}<tool></tool_calls>';
    const r = pinnedJsonLane(text, jsonCtx());
    expect(r.calls).toEqual([]);
    expect(r.prose).toBe(text);
    expect(r.tool_parse_errors).toHaveLength(1);
    expect(r.tool_parse_errors[0]).toMatch(/^The `<tool_calls>` chat-template envelope is malformed: a `<tool>` marker ended without a complete JSON object/);
  });

  it('Ex75: heredoc <tool_call> markup recovered by the tagged lane adds recovered_dialect', () => {
    const r = pinnedJsonLane('<tool_call>\nedit({ action: "create", path: "t.rs", content: <<EOF\nfn main() {}\nEOF\n})\n</tool_call>', jsonCtx(SAMPLE_TOOLS));
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([['edit', { action: 'create', path: 't.rs', content: 'fn main() {}' }]]);
    expect(r.protocol_violations.map((v) => v.kind)).toEqual(['recovered_dialect']);
  });

  it('Ex74: unreadable <tool_call> markup is one wrong_tool_format, the text stays prose and is recorded', () => {
    const text = '<tool_call>\na({})\n</tool_call>';
    const r = pinnedJsonLane(text, jsonCtx());
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors).toEqual([]);
    expect(r.protocol_violations.map((v) => v.kind)).toEqual(['wrong_tool_format']);
    expect(r.prose).toBe(text);
    expect(r.dropped).toEqual([{ text, reason: 'unparsed_fenced_turn' }]);
  });

  it('without heredoc recovery the same markup is read as fences and prose only', () => {
    const text = '<tool_call>\na({})\n</tool_call>';
    const r = jsonLane(text, jsonCtx());
    expect(r.protocol_violations).toEqual([]);
    expect(r.dropped).toEqual([{ text, reason: 'unparsed_fenced_turn' }]);
  });
});
