import { describe, expect, it } from 'vitest';
import { parseMarkup } from './markup.js';
import { TRUNCATED_PREFIX } from './messages.js';
import { corpus, echo, sample } from './registries.spec.js';

describe('parseMarkup', () => {
  it('reads `<function=…>` with `<parameter=…>` blocks, unframing each value (Ex31)', () => {
    const r = parseMarkup('<function=run>\n<parameter=command>\ngo test ./...\n</parameter>\n</function>', sample());
    expect(r).toEqual({
      ok: true,
      matched: true,
      rung: 'function-markup',
      call: { id: 'tc_fnmarkup_run', name: 'run', arguments: { command: 'go test ./...' } },
    });
  });

  it('keeps string-typed values verbatim, inner blank lines included (Ex32)', () => {
    const body = '<function=edit>\n<parameter=action>\ncreate\n</parameter>\n<parameter=path>\ninternal/handlers/health.go\n</parameter>\n' +
      '<parameter=content>\npackage handlers\n\n// Health returns 200.\nfunc Health() int { return 200 }\n</parameter>\n</function>';
    const r = parseMarkup(body, sample());
    expect(r.ok && r.call.arguments).toEqual({
      action: 'create',
      path: 'internal/handlers/health.go',
      content: 'package handlers\n\n// Health returns 200.\nfunc Health() int { return 200 }',
    });
  });

  it('types values by the registry: strings stay text, lists are read as JSON', () => {
    const r = parseMarkup('<function=edit>\n<parameter=content>\n123\n</parameter>\n<parameter=ops>\n[{"op": "a"}]\n</parameter>\n</function>', sample());
    expect(r.ok && r.call.arguments).toEqual({ content: '123', ops: [{ op: 'a' }] });
  });

  it('falls back to the text when a typed value is not JSON', () => {
    const r = parseMarkup('<function=edit><parameter=ops>not json</parameter></function>', sample());
    expect(r.ok && r.call.arguments).toEqual({ ops: 'not json' });
  });

  it('keeps a heredoc inside a string parameter literally', () => {
    const r = parseMarkup('<function=edit><parameter=content><<EOF\nx &lt; y\nEOF</parameter></function>', sample());
    expect(r.ok && r.call.arguments).toEqual({ content: '<<EOF\nx &lt; y\nEOF' });
  });

  it('reads `<invoke name="…">` with `name="…"` parameters and extra attributes (Ex38)', () => {
    const body = '<invoke name="look">\n<parameter name="file" string="true">src/main.zig</parameter>\n<parameter name="intent" string="true">read</parameter>\n</invoke>';
    const r = parseMarkup(body, corpus());
    expect(r.ok && r.call).toEqual({ id: 'tc_fnmarkup_look', name: 'look', arguments: { file: 'src/main.zig', intent: 'read' } });
  });

  it('lets a later duplicate parameter overwrite an earlier one', () => {
    const r = parseMarkup('<function=run><parameter=command>a</parameter><parameter=command>b</parameter></function>', sample());
    expect(r.ok && r.call.arguments).toEqual({ command: 'b' });
  });

  it('tolerates a missing outer close tag', () => {
    const r = parseMarkup('<function=run>\n<parameter=command>\nls\n</parameter>', sample());
    expect(r.ok && r.call.arguments).toEqual({ command: 'ls' });
  });

  it('accepts a bare opener as a call with no arguments', () => {
    expect(parseMarkup('<function=run></function>', sample())).toMatchObject({ ok: true, call: { name: 'run', arguments: {} } });
  });

  it('trims the name before removing its quotes, so `<invoke name="run" >` names run', () => {
    expect(parseMarkup('<invoke name="run" ><parameter name="command">ls</parameter></invoke>', sample()))
      .toMatchObject({ ok: true, call: { name: 'run', arguments: { command: 'ls' } } });
  });

  it('reads trailing JSON arguments, entity-decoded (Ex36)', () => {
    const expected = { id: 'tc_fnmarkup_echo_marker', name: 'echo_marker', arguments: { value: 'MK-7Q3Z' } };
    for (const text of [
      '<function=echo_marker>{"value": "MK-7Q3Z"}',
      '<function=echo_marker>{"value": "MK-7Q3Z"}</function>',
      '<invoke name="echo_marker">{"value": "MK-7Q3Z"}</invoke>',
    ]) {
      const r = parseMarkup(text, echo());
      expect(r.ok && r.call, text).toEqual(expected);
    }
    expect(parseMarkup('<function=echo_marker>{}', echo())).toMatchObject({ ok: true, call: { arguments: {} } });
  });

  it('diagnoses truncated trailing JSON with the TRUNCATED prefix (Ex37)', () => {
    const r = parseMarkup('<function=echo_marker>{"value": "MK-7Q3Z"', echo());
    expect(r.ok).toBe(false);
    expect(r.matched).toBe(true);
    expect(!r.ok && r.matched && r.error.startsWith(TRUNCATED_PREFIX)).toBe(true);
    expect(!r.ok && r.matched && r.error).toContain('echo_marker');
  });

  it('diagnoses trailing JSON that is not an object or not valid', () => {
    const bad = parseMarkup('<function=echo_marker>{"value": tru}', echo());
    expect(bad).toMatchObject({ ok: false, matched: true });
    expect(!bad.ok && bad.matched && bad.error).toMatch(/^The `<function=\.\.\.>` markup for `echo_marker`/);
  });

  it('diagnoses an open tag cut off before `>`', () => {
    for (const [text, subject] of [['<function=ed', 'a `<function=`'], ['<invoke name="ed', 'an `<invoke name=`']] as const) {
      const r = parseMarkup(text, sample());
      expect(r, text).toMatchObject({ ok: false, matched: true });
      expect(!r.ok && r.matched && r.error.startsWith(`${TRUNCATED_PREFIX}${subject}`), text).toBe(true);
    }
  });

  it('diagnoses a parameter block that never closes (Ex33)', () => {
    const r = parseMarkup('<function=edit>\n<parameter=action>\ncreate\n</parameter>\n<parameter=content>\npackage handlers\n', sample());
    expect(r).toMatchObject({ ok: false, matched: true });
    expect(!r.ok && r.matched && r.error).toMatch(/^TOOL CALL TRUNCATED: a `<parameter \.\.\.>` block in the `<function=\.\.\.>` markup for `edit`/);
  });

  it('diagnoses two calls in one markup block', () => {
    const r = parseMarkup('<function=run><parameter=command>a</parameter><function=run><parameter=command>b</parameter></function>', sample());
    expect(r).toMatchObject({ ok: false, matched: true });
    expect(!r.ok && r.matched && r.error).toContain('more than one call');
  });

  it('names an unregistered tool and lists the registry (Ex34)', () => {
    const r = parseMarkup('<function=frobnicate>\n<parameter=level>\n9\n</parameter>\n</function>', sample());
    expect(r).toMatchObject({ ok: false, matched: true });
    expect(!r.ok && r.matched && r.error).toMatch(/^Unknown tool 'frobnicate' in chat-template `<function=\.\.\.>` tool-call markup\. Available tools: \[edit, ledger, load_skill, run\]$/);
  });

  it('is not markup when the name is not a plausible identifier (Ex40) or the text does not open with markup', () => {
    expect(parseMarkup('<function=a b>\n<user_response>hi</user_response>', sample())).toEqual({ ok: false, matched: false });
    expect(parseMarkup('<function=a tool of your choice>', sample())).toEqual({ ok: false, matched: false });
    expect(parseMarkup('run({})', sample())).toEqual({ ok: false, matched: false });
    expect(parseMarkup('', sample())).toEqual({ ok: false, matched: false });
  });

  it('keeps `__proto__` as an ordinary own argument key', () => {
    const r = parseMarkup('<function=run><parameter=__proto__>{"x":1}</parameter></function>', sample());
    expect(r.ok).toBe(true);
    const args = r.ok ? r.call.arguments : {};
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect((args as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('throws a TypeError naming the field on non-string text (programmer misuse)', () => {
    expect(() => parseMarkup(null as unknown as string, sample())).toThrow(TypeError);
  });
});
