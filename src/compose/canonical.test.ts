import { describe, expect, it } from 'vitest';
import { prettyJson, renderCall, renderParts } from './canonical.js';

describe('canonical rendering', () => {
  it('renders a call block with sorted, 2-space indented arguments', () => {
    expect(renderCall('edit', { path: 'a.rs', action: 'create', content: 'x' })).toBe(
      '<tool_call>\nedit({\n  "action": "create",\n  "content": "x",\n  "path": "a.rs"\n})\n</tool_call>',
    );
  });

  it('renders empty objects and nested arrays like the reference', () => {
    expect(renderCall('verify', {})).toBe('<tool_call>\nverify({})\n</tool_call>');
    expect(prettyJson({ command: ['cargo', 'test'] })).toBe('{\n  "command": [\n    "cargo",\n    "test"\n  ]\n}');
    expect(prettyJson({ a: [] })).toBe('{\n  "a": []\n}');
  });

  it('keeps __proto__ as an ordinary key', () => {
    const args = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(prettyJson(args)).toBe('{\n  "__proto__": {\n    "x": 1\n  }\n}');
  });

  it('joins parts with blank lines in order, bare parts calls first', () => {
    const text = renderParts([
      { kind: 'prose', text: ' Creating. ' },
      { kind: 'answer', text: 'Done.' },
      { kind: 'bare', calls: [{ id: 'tc_0', name: 'run', arguments: { command: 'ls' } }], prose: 'after' },
      { kind: 'done', text: '##DONE##' },
      '<tool_call>\nx({})\n</tool_call>',
    ]);
    expect(text).toBe(
      '<assistant_prose>\nCreating.\n</assistant_prose>\n\n<user_response>\nDone.\n</user_response>\n\n' +
        '<tool_call>\nrun({\n  "command": "ls"\n})\n</tool_call>\n\n<assistant_prose>\nafter\n</assistant_prose>\n\n' +
        '<done>##DONE##</done>\n\n<tool_call>\nx({})\n</tool_call>',
    );
  });
});
