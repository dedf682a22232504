import { describe, expect, it } from 'vitest';
import { jsonCallFromBody } from './json-body.js';
import { jsonFields } from './json-fields.js';
import { labelBody } from './label.js';
import { sample } from './registries.spec.js';

describe('labelBody', () => {
  it('passes JSON through and reads a label alone on the first line', () => {
    expect(labelBody('  {"name":"run"} ')).toEqual({ ok: true, body: '{"name":"run"}', nameHint: '' });
    expect(labelBody('[1]')).toEqual({ ok: true, body: '[1]', nameHint: '' });
    expect(labelBody('run\n{"command": "ls"}\n')).toEqual({ ok: true, body: '{"command": "ls"}', nameHint: 'run' });
    expect(labelBody('repo_browser.open-file \t\r\n  {"a":1}')).toEqual({ ok: true, body: '{"a":1}', nameHint: 'repo_browser.open-file' });
  });

  it('refuses a label that is not alone on its line, too long, or not followed by JSON', () => {
    expect(labelBody('run {"command": "ls"}')).toEqual({ ok: false });
    expect(labelBody('run\nls -la')).toEqual({ ok: false });
    expect(labelBody('9run\n{}')).toEqual({ ok: false });
    expect(labelBody(`${'a'.repeat(64)}\n{}`)).toMatchObject({ ok: true, nameHint: 'a'.repeat(64) });
    expect(labelBody(`${'a'.repeat(65)}\n{}`)).toEqual({ ok: false });
    expect(labelBody('')).toEqual({ ok: false });
  });
});

describe('jsonFields', () => {
  it('takes the first non-blank name key and the first present argument key', () => {
    expect(jsonFields({ tool_name: ' look ', name: '  ', args: { a: 1 }, arguments: { b: 2 } }))
      .toEqual({ name: 'look', arguments: { a: 1 }, argumentsFrom: 'args' });
    expect(jsonFields({ tool: 'run', args: null, parameters: {} })).toEqual({ name: 'run', arguments: {}, argumentsFrom: 'parameters' });
  });

  it('uses the sibling keys when no argument key is present', () => {
    expect(jsonFields({ name: 'look', id: 'x', file: 'a.zig', intent: 'read' }))
      .toEqual({ name: 'look', arguments: { file: 'a.zig', intent: 'read' }, argumentsFrom: 'siblings' });
  });

  it('keeps `__proto__` siblings as own keys', () => {
    const item = JSON.parse('{"name":"run","__proto__":{"x":1}}') as Record<string, unknown>;
    const args = jsonFields(item).arguments as Record<string, unknown>;
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(args['x']).toBeUndefined();
  });
});

describe('jsonCallFromBody', () => {
  it('reads a JSON body and decodes entities once (Ex42)', () => {
    const body = '{"name":"edit","arguments":{"action":"create","path":"a.ts","content":"if (a &lt;= b &amp;&amp; b &gt;= 0) {}"}}';
    expect(jsonCallFromBody(body, sample())).toEqual({
      ok: true,
      call: { id: 'tc_json', name: 'edit', arguments: { action: 'create', path: 'a.ts', content: 'if (a <= b && b >= 0) {}' } },
    });
    const twice = jsonCallFromBody('{"name":"edit","arguments":{"content":"<p>a &amp;lt; b &amp;amp; c</p>"}}', sample());
    expect(twice.ok && twice.call.arguments).toEqual({ content: '<p>a &lt; b &amp; c</p>' });
  });

  it('takes the name from the label hint and the arguments from sibling keys (Ex43)', () => {
    expect(jsonCallFromBody('{"command": "ls"}', sample(), 'run')).toEqual({
      ok: true,
      call: { id: 'tc_json', name: 'run', arguments: { command: 'ls' } },
    });
  });

  it('uses the object id as the provisional id and decodes string arguments', () => {
    const r = jsonCallFromBody('[{"id": 7, "name": "run", "arguments": "{\\"command\\": \\"ls\\"}"}]', sample());
    expect(r).toEqual({ ok: true, call: { id: '7', name: 'run', arguments: { command: 'ls' } } });
  });

  it('diagnoses each way a JSON body can fail', () => {
    const cases: [string, RegExp][] = [
      ['{"name": "run", ', /^<tool_call> body looked like JSON but is not valid JSON: /],
      ['{"name":"run"} {"name":"run"}', /^<tool_call> body looked like JSON but is not valid JSON: /],
      ['[{"name":"run"},{"name":"run"}]', /^<tool_call> JSON array held 2 calls/],
      ['[]', /^<tool_call> JSON array held 0 calls/],
      ['"run"', /^<tool_call> JSON body must be an object; got `"run"`\.$/],
      ['{"arguments": {}}', /^<tool_call> JSON body did not name a tool$/],
      ['{"name": "frob"}', /^Unknown tool 'frob'\. Available tools: \[edit, ledger, load_skill, run\]$/],
      ['{"name": "run", "arguments": "{nope"}', /^Could not parse JSON string arguments for tool 'run': /],
      ['{"name": "run", "arguments": [1]}', /^Tool 'run' arguments must be a JSON object; got `\[1\]`\.$/],
    ];
    for (const [body, pattern] of cases) {
      const r = jsonCallFromBody(body, sample());
      expect(r.ok, body).toBe(false);
      expect(!r.ok && r.error, body).toMatch(pattern);
    }
  });

  it('does not read the OpenAI `function` shape (the sniffer owns it)', () => {
    expect(jsonCallFromBody('{"function": {"name": "run", "arguments": "{}"}}', sample())).toMatchObject({ ok: false });
  });
});
