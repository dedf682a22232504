import { describe, expect, it } from 'vitest';
import { callFromBody } from './body.js';
import { corpus, sample } from './registries.spec.js';

describe('callFromBody', () => {
  it('takes a complete call under a registered head (Ex1, Ex2)', () => {
    expect(callFromBody('\nrun({ command: "ls" })\n', sample(), { name: 'run', sep: '(' })).toEqual({
      ok: true,
      call: { id: 'tc_0', name: 'run', arguments: { command: 'ls' } },
      rung: 'direct-head',
    });
    expect(callFromBody('run{ command: "ls" }', sample(), { name: 'run', sep: '{' })).toEqual({
      ok: true,
      call: { id: 'tc_0', name: 'run', arguments: { command: 'ls' } },
      rung: 'direct-head',
    });
  });

  it("uses the scanner's direct parse when it has one", () => {
    const body = 'run({ command: "ls" })';
    const direct = { ok: true as const, arguments: { command: 'from-scanner' }, consumed: body.length };
    expect(callFromBody(body, sample(), { name: 'run', sep: '(' }, direct)).toMatchObject({
      rung: 'direct-head',
      call: { arguments: { command: 'from-scanner' } },
    });
  });

  it('skips the direct rung for an unregistered head or a parse that leaves text behind', () => {
    const trailing = callFromBody('run({ command: "a" }) and then more', sample(), { name: 'run', sep: '(' });
    expect(trailing.rung).not.toBe('direct-head');
    const unknown = callFromBody('frob({ a: 1 })', sample(), { name: 'frob', sep: '(' });
    expect(unknown).toMatchObject({ ok: false, rung: 'bare-call' });
  });

  it('reads chat-template markup inside the block without a violation (Ex32)', () => {
    const r = callFromBody('\n<function=edit>\n<parameter=action>\ncreate\n</parameter>\n<parameter=path>\na.go\n</parameter>\n</function>\n', sample());
    expect(r).toEqual({ ok: true, call: { id: 'tc_fnmarkup_edit', name: 'edit', arguments: { action: 'create', path: 'a.go' } }, rung: 'function-markup' });
  });

  it('keeps a markup diagnosis as a matched failure (Ex33, Ex34)', () => {
    const r = callFromBody('<function=frobnicate>\n</function>', sample());
    expect(r).toMatchObject({ ok: false, matched: true, rung: 'function-markup' });
  });

  it('reads a nested XML body (Ex41)', () => {
    const r = callFromBody('<edit>{"action":"create","path":"a.ts","content":"x =&gt; x"}</edit>', sample());
    expect(r).toEqual({ ok: true, call: { id: 'tc_xml_edit', name: 'edit', arguments: { action: 'create', path: 'a.ts', content: 'x => x' } }, rung: 'nested-xml' });
  });

  it('reads a JSON body and a labelled JSON body (Ex42, Ex43)', () => {
    expect(callFromBody('{"name":"run","arguments":{"command":"ls"}}', sample()))
      .toEqual({ ok: true, call: { id: 'tc_json', name: 'run', arguments: { command: 'ls' } }, rung: 'json-body' });
    expect(callFromBody('run\n{"command": "ls"}\n', sample()))
      .toEqual({ ok: true, call: { id: 'tc_json', name: 'run', arguments: { command: 'ls' } }, rung: 'json-body' });
  });

  it('reports a JSON body failure as unmatched (so an unclosed block turns it into TRUNCATED)', () => {
    const r = callFromBody('{"name":"run","args":{"command":"ls"}}\n{"name":"run","args":{"command":"pwd"}}', sample());
    expect(r).toMatchObject({ ok: false, rung: 'json-body' });
    expect(!r.ok && r.matched).toBeFalsy();
    expect(!r.ok && r.error).toMatch(/^<tool_call> body looked like JSON/);
  });

  it('peels narration around a call and keeps it as prose (Ex44)', () => {
    expect(callFromBody('\n<thinking>I should list files.</thinking>\nrun({ command: "ls" })\n', sample())).toEqual({
      ok: true,
      call: { id: 'tc_0', name: 'run', arguments: { command: 'ls' } },
      prose: ['I should list files.'],
      rung: 'narration',
    });
  });

  it('takes plain narration wrongly wrapped as prose, with no error (Ex45, Ex49)', () => {
    expect(callFromBody('Reading the file.', sample())).toEqual({ ok: true, prose: ['Reading the file.'], rung: 'narration' });
    expect(callFromBody('frob{ x: 1 }', sample())).toEqual({ ok: true, prose: ['frob{ x: 1 }'], rung: 'narration' });
  });

  it('keeps narration peeled at every level, in order', () => {
    expect(callFromBody('<thinking>a</thinking><assistant_prose>b</assistant_prose>', sample()))
      .toEqual({ ok: true, prose: ['a', 'b'], rung: 'narration' });
    expect(callFromBody('<reasoning>r</reasoning>\nStill thinking.', sample()))
      .toEqual({ ok: true, prose: ['r', 'Still thinking.'], rung: 'narration' });
  });

  it('reports a failure under narration as a matched narration failure', () => {
    const r = callFromBody('<thinking>x</thinking>\nfrob({ a: 1 })', sample());
    expect(r).toMatchObject({ ok: false, matched: true, rung: 'narration' });
    expect(!r.ok && r.error).toContain("Unknown tool 'frob'");
  });

  it('survives deeply stacked narration without recursion', () => {
    const body = `${'<reasoning>x</reasoning>'.repeat(20_000)}run({ command: "ls" })`;
    const r = callFromBody(body, sample());
    expect(r).toMatchObject({ ok: true, rung: 'narration', call: { name: 'run' } });
    expect(r.ok && r.prose?.length).toBe(20_000);
  });

  it('takes exactly one sniffed call, folding aliases the sniffer knows (corpus: edit action verb)', () => {
    const body = '\nreplace_range({\n    "path": "src/main.zig",\n    "range_start": 71,\n    "range_end": 84,\n    "content": <<EOF\n    } else {\nEOF\n})\n';
    const r = callFromBody(body, corpus(), { name: 'replace_range', sep: '(' });
    expect(r).toMatchObject({ ok: true, rung: 'bare-call', call: { name: 'edit', arguments: { action: 'replace_range', path: 'src/main.zig', range_start: 71 } } });
  });

  it('refuses two calls in one block (Ex46)', () => {
    const r = callFromBody('\nrun({ command: "a" })\nrun({ command: "b" })\n', sample(), { name: 'run', sep: '(' });
    expect(r).toMatchObject({ ok: false, rung: 'bare-call' });
    expect(!r.ok && r.error).toMatch(/^<tool_call> body contained 2 calls/);
  });

  it('carries the first sniffer diagnostic', () => {
    const r = callFromBody('frob({ a: 1 })', sample());
    expect(r).toMatchObject({ ok: false, rung: 'bare-call' });
    expect(!r.ok && r.error).toContain("Unknown tool 'frob'");
  });

  it('names an empty body (Ex47)', () => {
    for (const body of ['', '  \n\t ']) {
      const r = callFromBody(body, sample());
      expect(r).toMatchObject({ ok: false, rung: 'empty-body' });
      expect(!r.ok && r.error).toMatch(/^<tool_call> body did not contain a bare `name\(\{ \.\.\. \}\)` expression\. Got: ""$/);
    }
  });

  it('shows the body it could not read, JSON-quoted', () => {
    const r = callFromBody('<thinking>unterminated\n{', sample());
    expect(!r.ok && r.error).toBe(`<tool_call> body did not contain a bare \`name({ ... })\` expression. Got: ${JSON.stringify('<thinking>unterminated\n{')}`);
  });

  it('throws a TypeError naming the field on a non-string body (programmer misuse)', () => {
    expect(() => callFromBody(42 as unknown as string, sample())).toThrow(new TypeError('callFromBody: body must be a string; got number'));
  });
});
