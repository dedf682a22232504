import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../parse.js';

const SEARCH = [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } }];
const QWEN = '<tool_call>\n<function=search>\n<parameter=query>\nramen\n</parameter>\n';

describe('a response cut inside a marker', () => {
  it('reads a call whose close was being written as a call with its closes missing', () => {
    for (const cut of ['</func', '</function>\n</tool_c', '</function>\n</t']) {
      const r = parseToolCalls(QWEN + cut, { tools: SEARCH });
      expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([['search', { query: 'ramen' }]]);
      expect(r.tool_parse_errors).toEqual([]);
      expect(r.prose).toBe('');
      expect(r.protocol_violations.map((v) => v.kind)).toContain('recovered_dialect');
    }
  });

  it('keeps a cut in a value close a truncation, its drop holding the fragment', () => {
    const text = '<tool_call>\n<function=search>\n<parameter=query>\nramen\n</par';
    const r = parseToolCalls(text, { tools: SEARCH });
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors[0]).toMatch(/^TOOL CALL TRUNCATED:/);
    expect(r.dropped.map((d) => d.text).join('')).toContain('ramen\n</par');
  });

  it('takes the cut close after a region read with its closes missing, and leaves a stray one after a closed region as it was', () => {
    const call = '<tool_calls>\n{"name": "search", "arguments": {"query": "ramen"}}\n';
    const open = parseToolCalls(`${call}</tool_`, { tools: SEARCH });
    expect(open.calls).toHaveLength(1);
    expect(open.prose).toBe('');
    const closed = parseToolCalls(`${call}</tool_calls>\n</tool_`, { tools: SEARCH });
    expect(closed.calls).toHaveLength(1);
    // A stray fragment is stray text, reported as such (the region before it had its close).
    expect(closed.dropped).toEqual([{ text: '</tool_', reason: 'salvaged_as_prose' }]);
    expect(closed.protocol_violations.map((v) => v.kind)).toEqual(['stray_text']);
  });

  it('reads a cut inside a deployment suffix (Hunyuan)', () => {
    const text = '<tool_calls:opensource><tool_call:opensource>search<tool_sep:opensource><arg_key:opensource>query</arg_key:opensource><arg_value:opensource>ramen</arg_value:opensource></tool_call:open';
    const r = parseToolCalls(text, { tools: SEARCH });
    expect(r.calls.map((c) => c.arguments)).toEqual([{ query: 'ramen' }]);
    expect(r.tool_parse_errors).toEqual([]);
  });

  it('keeps a cut reasoning close out of the reasoning, and a lone `<` in it', () => {
    expect(parseToolCalls('<think>Need the weather.</thi', { tools: SEARCH }).reasoning).toBe('Need the weather.');
    expect(parseToolCalls('<think>Is a <', { tools: SEARCH }).reasoning).toBe('Is a <');
  });

  it('leaves prose that ends like a marker after a closed region as prose', () => {
    const r = parseToolCalls('<think>ok</think>Compare a </', { tools: SEARCH });
    expect(r.prose).toBe('Compare a </');
  });

  it('reads a call whose closes are missing before an end-of-turn token as a call, the token dropped', () => {
    for (const end of ['<|im_end|>', '\n<|im_end|>', '\n<|endoftext|>\n', '<|im_end|><|endoftext|>']) {
      const r = parseToolCalls(`${QWEN}${end}`, { tools: SEARCH });
      expect(r.calls.map((c) => c.arguments)).toEqual([{ query: 'ramen' }]);
      expect(r.tool_parse_errors).toEqual([]);
      expect(r.prose).toBe('');
      expect(r.dropped.every((d) => d.reason === 'end_of_turn_token')).toBe(true);
      expect(r.dropped.length).toBe(end.split('<|').length - 1);
    }
  });
});
