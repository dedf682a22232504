import { describe, expect, it } from 'vitest';
import { normalizeTools } from '../../dialects/registry.js';
import { JsonReader } from './json-values.js';
import { knownNamesOf } from './names.js';
import { nativeJsonCalls } from './native-json.js';

const KNOWN = knownNamesOf(normalizeTools(['look', 'run', 'edit']));
const read = (text: string) => nativeJsonCalls(text, KNOWN, { steps: 0 });

describe('JsonReader', () => {
  it('reads strict JSON documents', () => {
    const text = '{"a": [1, -2.5e3, true, null, "x\\u00e9\\ud83d\\ude00\\n"]} ';
    const doc = new JsonReader(text, { steps: 0 }).document();
    expect(doc).toEqual({ ok: true, value: { a: [1, -2500, true, null, 'xé😀\n'] }, end: text.length - 1 });
  });

  it('rejects what serde_json rejects', () => {
    for (const bad of ['{"a": 1,}', "{'a': 1}", '[01]', '"\\ud83d"', '"a\nb"', '{"a": 1} x', '[1 2]', '{a: 1}', '"\\x41"']) {
      expect(new JsonReader(bad, { steps: 0 }).document().ok, bad).toBe(false);
    }
  });

  it('tells a cut-off value from an invalid one', () => {
    expect(new JsonReader('{"a": [1, 2', { steps: 0 }).document()).toMatchObject({ ok: false, eof: true });
    expect(new JsonReader('{"a": ]', { steps: 0 }).document()).toMatchObject({ ok: false, eof: false });
  });

  it('keeps __proto__ as an own key', () => {
    const doc = new JsonReader('{"__proto__": {"x": 1}}', { steps: 0 }).document();
    const value = doc.ok ? (doc.value as Record<string, unknown>) : {};
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe('nativeJsonCalls', () => {
  it('reads an OpenAI array, decoding string arguments and keeping ids', () => {
    const text = 'ok [{"id":"call_1","type":"function","function":{"name":"run","arguments":"{\\"command\\":\\"ls\\"}"}},{"function":{"name":"look","arguments":{"path":"a"}}}]';
    expect(read(text)).toEqual({
      calls: [
        { id: 'call_1', name: 'run', arguments: { command: 'ls' } },
        { id: 'native_fallback', name: 'look', arguments: { path: 'a' } },
      ],
      errors: [],
      payload: [3, text.length],
    });
  });

  it('skips prose JSON and finds a later payload, including one inside an earlier broken value', () => {
    expect(read('config {"name": "pkg", "version": 1} then {"name": "look", "parameters": {}}').calls).toEqual([
      { id: 'native_fallback', name: 'look', arguments: {} },
    ]);
    expect(read('{"note": "x [{"name": "run", "arguments": {}}]').calls.map((c) => c.name)).toEqual(['run']);
    expect(read('{"data": [{"function": {"name": "run"}}]}').calls).toEqual([{ id: 'native_fallback', name: 'run', arguments: {} }]);
    expect(read('We should look.\n\n{"tool":"look","arguments":{"path":"a"}}')).toMatchObject({ calls: [{ name: 'look' }], payload: [17, 57] });
  });

  it('reports unknown names and undecodable arguments', () => {
    const result = read('[{"function":{"name":"nope","arguments":"{}"}},{"function":{"name":"run","arguments":"{oops"}},{"function":{"name":"run","arguments":"[1]"}}]');
    expect(result.calls).toEqual([]);
    expect(result.errors).toHaveLength(3);
    expect(result.errors[0]).toMatch(/^Unknown tool 'nope'/);
    expect(result.errors[1]).toMatch(/^Could not parse arguments for tool 'run': .*Raw: \{oops$/);
    expect(result.errors[2]).toMatch(/^Could not parse arguments for tool 'run': expected a JSON object/);
  });

  it('folds wrapper items onto registered tools', () => {
    expect(read('[{"function":{"name":"tool.call","arguments":"{\\"name\\":\\"look\\",\\"args\\":{\\"path\\":\\"a\\"}}"}}]').calls).toEqual([
      { id: 'native_fallback', name: 'look', arguments: { path: 'a' } },
    ]);
  });

  it('finds nothing in text without a call payload', () => {
    expect(read('{"a": 1} [1, 2] {"name": "x"}')).toEqual({ calls: [], errors: [], payload: [0, 0] });
  });
});

describe('nativeJsonCalls with look-alike rules (the gateway profile)', () => {
  const registry = normalizeTools(['look', 'run']);
  const reference = knownNamesOf(registry);
  const gateway = { has: (name: string) => reference.has(name), sorted: reference.sorted, folds: false, lookAlikes: true };
  const schema = '{"name": "look", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}';

  it('an unregistered name beside prose is a mention: no call, no error', () => {
    const text = 'For example, {"name": "send_email", "arguments": {"to": "a@b.c"}} would do it.';
    expect(nativeJsonCalls(text, gateway, { steps: 0 })).toMatchObject({ calls: [], errors: [] });
    expect(nativeJsonCalls(text, reference, { steps: 0 }).errors).toHaveLength(1);
  });

  it('an unregistered name that is the whole response is still reported', () => {
    expect(nativeJsonCalls('{"name": "send_email", "arguments": {"to": "a@b.c"}}', gateway, { steps: 0 }).errors).toHaveLength(1);
  });

  it('a tool declaration quoted back (parameters holding a JSON Schema) is not a call', () => {
    expect(nativeJsonCalls(`It is declared as ${schema} here.`, gateway, { steps: 0 }).calls).toEqual([]);
    expect(nativeJsonCalls(schema, gateway, { steps: 0 }).calls).toEqual([]);
    // The reference rules read it as before.
    expect(nativeJsonCalls(schema, reference, { steps: 0 }).calls.map((c) => c.name)).toEqual(['look']);
  });

  it('arguments that merely hold a `type` key are still a call', () => {
    const text = 'Running {"name": "run", "parameters": {"type": "object", "command": "ls"}} now.';
    expect(nativeJsonCalls(text, gateway, { steps: 0 }).calls.map((c) => c.name)).toEqual(['run']);
  });
});

describe('nativeJsonCalls: a payload nested in another JSON value', () => {
  const nested = 'Before.\n{"calls": [{"name": "look", "arguments": {"path": "a"}}]}\nAfter.';
  const inner = '[{"name": "look", "arguments": {"path": "a"}}]';

  it('under gateway, cuts the whole value the payload stands in, so no wrapper is left in the prose', () => {
    const gatewayKnown = { ...KNOWN, folds: false, lookAlikes: true };
    const found = nativeJsonCalls(nested, gatewayKnown, { steps: 0 });
    expect(found.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'a' }]]);
    const start = nested.indexOf('{"calls"');
    expect(found.payload).toEqual([start, nested.indexOf('\nAfter.')]);
  });

  it('as the reference, cuts the payload alone', () => {
    const found = read(nested);
    expect(found.calls.map((c) => c.name)).toEqual(['look']);
    expect(found.payload).toEqual([nested.indexOf(inner), nested.indexOf(inner) + inner.length]);
  });

  it('keeps a value that ends before the payload out of its span', () => {
    const text = 'See {"a": 1} and then {"name": "look", "arguments": {"path": "b"}} here.';
    const gatewayKnown = { ...KNOWN, folds: false, lookAlikes: true };
    const at = text.indexOf('{"name"');
    expect(nativeJsonCalls(text, gatewayKnown, { steps: 0 }).payload).toEqual([at, text.indexOf(' here.')]);
  });
});
