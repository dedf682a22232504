/**
 * Validators are compiled once per registry: a normalised registry passed again never compiles
 * a tool's schema twice (the compile count is watched on Ajv's shared prototype).
 */
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normalizeTools } from '../dialects/registry.js';
import { parseToolCalls } from './parse.js';

const core = Object.getPrototypeOf(Ajv.prototype) as { compile: (...args: unknown[]) => unknown };

afterEach(() => {
  vi.restoreAllMocks();
});

function registry(name: string) {
  return normalizeTools([{ name, parameters: { type: 'object', properties: { n: { type: 'integer' }, pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } }, required: ['n'] } }]);
}

describe('argument validators', () => {
  it('a registry object passed again compiles nothing more, valid or failing calls alike', () => {
    const compile = vi.spyOn(core, 'compile');
    const tools = registry('count_once');
    const valid = '<tool_call>count_once({"n": 1})</tool_call>';
    const failing = '<tool_call>count_once({"n": "x"})</tool_call>';
    parseToolCalls(valid, { tools });
    expect(compile).toHaveBeenCalledTimes(1);
    // The all-errors validator is compiled once, on the first failure.
    parseToolCalls(failing, { tools });
    expect(compile).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 5; i++) {
      parseToolCalls(valid, { tools });
      parseToolCalls(failing, { tools });
    }
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('a tool nobody calls compiles nothing', () => {
    const compile = vi.spyOn(core, 'compile');
    parseToolCalls('no call here', { tools: registry('never_called') });
    expect(compile).not.toHaveBeenCalled();
  });

  it('reads draft 2020-12 keywords by default (prefixItems)', () => {
    const result = parseToolCalls('<tool_call>t2020({"n": 1, "pair": ["a", "b"]})</tool_call>', { tools: registry('t2020') });
    const violation = result.protocol_violations.find((v) => v.kind === 'invalid_arguments');
    expect(violation?.failures?.map((f) => f.pointer)).toEqual(['/pair/1']);
  });
});

describe('an integer beyond 2^53 kept as its digits', () => {
  const tools = [{ name: 'get_message', parameters: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'integer' } } } }];

  it('passes an integer schema', () => {
    const result = parseToolCalls('<tool_call>\n{"name": "get_message", "arguments": {"id": 1234567890123456789}}\n</tool_call>', { tools });
    expect(result.calls[0]?.arguments).toEqual({ id: '1234567890123456789' });
    expect(result.protocol_violations).toEqual([]);
  });

  it('a string of digits within 2^53 still fails it (only digits a number cannot carry count as one)', () => {
    const result = parseToolCalls('<tool_call>\n{"name": "get_message", "arguments": {"id": 5, "label": "12345"}}\n</tool_call>', { tools });
    expect(result.protocol_violations.map((v) => v.kind)).toEqual(['invalid_arguments']);
  });
});

