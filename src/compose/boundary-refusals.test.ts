/**
 * Calls refused at the boundary of `parseToolCalls` (an unregistered name under `gateway`,
 * arguments failing the schema under `validate: reject`), through every lane that can credit a
 * call: the drop ledger records the text the model wrote, and no `recovered_dialect` claims a
 * recovered call that did not leave.
 */
import { describe, expect, it } from 'vitest';
import { CALL_LANES } from '../../test/support/call-lanes.js';
import { parseToolCalls } from './parse.js';
import type { ParseResult } from './types.js';

const tools = [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'integer' } }, required: ['path'] } } }];

/** `"path": "a"` fails this registry's schema (an integer). */
const LANES = CALL_LANES;

const FORMATS = ['text', 'json', 'native', ''];

function refusals(result: ParseResult): ParseResult['dropped'] {
  return result.dropped.filter((d) => d.reason === 'unknown_tool' || d.reason === 'invalid_arguments');
}

function recoveries(result: ParseResult): ParseResult['protocol_violations'] {
  return result.protocol_violations.filter((v) => v.kind === 'recovered_dialect');
}

describe('validate: reject, a registered name with arguments that fail the schema', () => {
  for (const [lane, template] of Object.entries(LANES)) {
    for (const format of FORMATS) {
      it(`${lane}, tool_format ${JSON.stringify(format)}: refused, recorded as written, no recovery claimed`, () => {
        const text = template.replaceAll('NAME', 'look');
        // The same text under `report` is a call: the lane reads it, so the refusal below is the boundary's.
        expect(parseToolCalls(text, { tools, tool_format: format }).calls.map((c) => c.name)).toEqual(['look']);
        const result = parseToolCalls(text, { tools, tool_format: format, validate: 'reject' });
        expect(result.calls).toEqual([]);
        const drops = refusals(result);
        expect(drops.map((d) => d.reason)).toEqual(['invalid_arguments']);
        expect(text).toContain(drops[0]!.text);
        expect(recoveries(result)).toEqual([]);
      });
    }
  }
});

describe('gateway, a name the registry does not hold', () => {
  for (const [lane, template] of Object.entries(LANES)) {
    for (const format of FORMATS) {
      it(`${lane}, tool_format ${JSON.stringify(format)}: every refusal recorded as written, no recovery claimed`, () => {
        const text = template.replaceAll('NAME', 'rm_rf');
        const result = parseToolCalls(text, { tools, tool_format: format });
        expect(result.calls).toEqual([]);
        for (const drop of refusals(result)) expect(text).toContain(drop.text);
        expect(recoveries(result)).toEqual([]);
      });
    }
  }

  it('a refused fenced call is on the ledger as the text the fence recovery consumed, and that recovery is not reported', () => {
    const fence = '```tool\n{"name": "rm_rf", "args": {"path": "/"}}\n```';
    const text = `Reading it.\n${fence}`;
    const result = parseToolCalls(text, { tools: ['look'] });
    expect(result.calls).toEqual([]);
    // The plain line before the fence is the piece's plain run, read on its own (prose).
    expect(result.prose).toBe('Reading it.');
    expect(result.dropped).toEqual([
      { text: 'Reading it.', reason: 'salvaged_as_prose' },
      { text: fence, reason: 'unknown_tool' },
    ]);
    expect(result.tool_parse_errors.some((e) => e.startsWith("Unknown tool 'rm_rf'"))).toBe(true);
    expect(recoveries(result)).toEqual([]);
  });

  it('a recovery that also produced a registered call is still reported; only the refused call is on the ledger', () => {
    const text = '<tool_calls>\n<tool>\n{"name": "look", "path": "a.rs"}\n{"name": "rm_rf", "path": "/"}\n</tool>\n</tool_calls>';
    const result = parseToolCalls(text, { tools: ['look'] });
    expect(result.calls.map((c) => c.name)).toEqual(['look']);
    expect(refusals(result)).toEqual([{ text: '{"name": "rm_rf", "path": "/"}', reason: 'unknown_tool' }]);
    expect(recoveries(result)).toHaveLength(1);
  });

  it('the canonical text loses the refused call either way', () => {
    const result = parseToolCalls('```tool\n{"name": "rm_rf", "args": {"path": "/"}}\n```', { tools: ['look'] });
    expect(result.canonical_text).not.toContain('rm_rf');
  });
});

describe('validate: reject, a verbatim body (JSON lane)', () => {
  it('a bound call is on the ledger with its verbatim body', () => {
    const text = '```tool\n{"name": "look", "args": {"path": "<<P:1"}}\n<<P:1\na\nP\n```';
    expect(parseToolCalls(text, { tools, tool_format: 'json' }).calls.map((c) => c.name)).toEqual(['look']);
    const result = parseToolCalls(text, { tools, tool_format: 'json', validate: 'reject' });
    expect(result.calls).toEqual([]);
    expect(refusals(result)).toEqual([{ text: '{"name": "look", "args": {"path": "<<P:1"}}\n<<P:1\na\nP', reason: 'invalid_arguments' }]);
  });
});

describe('harn, validate: reject', () => {
  it('an unclosed block whose call fails the schema claims no recovery', () => {
    const text = '<tool_call>look({"path": "a"})';
    expect(recoveries(parseToolCalls(text, { tools, profile: 'harn' }))).toHaveLength(1);
    const result = parseToolCalls(text, { tools, profile: 'harn', validate: 'reject' });
    expect(result.calls).toEqual([]);
    expect(refusals(result)).toEqual([{ text, reason: 'invalid_arguments' }]);
    expect(recoveries(result)).toEqual([]);
  });
});

describe('the stray sniffer, a line call to an unregistered name (gateway)', () => {
  const registered = [...tools, { type: 'function', function: { name: 'note', parameters: { type: 'object', properties: { text: { type: 'string' } } } } }];

  it('refuses the whole call beside a registered one: an error, an unknown_tool drop, no prose', () => {
    const result = parseToolCalls('look({"path": 1})\nfrob({"x": 1})\nDone.', { tools: registered });
    expect(result.calls.map((c) => c.name)).toEqual(['look']);
    expect(result.tool_parse_errors.some((e) => e.includes("'frob'"))).toBe(true);
    expect(result.dropped).toEqual([{ text: 'frob({"x": 1})', reason: 'unknown_tool' }]);
    expect(result.prose).toBe('Done.');
  });

  it('refuses one standing alone as an unknown tool, not as salvaged prose', () => {
    const result = parseToolCalls('frob({"x": 1})', { tools: registered });
    expect(result.calls).toEqual([]);
    expect(result.prose).toBe('');
    expect(result.dropped).toEqual([{ text: 'frob({"x": 1})', reason: 'unknown_tool' }]);
  });

  it('leaves a line of a block labelled with a language to the program: prose as written, no error', () => {
    const text = 'Here is the fix:\n```js\nsetState({ loading: true })\n```\nThat is all.';
    const result = parseToolCalls(text, { tools: registered });
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([]);
    expect(result.prose).toBe(text);
  });

  it('keeps the reference reading under harn: the text stays prose beside the registered call', () => {
    const result = parseToolCalls('look({"path": 1})\nfrob({"x": 1})', { tools: registered, profile: 'harn' });
    expect(result.prose).toBe('frob({"x": 1})');
    expect(result.dropped).toEqual([]);
  });
});
