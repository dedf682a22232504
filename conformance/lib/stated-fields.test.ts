import { describe, expect, it } from 'vitest';
import { compareStatedFields } from './stated-fields.js';

const observed = {
  calls: [{ id: 'tc_0', name: 'run', arguments: { command: 'ls' } }],
  tool_parse_errors: ['TOOL CALL TRUNCATED: our own words'],
  protocol_violations: [{ kind: 'recovered_dialect', message: 'Our wording.', excerpt: null, dropped_reason: null }],
  prose: '',
  user_response: null,
  dropped: [],
};

describe('compareStatedFields', () => {
  it('accepts matching structure and reports wording differences apart', () => {
    const outcome = compareStatedFields(observed, {
      calls: [{ id: 'tc_0', name: 'run', arguments: { command: 'ls' } }],
      tool_parse_errors: ['TOOL CALL TRUNCATED: the reference words it differently'],
      protocol_violations: [{ kind: 'recovered_dialect', message: 'Reference wording.', excerpt: null, dropped_reason: null }],
      prose: '',
      user_response: null,
      done_marker: null,
    });
    expect(outcome.failures).toEqual([]);
    expect(outcome.wordingDiffers).toHaveLength(2);
  });
  it('fails on a structural difference, a lost machine prefix, a wrong kind or a wrong count', () => {
    const outcome = compareStatedFields(observed, {
      calls: [],
      tool_parse_errors: ['TOOL CALL PARSE ERROR: x'],
      protocol_violations: [{ kind: 'stray_text', message: 'Our wording.', excerpt: 'x', dropped_reason: null }],
      dropped: [{ text: 'x', reason: 'salvaged_as_prose' }],
    });
    expect(outcome.failures.map((line) => line.split(':')[0])).toEqual([
      'calls',
      'tool_parse_errors[0]',
      'protocol_violations[0].kind',
      'protocol_violations[0].excerpt',
      'dropped',
    ]);
    expect(compareStatedFields(observed, { tool_parse_errors: [] }).failures).toHaveLength(1);
  });
  it('fails when the result is not an object', () => {
    expect(compareStatedFields(undefined, { calls: [] }).failures).toHaveLength(1);
  });
});
