import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCallExpr } from './call-expr.js';
import { previewStr, renderCanonicalCall, renderParts, trimUnicode } from './render.js';

describe('renderCanonicalCall', () => {
  it('pretty-prints with two spaces and no trailing newline', () => {
    expect(renderCanonicalCall('look', { path: 'a.rs' })).toBe('look({\n  "path": "a.rs"\n})');
  });

  it('sorts keys, including integer-like ones JS would put first', () => {
    expect(renderCanonicalCall('edit', { path: 'a.rs', content: 'x', action: 'create' })).toBe(
      'edit({\n  "action": "create",\n  "content": "x",\n  "path": "a.rs"\n})',
    );
    expect(renderCanonicalCall('f', { b: 1, '2': 2, a: 3 })).toBe('f({\n  "2": 2,\n  "a": 3,\n  "b": 1\n})');
  });

  it('sorts by code point, so astral keys come after U+FFFD', () => {
    expect(renderCanonicalCall('f', { '😀': 1, '\ufffd': 2 })).toBe('f({\n  "\ufffd": 2,\n  "😀": 1\n})');
  });

  it('renders empty containers inline and nests indentation', () => {
    expect(renderCanonicalCall('run', {})).toBe('run({})');
    expect(renderCanonicalCall('run', undefined)).toBe('run({})');
    expect(renderCanonicalCall('run', { command: ['cargo', 'test'], env: {}, list: [] })).toBe(
      'run({\n  "command": [\n    "cargo",\n    "test"\n  ],\n  "env": {},\n  "list": []\n})',
    );
  });

  it('escapes strings like JSON and leaves / and non-ASCII alone', () => {
    expect(renderCanonicalCall('f', { s: 'a"b\\c\n\t\u0001/é' })).toBe('f({\n  "s": "a\\"b\\\\c\\n\\t\\u0001/é"\n})');
  });

  it('renders scalars, own __proto__ keys, and drops undefined members', () => {
    const args = JSON.parse('{"__proto__": 1, "n": 1.5, "t": true, "z": null}') as Record<string, unknown>;
    args.u = undefined;
    expect(renderCanonicalCall('f', args)).toBe('f({\n  "__proto__": 1,\n  "n": 1.5,\n  "t": true,\n  "z": null\n})');
    expect(renderCanonicalCall('f', 'x')).toBe('f("x")');
  });

  it('writes a leading `<<` so it cannot read back as a quoted heredoc', () => {
    const text = renderCanonicalCall('f', { '<<k': '<<EOF\nx\nEOF', s: 'a <<b' });
    expect(text).toBe('f({\n  "\\u003c<k": "\\u003c<EOF\\nx\\nEOF",\n  "s": "a <<b"\n})');
    expect(parseCallExpr(text, 'f')).toMatchObject({ ok: true, arguments: { '<<k': '<<EOF\nx\nEOF', s: 'a <<b' } });
  });

  it('throws a TypeError on cyclic arguments', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => renderCanonicalCall('f', cyclic)).toThrow(TypeError);
  });

  it('round-trips through parseCallExpr', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '2', 'a b', '<<EOF\nx\nEOF'));
    const args = fc.dictionary(key, fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom('<<', '<<E\\nE')), { maxKeys: 6 });
    fc.assert(
      fc.property(args, (value) => {
        const text = renderCanonicalCall('look', value);
        const parsed = parseCallExpr(text, 'look');
        expect(parsed).toEqual({ ok: true, arguments: JSON.parse(JSON.stringify(value)), consumed: text.length });
      }),
      { numRuns: 300 },
    );
  });
});

describe('renderParts', () => {
  it('renders each kind and joins with blank lines', () => {
    expect(
      renderParts([
        { kind: 'prose', text: ' Creating the file. ' },
        { kind: 'answer', text: 'Created the file.' },
        { kind: 'call', name: 'edit', arguments: { path: 'a.rs', action: 'create', content: 'fn a() {}' } },
        { kind: 'done', text: '\n##DONE##\n' },
      ]),
    ).toBe(
      '<assistant_prose>\nCreating the file.\n</assistant_prose>\n\n<user_response>\nCreated the file.\n</user_response>\n\n' +
        '<tool_call>\nedit({\n  "action": "create",\n  "content": "fn a() {}",\n  "path": "a.rs"\n})\n</tool_call>\n\n' +
        '<done>##DONE##</done>',
    );
  });

  it('renders bare parts as calls then non-empty prose', () => {
    const bare = { kind: 'bare' as const, calls: [{ name: 'run', arguments: { command: 'ls' } }, { name: 'run' }], prose: ' why \n' };
    expect(renderParts([bare])).toBe(
      '<tool_call>\nrun({\n  "command": "ls"\n})\n</tool_call>\n\n<tool_call>\nrun({})\n</tool_call>\n\n' +
        '<assistant_prose>\nwhy\n</assistant_prose>',
    );
    expect(renderParts([{ kind: 'bare', calls: [], prose: '  ' }])).toBe('');
  });

  it('uses string parts verbatim, empty ones still separated', () => {
    expect(renderParts(['a', '', 'b'])).toBe('a\n\n\n\nb');
    expect(renderParts([])).toBe('');
  });

  it('throws TypeErrors on malformed parts', () => {
    expect(() => renderParts('x' as never)).toThrow(TypeError);
    expect(() => renderParts([1 as never])).toThrow(/string or an object/);
    expect(() => renderParts([{} as never])).toThrow(/kind/);
    expect(() => renderParts([{ kind: 'bare' } as never])).toThrow(/calls/);
    expect(() => renderParts([{ kind: 'bare', calls: ['x'] } as never])).toThrow(/object/);
    expect(() => renderParts([{ kind: 'other', text: '' } as never])).toThrow(/"other"/);
  });
});

describe('trimUnicode', () => {
  it('trims Rust White_Space, not U+FEFF', () => {
    expect(trimUnicode('\u0085\u3000 a \u2029')).toBe('a');
    expect(trimUnicode('\ufeffa\ufeff')).toBe('\ufeffa\ufeff');
  });
});

describe('previewStr', () => {
  it('counts code points and appends an ellipsis only when cut', () => {
    expect(previewStr('abc', 3)).toBe('abc');
    expect(previewStr('abcd', 3)).toBe('abc\u2026');
    expect(previewStr('😀😀😀', 2)).toBe('😀😀\u2026');
    expect(previewStr('😀😀', 2)).toBe('😀😀');
    expect(previewStr('', 0)).toBe('');
    expect(previewStr('a', 0)).toBe('\u2026');
  });

  it('never splits a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.nat(30), (s, max) => {
        const preview = previewStr(s, max);
        const kept = preview.endsWith('\u2026') && preview !== s ? preview.slice(0, -1) : preview;
        expect(s.startsWith(kept)).toBe(true);
        expect([...kept].length).toBeLessThanOrEqual(max);
      }),
    );
  });
});
