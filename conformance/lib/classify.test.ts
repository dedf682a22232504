import { describe, expect, it } from 'vitest';
import { classifyCheck, contractPartOf, isMessageCheck, violationKindOf } from './classify.js';

describe('isMessageCheck', () => {
  it('marks text ops on error and violation fields as message checks', () => {
    expect(isMessageCheck({ path: 'tool_parse_errors[0]', op: 'contains', value: 'Unknown tool' })).toBe(true);
    expect(isMessageCheck({ path: 'protocol_violations', op: 'some_contains', value: 'Mistral' })).toBe(true);
    expect(isMessageCheck({ path: 'protocol_violations[1]', op: 'eq', value: 'Stray text outside' })).toBe(true);
    expect(isMessageCheck({ path: 'errors[0]', op: 'matches', value: 'x' })).toBe(true);
  });
  it('keeps counts, emptiness and non-message fields structural', () => {
    expect(isMessageCheck({ path: 'tool_parse_errors.length', op: 'eq', value: 1 })).toBe(false);
    expect(isMessageCheck({ path: 'tool_parse_errors', op: 'is_empty' })).toBe(false);
    expect(isMessageCheck({ path: 'tool_parse_errors', op: 'eq', value: [] })).toBe(false);
    expect(isMessageCheck({ path: 'prose', op: 'contains', value: 'plan' })).toBe(false);
    expect(isMessageCheck({ path: 'calls[0].arguments.content', op: 'matches', value: '^package' })).toBe(false);
  });
  it('treats any_of as a message check only when every alternative is one', () => {
    const mixed = { path: '', op: 'any_of', value: [{ path: 'calls', op: 'is_empty' }, { path: 'errors', op: 'some_contains', value: 'x' }] };
    expect(isMessageCheck(mixed)).toBe(false);
    const wording = { path: '', op: 'any_of', value: [{ path: 'errors', op: 'some_contains', value: 'a' }, { path: 'errors', op: 'some_contains', value: 'TRUNCATED' }] };
    expect(isMessageCheck(wording)).toBe(true);
  });
});

describe('violationKindOf', () => {
  it('reads the stable kind off a reference violation message', () => {
    expect(violationKindOf('Unknown top-level tag "<notes>". Use <tool_call>, ...')).toBe('unknown_tag');
    expect(violationKindOf('protocol_violation: a tool call was emitted in a ```json fence; the contract requires a bare ```tool fence.')).toBe('fence_dialect');
    expect(violationKindOf('protocol_violation: a tool call was emitted in a chat-template tool envelope while `tool_format` is `json`')).toBe('wrong_tool_format');
    expect(violationKindOf('Recovered angle-wrapped tool call; emit it inside <tool_call>...</tool_call>.')).toBe('recovered_dialect');
    expect(violationKindOf('something else entirely')).toBeUndefined();
  });
});

describe('contractPartOf', () => {
  it('turns a full violation message into its kind and machine prefix', () => {
    const parts = contractPartOf({ path: 'protocol_violations[0]', op: 'eq', value: 'protocol_violation: a tool call was emitted as a bare JSON object; ...' });
    expect(parts).toEqual([
      { path: 'protocol_violations[0].kind', op: 'eq', value: 'bare_json' },
      { path: 'protocol_violations[0]', op: 'matches', value: '^protocol_violation:' },
    ]);
  });
  it('keeps only the machine prefix of an error message', () => {
    expect(contractPartOf({ path: 'tool_parse_errors[0]', op: 'eq', value: 'TOOL CALL TRUNCATED: `<tool_call>` opening ...' })).toEqual([
      { path: 'tool_parse_errors[0]', op: 'matches', value: '^TOOL CALL TRUNCATED:' },
    ]);
    expect(contractPartOf({ path: 'tool_parse_errors', op: 'some_contains', value: 'TOOL CALL PARSE ERROR: `x(...)`' })).toEqual([
      { path: 'tool_parse_errors', op: 'some_contains', value: 'TOOL CALL PARSE ERROR' },
    ]);
  });
  it('keeps marker-only needles and spec field paths as they are, and drops plain wording', () => {
    expect(contractPartOf({ path: 'tool_parse_errors', op: 'none_contains', value: 'TRUNCATED' })).toHaveLength(1);
    expect(contractPartOf({ path: 'error', op: 'contains', value: 'spec.harmony.standalone_markers' })).toHaveLength(1);
    expect(contractPartOf({ path: 'tool_parse_errors[0]', op: 'contains', value: 'Unknown tool' })).toEqual([]);
    expect(contractPartOf({ path: 'tool_parse_errors', op: 'some_contains', value: ['TOOL CALL TRUNCATED', 'edit'] })).toEqual([
      { path: 'tool_parse_errors', op: 'some_contains', value: 'TOOL CALL TRUNCATED' },
    ]);
  });
});

describe('classifyCheck', () => {
  it('stores the class and the counting part', () => {
    expect(classifyCheck({ path: 'calls.length', op: 'eq', value: 1 })).toEqual({ path: 'calls.length', op: 'eq', value: 1, class: 'structural' });
    expect(classifyCheck({ path: 'tool_parse_errors[0]', op: 'contains', value: 'Unknown tool' })).toEqual({
      path: 'tool_parse_errors[0]',
      op: 'contains',
      value: 'Unknown tool',
      class: 'message',
    });
    expect(classifyCheck({ path: 'normalized_args[0].content', op: 'eq', value: 'x' }).class).toBe('informational');
    expect(classifyCheck({ path: 'calls', op: 'is_empty' }).value).toBeNull();
  });
});
