import { describe, expect, it } from 'vitest';
import { composeContext } from '../context.js';
import { taggedLane } from '../tagged-lane.js';
import { jsonLane } from './json-lane.js';
import { emptyLane } from './result.js';
import { siblingRecovery } from './sibling.js';
import { jsonCtx, SAMPLE_TOOLS, textCtx } from '../../../test/support/compose-contexts.js';

describe('siblingRecovery', () => {
  it('keeps a pinned result that already has calls', () => {
    const pinned = { ...emptyLane(), calls: [{ id: 'tc_0', name: 'run', arguments: {} }] };
    expect(siblingRecovery(pinned, '<tool_call>{"name":"run"}</tool_call>', textCtx(), taggedLane)).toBe(pinned);
  });

  it('never runs for an unpinned or native format', () => {
    const text = '<tool_call>\n{"name":"run","args":{"command":"ls"}}\n{"name":"run","args":{"command":"pwd"}}\n</tool_call>';
    for (const format of ['', 'native', 'other']) {
      const ctx = composeContext(SAMPLE_TOOLS, format, null, 'harn');
      const pinned = taggedLane(text, ctx);
      expect(siblingRecovery(pinned, text, ctx, taggedLane)).toBe(pinned);
    }
  });

  it('Ex64: text pin, JSON objects in one <tool_call> are recovered by the JSON lane', () => {
    const text = '<tool_call>\n{"name":"run","args":{"command":"ls"}}\n{"name":"run","args":{"command":"pwd"}}\n</tool_call>';
    const ctx = textCtx();
    const pinned = taggedLane(text, ctx);
    expect(pinned.calls).toEqual([]);
    const r = siblingRecovery(pinned, text, ctx, taggedLane);
    expect(r.calls).toEqual([
      { id: 'tc_envelope', name: 'run', arguments: { command: 'ls' } },
      { id: 'tc_envelope', name: 'run', arguments: { command: 'pwd' } },
    ]);
    expect(r.tool_parse_errors).toEqual([]);
    expect(r.protocol_violations.map((v) => v.kind)).toEqual(['recovered_dialect']);
    expect(r.canonical_text).toBe('<tool_call>\nrun({\n  "command": "ls"\n})\n</tool_call>\n\n<tool_call>\nrun({\n  "command": "pwd"\n})\n</tool_call>');
  });

  it('Ex76: JSON pin, a bare call expression is run by the tagged lane with one wrong_tool_format', () => {
    const text = 'run({ command: "ls" })';
    const ctx = jsonCtx(SAMPLE_TOOLS);
    const pinned = jsonLane(text, ctx, { taggedLane });
    expect(pinned.calls).toEqual([]);
    const r = siblingRecovery(pinned, text, ctx, taggedLane);
    expect(r.calls).toEqual([{ id: 'tc_0', name: 'run', arguments: { command: 'ls' } }]);
    expect(r.protocol_violations.map((v) => v.kind)).toEqual(['wrong_tool_format']);
    expect(r.protocol_violations[0]?.message).toContain('tagged grammar');
    expect(r.dropped).toEqual([]);
  });

  it('keeps the pinned result when the sibling finds nothing either', () => {
    const text = "```python\nprint('hi')\n```";
    const ctx = jsonCtx(SAMPLE_TOOLS);
    const pinned = jsonLane(text, ctx, { taggedLane });
    expect(siblingRecovery(pinned, text, ctx, taggedLane)).toBe(pinned);
  });
});
