import { describe, expect, it } from 'vitest';
import { renderCall, renderCallBlocks, renderParts } from './canonical.js';

describe('canonical rendering', () => {
  it('renders a call block with sorted, 2-space indented arguments', () => {
    expect(renderCall('edit', { path: 'a.rs', action: 'create', content: 'x' })).toBe(
      '<tool_call>\nedit({\n  "action": "create",\n  "content": "x",\n  "path": "a.rs"\n})\n</tool_call>',
    );
  });

  it('renders empty objects and nested arrays like the reference', () => {
    expect(renderCall('verify', {})).toBe('<tool_call>\nverify({})\n</tool_call>');
    expect(renderCall('run', { command: ['cargo', 'test'] })).toBe('<tool_call>\nrun({\n  "command": [\n    "cargo",\n    "test"\n  ]\n})\n</tool_call>');
    expect(renderCall('x', { a: [] })).toBe('<tool_call>\nx({\n  "a": []\n})\n</tool_call>');
    expect(renderCall('x', null)).toBe('<tool_call>\nx({})\n</tool_call>');
  });

  it('keeps __proto__ as an ordinary key', () => {
    const args = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(renderCall('x', args)).toBe('<tool_call>\nx({\n  "__proto__": {\n    "x": 1\n  }\n})\n</tool_call>');
  });

  it('sorts keys by code point and escapes a leading << (the lexer renderer)', () => {
    // U+E000 is above a surrogate as a UTF-16 unit but below every astral code point.
    expect(renderCall('x', { '\u{1F600}': 1, '\uE000': 2 })).toBe('<tool_call>\nx({\n  "\uE000": 2,\n  "\u{1F600}": 1\n})\n</tool_call>');
    expect(renderCall('x', { body: '<<EOF' })).toBe('<tool_call>\nx({\n  "body": "\\u003c<EOF"\n})\n</tool_call>');
  });

  it('joins call blocks with one newline', () => {
    expect(renderCallBlocks([])).toBe('');
    expect(renderCallBlocks([{ id: 'a', name: 'a', arguments: {} }, { id: 'b', name: 'b', arguments: { k: 1 } }])).toBe(
      '<tool_call>\na({})\n</tool_call>\n<tool_call>\nb({\n  "k": 1\n})\n</tool_call>',
    );
  });

  it('joins parts with blank lines in order, bare parts calls first', () => {
    const text = renderParts([
      { kind: 'prose', text: ' Creating. ' },
      { kind: 'answer', text: 'Done.' },
      { kind: 'bare', calls: [{ name: 'run', arguments: { command: 'ls' } }], prose: 'after' },
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
