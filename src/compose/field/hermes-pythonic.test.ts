import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../parse.js';

const LOOK = [{ name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

describe('hermes-pythonic: a pythonic list as the <tool_call> body', () => {
  it("reads the README's example as one call, with no error or violation", () => {
    const result = parseToolCalls("<tool_call>[look(path='a.rs')]</tool_call>", { tools: LOOK });
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'a.rs' }]]);
    expect(result.tool_parse_errors).toEqual([]);
    expect(result.protocol_violations).toEqual([]);
    expect(result.prose).toBe('');
  });

  it("leaves a bare reference call in the tag to the reference grammar", () => {
    const result = parseToolCalls('<tool_call>look({"path": "a.rs"})</tool_call>', { tools: LOOK });
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'a.rs' }]]);
    expect(result.tool_parse_errors).toEqual([]);
  });
});
