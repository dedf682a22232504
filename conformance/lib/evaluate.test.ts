import { describe, expect, it } from 'vitest';
import { referenceView } from './adapt.js';
import { classifyCheck } from './classify.js';
import { evaluateChecks } from './evaluate.js';

const result = {
  calls: [{ id: 'tc_7', name: 'run', arguments: { command: 'ls' } }, { id: 'tc_8', name: 'run', arguments: { command: 'pwd' } }],
  tool_parse_errors: ['TOOL CALL TRUNCATED: the block was cut off'],
  protocol_violations: [{ kind: 'stray_text', message: 'Text outside the tags', excerpt: null, dropped_reason: null }],
};

describe('evaluateChecks', () => {
  it('decides on structural checks and on the contract part of message checks', () => {
    const checks = [
      { path: 'calls.length', op: 'eq', value: 2 },
      { path: 'tool_parse_errors[0]', op: 'eq', value: 'TOOL CALL TRUNCATED: reference wording differs' },
      { path: 'protocol_violations[0]', op: 'eq', value: 'Stray text outside response tags: "x".' },
    ].map(classifyCheck);
    const evaluation = evaluateChecks(result, checks);
    expect(evaluation.passed).toBe(true);
    expect(evaluation.counted).toBe(3);
    expect(evaluation.wordingDiffers).toHaveLength(2);
  });
  it('fails when the contract part does not hold', () => {
    const checks = [{ path: 'protocol_violations[0]', op: 'eq', value: 'Unknown top-level tag "<x>".' }].map(classifyCheck);
    const evaluation = evaluateChecks(result, checks);
    expect(evaluation.passed).toBe(false);
    expect(evaluation.failures[0]).toContain('protocol_violations[0].kind');
  });
  it('reports wording-only checks and helper checks without counting them', () => {
    const checks = [
      { path: 'tool_parse_errors[0]', op: 'contains', value: 'never closed' },
      { path: 'normalized_args[0].content', op: 'eq', value: 'x' },
    ].map(classifyCheck);
    const evaluation = evaluateChecks(result, checks);
    expect(evaluation).toMatchObject({ passed: true, counted: 0 });
    expect(evaluation.wordingDiffers).toHaveLength(1);
    expect(evaluation.uncovered).toHaveLength(1);
  });
});

describe('referenceView', () => {
  it('rebases tc_ ids on the first call so per-parse numbering checks still apply', () => {
    const view = referenceView('parse_text_tool_calls_with_tools', result) as typeof result;
    expect(view.calls.map((call) => call.id)).toEqual(['tc_0', 'tc_1']);
    expect(result.calls[0]?.id).toBe('tc_7');
  });
  it('keeps a gap in the numbering visible', () => {
    const gapped = { calls: [{ id: 'tc_3' }, { id: 'tc_5' }] };
    expect((referenceView('agent_parse_tool_calls', gapped) as typeof gapped).calls.map((call) => call.id)).toEqual(['tc_0', 'tc_2']);
  });
  it('leaves ids that are not all tc_<n> untouched', () => {
    const mixed = { calls: [{ id: 'tc_1' }, { id: 'call_x' }] };
    expect((referenceView('agent_parse_tool_calls', mixed) as typeof mixed).calls).toEqual(mixed.calls);
  });
  it('exposes the sniffer errors under both reference names', () => {
    const view = referenceView('parse_bare_calls_in_body', { calls: [], errors: ['e'] }) as Record<string, unknown>;
    expect(view.tool_parse_errors).toEqual(['e']);
    const other = referenceView('agent_parse_tool_calls', { calls: [], errors: ['e'] }) as Record<string, unknown>;
    expect(other.tool_parse_errors).toBeUndefined();
  });
});
