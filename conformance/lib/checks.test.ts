import { describe, expect, it } from 'vitest';
import { runCheck } from './checks.js';

const result = {
  calls: [
    { id: 'tc_0', name: 'read', arguments: { path: 'a.txt', length: 3, nested: { b: 1, a: [1, 2] } } },
    { id: 'tc_1', name: 'run', arguments: { command: 'ls -la' } },
  ],
  prose: 'Here is my plan.\nThen more.',
  user_response: null,
  tool_parse_errors: ['TOOL CALL TRUNCATED: read was cut off', 'Unknown tool `deploy`'],
  protocol_violations: [{ kind: 'stray_text', message: 'Stray text before the call', excerpt: null, dropped_reason: null }],
  dropped: [],
};

describe('runCheck paths', () => {
  it('follows keys and indexes', () => {
    expect(runCheck(result, { path: 'calls[1].arguments.command', op: 'eq', value: 'ls -la' }).ok).toBe(true);
    expect(runCheck(result, { path: 'calls[1].arguments.command', op: 'eq', value: 'ls' }).ok).toBe(false);
  });
  it('reads .length of lists and strings, but an object key named length as a key', () => {
    expect(runCheck(result, { path: 'calls.length', op: 'eq', value: 2 }).ok).toBe(true);
    expect(runCheck(result, { path: 'calls[1].arguments.command.length', op: 'eq', value: 6 }).ok).toBe(true);
    expect(runCheck(result, { path: 'calls[0].arguments.length', op: 'eq', value: 3 }).ok).toBe(true);
  });
  it('reports a missing path as a failure naming how far it resolved', () => {
    const outcome = runCheck(result, { path: 'calls[5].name', op: 'eq', value: 'x' });
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toContain('path not found');
    expect(outcome.detail).toContain('"calls"');
  });
  it('treats the empty path as the root', () => {
    expect(runCheck([1, 2], { path: '', op: 'eq', value: [1, 2] }).ok).toBe(true);
  });
});

describe('runCheck ops', () => {
  it('eq is deep JSON equality ignoring key order', () => {
    const check = { path: 'calls[0].arguments', op: 'eq', value: { nested: { a: [1, 2], b: 1 }, length: 3, path: 'a.txt' } };
    expect(runCheck(result, check).ok).toBe(true);
    expect(runCheck(result, { ...check, value: { nested: { a: [2, 1], b: 1 }, length: 3, path: 'a.txt' } }).ok).toBe(false);
    expect(runCheck(result, { ...check, value: { path: 'a.txt' } }).ok).toBe(false);
  });
  it('eq null holds for null and for an absent field', () => {
    expect(runCheck(result, { path: 'user_response', op: 'eq', value: null }).ok).toBe(true);
    expect(runCheck(result, { path: 'done_marker', op: 'eq', value: null }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'eq', value: null }).ok).toBe(false);
  });
  it('eq with a string compares a violation record by its message', () => {
    expect(runCheck(result, { path: 'protocol_violations[0]', op: 'eq', value: 'Stray text before the call' }).ok).toBe(true);
    expect(runCheck(result, { path: 'protocol_violations[0]', op: 'eq', value: 'stray_text' }).ok).toBe(false);
  });
  it('contains / not_contains test substrings, and membership on lists', () => {
    expect(runCheck(result, { path: 'prose', op: 'contains', value: 'my plan' }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'contains', value: '<<EOF' }).ok).toBe(false);
    expect(runCheck(result, { path: 'prose', op: 'not_contains', value: '<<EOF' }).ok).toBe(true);
    expect(runCheck(result, { path: 'protocol_violations[0]', op: 'contains', value: 'Stray' }).ok).toBe(true);
    expect(runCheck(result, { path: 'calls[0].arguments.nested.a', op: 'contains', value: 'x' }).ok).toBe(false);
  });
  it('some_contains / none_contains look into each element', () => {
    expect(runCheck(result, { path: 'tool_parse_errors', op: 'some_contains', value: 'deploy' }).ok).toBe(true);
    expect(runCheck(result, { path: 'tool_parse_errors', op: 'some_contains', value: 'frobnicate' }).ok).toBe(false);
    expect(runCheck(result, { path: 'tool_parse_errors', op: 'none_contains', value: 'TRUNCATED' }).ok).toBe(false);
    expect(runCheck(result, { path: 'protocol_violations', op: 'some_contains', value: 'before the call' }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'some_contains', value: 'plan' }).ok).toBe(false);
  });
  it('a list of substrings must all occur in one text or one element', () => {
    expect(runCheck(result, { path: 'tool_parse_errors', op: 'some_contains', value: ['TRUNCATED', 'read'] }).ok).toBe(true);
    expect(runCheck(result, { path: 'tool_parse_errors', op: 'some_contains', value: ['TRUNCATED', 'deploy'] }).ok).toBe(false);
    expect(runCheck(result, { path: 'prose', op: 'contains', value: ['Here', 'more'] }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'not_contains', value: ['Here', 'nothing'] }).ok).toBe(true);
  });
  it('is_empty / not_empty / is_null', () => {
    expect(runCheck(result, { path: 'dropped', op: 'is_empty' }).ok).toBe(true);
    expect(runCheck(result, { path: 'calls', op: 'is_empty' }).ok).toBe(false);
    expect(runCheck(result, { path: 'calls', op: 'not_empty', value: null }).ok).toBe(true);
    expect(runCheck(result, { path: 'missing', op: 'is_empty' }).ok).toBe(false);
    expect(runCheck(result, { path: 'user_response', op: 'is_null' }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'is_null' }).ok).toBe(false);
  });
  it('gte / lte compare numbers', () => {
    expect(runCheck(result, { path: 'calls.length', op: 'gte', value: 2 }).ok).toBe(true);
    expect(runCheck(result, { path: 'calls.length', op: 'gte', value: 3 }).ok).toBe(false);
    expect(runCheck(result, { path: 'calls.length', op: 'lte', value: 1 }).ok).toBe(false);
    expect(runCheck(result, { path: 'prose', op: 'lte', value: 1 }).ok).toBe(false);
  });
  it('matches uses the reference regex flavour with inline flags', () => {
    expect(runCheck(result, { path: 'calls[0].id', op: 'matches', value: '^tc_' }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'matches', value: '^here is' }).ok).toBe(false);
    expect(runCheck(result, { path: 'prose', op: 'matches', value: '(?i)^here is' }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'matches', value: 'plan.\\s*Then' }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'matches', value: 'plan..Then' }).ok).toBe(false);
    expect(runCheck(result, { path: 'prose', op: 'matches', value: '(?s)plan..Then' }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'matches', value: '(?is)PLAN..then more\\.\\z' }).ok).toBe(true);
    expect(runCheck(result, { path: 'prose', op: 'matches', value: '\\APlan' }).ok).toBe(false);
  });
  it('any_of holds when one alternative holds, with paths relative to its own path', () => {
    const alternatives = [
      { path: 'calls', op: 'is_empty' },
      { path: 'tool_parse_errors', op: 'some_contains', value: 'TRUNCATED' },
    ];
    expect(runCheck(result, { path: '', op: 'any_of', value: alternatives }).ok).toBe(true);
    const none = runCheck(result, { path: '', op: 'any_of', value: alternatives.slice(0, 1) });
    expect(none.ok).toBe(false);
    expect(none.detail).toContain('none held');
    expect(runCheck(result, { path: 'calls[0]', op: 'any_of', value: [{ path: 'name', op: 'eq', value: 'read' }] }).ok).toBe(true);
  });
});

describe('runCheck on model-chosen keys', () => {
  it('reads __proto__, constructor and prototype as ordinary own keys, never inherited members', () => {
    const parsed = JSON.parse('{"calls":[{"arguments":{"__proto__":{"x":1},"prototype":2}}]}') as unknown;
    expect(runCheck(parsed, { path: 'calls[0].arguments.__proto__.x', op: 'eq', value: 1 }).ok).toBe(true);
    expect(runCheck(parsed, { path: 'calls[0].arguments', op: 'eq', value: JSON.parse('{"prototype":2,"__proto__":{"x":1}}') }).ok).toBe(true);
    expect(runCheck(parsed, { path: 'calls[0].arguments', op: 'eq', value: { prototype: 2 } }).ok).toBe(false);
    expect(runCheck(parsed, { path: 'calls[0].arguments.constructor', op: 'is_null' }).ok).toBe(true);
    expect(runCheck(parsed, { path: 'calls[0].arguments.toString', op: 'not_empty' }).detail).toContain('path not found');
  });
});

describe('runCheck misuse', () => {
  it('throws a TypeError for an unknown op or a malformed value', () => {
    expect(() => runCheck(result, { path: 'prose', op: 'startswith', value: 'x' })).toThrow(TypeError);
    expect(() => runCheck(result, { path: 'prose', op: 'contains', value: 3 })).toThrow(/check.value/);
    expect(() => runCheck(result, { path: '', op: 'any_of', value: [] })).toThrow(TypeError);
    expect(() => runCheck(result, { path: 'calls[x]', op: 'eq', value: 1 })).toThrow(/malformed index/);
  });
});
