import { describe, expect, it } from 'vitest';
import { dsmlResult } from './dsml.js';
import { mistralResult } from './mistral.js';
import { textCtx } from '../../../test/support/compose-contexts.js';

const ctx = textCtx();
const D = '<\uff5cDSML\uff5c';
const DC = '</\uff5cDSML\uff5c';
const param = (name: string, value: string, string?: 'true' | 'false') =>
  `${D}parameter name="${name}"${string ? ` string="${string}"` : ''}>${value}${DC}parameter>`;
const invoke = (name: string, ...params: string[]) => `${D}invoke name="${name}">\n${params.join('\n')}\n${DC}invoke>`;

describe('mistralResult (Ex53-55)', () => {
  it('is null without the marker', () => {
    expect(mistralResult('no marker here', ctx)).toBeNull();
  });

  it('Ex53: name[ARGS]{...} is one tc_mistral_0 call with prose before the marker', () => {
    const r = mistralResult('I\'ll inspect first.[TOOL_CALLS]edit[ARGS]{"action":"create","path":"a.rs"}', ctx);
    expect(r?.calls).toEqual([{ id: 'tc_mistral_0', name: 'edit', arguments: { action: 'create', path: 'a.rs' } }]);
    expect(r?.protocol_violations.map((v) => v.kind)).toEqual(['provider_dialect']);
    expect(r?.prose).toBe("I'll inspect first.");
    expect(r?.canonical_text).toBe('<assistant_prose>\nI\'ll inspect first.\n</assistant_prose>\n\n<tool_call>\nedit({\n  "action": "create",\n  "path": "a.rs"\n})\n</tool_call>');
    expect(r?.dropped).toEqual([]);
  });

  it('Ex54: a JSON array payload decodes string arguments; only the first value is read', () => {
    const r = mistralResult(
      'I\'ll inspect first.\n[TOOL_CALLS] [{"name":"edit","arguments":{"action":"create","path":"a.rs"}},{"name":"run","arguments":"{\\"command\\":\\"cargo test\\"}"}] [{"name":"run"}]',
      ctx,
    );
    expect(r?.calls).toEqual([
      { id: 'tc_json', name: 'edit', arguments: { action: 'create', path: 'a.rs' } },
      { id: 'tc_json', name: 'run', arguments: { command: 'cargo test' } },
    ]);
    expect(r?.tool_parse_errors).toEqual([]);
    expect(r?.dropped).toEqual([{ text: '[{"name":"run"}]', reason: 'salvaged_as_prose' }]);
  });

  it('Ex55 and other faults are errors with no violation', () => {
    const errorsOf = (text: string) => {
      const r = mistralResult(text, ctx);
      expect(r?.calls).toEqual([]);
      expect(r?.protocol_violations).toEqual([]);
      return r?.tool_parse_errors ?? [];
    };
    expect(errorsOf('[TOOL_CALLS]edit{"action":"create"}')).toEqual(['Mistral [TOOL_CALLS] marker was missing a tool name.']);
    expect(errorsOf('[TOOL_CALLS]search[ARGS]{}')).toEqual(["Unknown tool 'search' in Mistral [TOOL_CALLS] marker."]);
    expect(errorsOf('[TOOL_CALLS]run[ARGS]{command: "ls"}')[0]).toContain('not valid JSON');
    expect(errorsOf('[TOOL_CALLS]run[ARGS][1, 2]')[0]).toContain('must be a JSON object');
    expect(errorsOf('[TOOL_CALLS][{"name":"search","arguments":{}}]')).toEqual(["Unknown tool 'search' in Mistral [TOOL_CALLS] JSON payload."]);
    expect(errorsOf('[TOOL_CALLS] [{"name":"run"')[0]).toContain('empty payload');
    expect(errorsOf('[TOOL_CALLS] {nope}')[0]).toMatch(/^Mistral \[TOOL_CALLS\] JSON payload did not parse: /);
  });
});

describe('dsmlResult (Ex56)', () => {
  it('is null without the marker', () => {
    expect(dsmlResult('<|DSML|invoke name="run">', ctx)).toBeNull();
  });

  it('Ex56: complete invokes become calls in order; prose stops at the leftover marker; the cut tail is recorded', () => {
    const text =
      "I'll inspect first.\n" +
      `${D}tool_calls>\n${invoke('edit', param('action', 'create', 'true'), param('path', 'a.rs', 'true'), param('content', 'fn main() {}', 'true'))}\n${DC}tool_calls>` +
      `${D}function_calls>\n${invoke('run', param('command', '["cargo", "test"]', 'false'))}\n${DC}function_calls>` +
      `${D}function_calls>\n${D}invoke name="edit">`;
    const r = dsmlResult(text, ctx);
    expect(r?.calls).toEqual([
      { id: 'tc_dsml_0', name: 'edit', arguments: { action: 'create', path: 'a.rs', content: 'fn main() {}' } },
      { id: 'tc_dsml_1', name: 'run', arguments: { command: ['cargo', 'test'] } },
    ]);
    expect(r?.tool_parse_errors).toEqual([]);
    expect(r?.protocol_violations).toEqual([]);
    expect(r?.prose).toBe("I'll inspect first.");
    expect(r?.dropped).toEqual([{ text: `${D}function_calls>\n${D}invoke name="edit">`, reason: 'salvaged_as_prose' }]);
    expect(r?.canonical_text).toContain('<tool_call>\nrun({\n  "command": [\n    "cargo",\n    "test"\n  ]\n})\n</tool_call>');
  });

  it('string values are entity-decoded and untrimmed; bad JSON keeps the decoded text with an error; unknown tools are errors', () => {
    const text = invoke('run', param('command', ' a &amp;&amp; b ')) + invoke('edit', param('path', '{bad &lt;', 'false')) + invoke('search', param('q', 'x'));
    const r = dsmlResult(text, ctx);
    expect(r?.calls).toEqual([
      { id: 'tc_dsml_0', name: 'run', arguments: { command: ' a && b ' } },
      { id: 'tc_dsml_1', name: 'edit', arguments: { path: '{bad <' } },
    ]);
    expect(r?.tool_parse_errors).toHaveLength(2);
    expect(r?.tool_parse_errors[0]).toContain('DeepSeek DSML parameter `path` for `edit` could not parse as JSON');
    expect(r?.tool_parse_errors[1]).toBe("Unknown tool 'search' in DeepSeek DSML invoke.");
    expect(r?.dropped).toEqual([]);
  });

  it('a parameter named __proto__ is an own key', () => {
    const args = dsmlResult(invoke('run', param('__proto__', 'x')), ctx)?.calls[0]?.arguments ?? {};
    expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it('many unclosed openers yield no call and one recorded tail', () => {
    const text = `${D}function_calls>${D}invoke name="run">x `.repeat(2000);
    const r = dsmlResult(text, ctx);
    expect(r?.calls).toEqual([]);
    expect(r?.prose).toBe('');
    expect(r?.dropped).toEqual([{ text: text.trim(), reason: 'salvaged_as_prose' }]);
  });
});
