// Escape fidelity (docs/design.md, "Escape fidelity") and entity decoding (docs/design.md, "Entities") as seen through the body
// ladder: which rungs decode entities, and which channels yield identical bytes.
import { describe, expect, it } from 'vitest';
import { callFromBody } from './body.js';
import { sample } from './registries.spec.js';

const argsOf = (body: string, head?: { name: string; sep: '(' | '{' }): unknown => {
  const r = callFromBody(body, sample(), head);
  return r.ok && r.call ? r.call.arguments : r;
};

describe('escape fidelity through the ladder (Ex85)', () => {
  it('combines a surrogate pair written as two \\u escapes', () => {
    expect(argsOf('run({ command: "hi \\uD83D\\uDE00 there" })', { name: 'run', sep: '(' })).toEqual({ command: 'hi 😀 there' });
  });

  it('keeps unknown escapes, so quoted, template and heredoc spellings agree', () => {
    const expected = { action: 'create', path: 're.py', content: "p = '\\d+\\w*'" };
    expect(argsOf(`edit({ action: "create", path: "re.py", content: "p = '\\d+\\w*'" })`, { name: 'edit', sep: '(' })).toEqual(expected);
    expect(argsOf("edit({ action: \"create\", path: \"re.py\", content: `p = '\\d+\\w*'` })", { name: 'edit', sep: '(' })).toEqual(expected);
    expect(argsOf("edit({ action: \"create\", path: \"re.py\", content: <<EOF\np = '\\d+\\w*'\nEOF\n})", { name: 'edit', sep: '(' })).toEqual(expected);
  });

  it('reports a lone high surrogate as a parse error, not a call', () => {
    const r = callFromBody('run({ command: "x \\uD83D y" })', sample(), { name: 'run', sep: '(' });
    expect(r).toMatchObject({ ok: false, rung: 'bare-call' });
    expect(!r.ok && r.error).toMatch(/^TOOL CALL PARSE ERROR/);
  });
});

describe('entity decoding by rung (4.12)', () => {
  it('decodes JSON bodies and nested XML, never TS literals or heredocs', () => {
    expect(argsOf('{"name":"run","arguments":{"command":"a &lt; b"}}')).toEqual({ command: 'a < b' });
    expect(argsOf('<run>{"command":"a &lt; b"}</run>')).toEqual({ command: 'a < b' });
    expect(argsOf('run({ command: "a &lt; b" })', { name: 'run', sep: '(' })).toEqual({ command: 'a &lt; b' });
    expect(argsOf('edit({ action: "create", path: "a", content: <<EOF\n<p>a &lt; b</p>\nEOF\n})', { name: 'edit', sep: '(' }))
      .toEqual({ action: 'create', path: 'a', content: '<p>a &lt; b</p>' });
    expect(argsOf('<function=run><parameter=command>a &lt; b</parameter></function>')).toEqual({ command: 'a &lt; b' });
  });

  it('decodes once and leaves bare ampersands and unknown references', () => {
    expect(argsOf('{"name":"run","arguments":{"command":"&amp;lt; &quot;x&#39; &apos; R&D &amp &nbsp;"}}'))
      .toEqual({ command: '&lt; "x\' \' R&D &amp &nbsp;' });
  });
});

describe('bodies without a head (envelope bodies, Ex58, Ex59)', () => {
  it('reads a bare call through the sniffer rung', () => {
    expect(callFromBody('run({ command: "ls" })', sample())).toEqual({
      ok: true,
      call: { id: 'tc_0', name: 'run', arguments: { command: 'ls' } },
      rung: 'bare-call',
    });
    expect(callFromBody('\nedit({ action: "create", path: "a.rs" })\n', sample())).toMatchObject({
      ok: true,
      rung: 'bare-call',
      call: { name: 'edit', arguments: { action: 'create', path: 'a.rs' } },
    });
  });

  it('keeps `__proto__` in a JSON body as an own key', () => {
    const args = argsOf('{"name":"run","arguments":{"__proto__":{"polluted":true},"command":"ls"}}') as Record<string, unknown>;
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(args['polluted']).toBeUndefined();
  });
});
