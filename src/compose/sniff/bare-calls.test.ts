import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTools } from '../../dialects/registry.js';
import type { Unit } from '../../scan/types.js';
import { scanBareCalls, scanBareUnits } from './bare-calls.js';
import { renderCanonicalCall } from '../../lex/render.js';

const TOOLS = [{ name: 'look' }, { name: 'edit' }, { name: 'run' }];
const REGISTRY = normalizeTools(TOOLS);

describe('scanBareCalls: fencing does not make a call inert', () => {
  it('finds a bare look({...}) inside a ``` fence and drops the fence lines from prose', () => {
    const text = 'Let me read it.\n```ts\nlook({ intent: "read", path: "src/a.ts" })\n```\nThen I will decide.';
    const scan = scanBareCalls(text, TOOLS);
    expect(scan.calls).toEqual([{ id: 'tc_0', name: 'look', arguments: { intent: 'read', path: 'src/a.ts' } }]);
    expect(scan.errors).toEqual([]);
    expect(scan.prose).toBe('Let me read it.\n\nThen I will decide.');
  });

  it('finds a fenced JSON {"name": "look", ...} object through the native-JSON fallback', () => {
    const text = '```json\n{"name": "look", "arguments": {"path": "README.md"}}\n```';
    const scan = scanBareCalls(text, TOOLS);
    expect(scan.calls).toEqual([{ id: 'native_fallback', name: 'look', arguments: { path: 'README.md' } }]);
    expect(scan.errors).toEqual([]);
  });

  it('finds fenced JSON after prose, keeping the item id', () => {
    const text = 'Reading now:\n```\n{"id": "c7", "name": "look", "parameters": "{\\"path\\": \\"a\\"}"}\n```';
    expect(scanBareCalls(text, TOOLS).calls).toEqual([{ id: 'c7', name: 'look', arguments: { path: 'a' } }]);
  });

  it('numbers calls tc_<k> within one sniff, fenced or not', () => {
    const text = '```\nrun({ command: "a" })\n```\nrun({ command: "b" })\n```python\nrun({ command: "c" })\n```';
    expect(scanBareCalls(text, TOOLS).calls.map((c) => [c.id, c.arguments.command])).toEqual([
      ['tc_0', 'a'],
      ['tc_1', 'b'],
      ['tc_2', 'c'],
    ]);
  });
});

describe('scanBareCalls: names', () => {
  it('reports an unknown name called with an object as an error, not a call', () => {
    const scan = scanBareCalls('frobnicate({ path: "a" })', TOOLS);
    expect(scan.calls).toEqual([]);
    expect(scan.errors).toHaveLength(1);
    expect(scan.errors[0]).toMatch(/^Unknown tool 'frobnicate'\./);
    expect(scan.errors[0]).toContain('[edit, ledger, load_skill, look, run]');
  });

  it('suggests the registered name a typo is closest to', () => {
    expect(scanBareCalls('edt({ path: "a" })', TOOLS).errors[0]).toContain("Did you mean 'edit'?");
  });

  it('leaves unknown names with non-object arguments as prose, silently', () => {
    const scan = scanBareCalls('multiply(2, 3)\nassert(x)', TOOLS);
    expect(scan).toEqual({ calls: [], errors: [], prose: 'multiply(2, 3)\nassert(x)' });
  });

  it('knows only ledger and load_skill without a registry', () => {
    expect(scanBareCalls('ledger({ op: "list" })').calls.map((c) => c.name)).toEqual(['ledger']);
    expect(scanBareCalls('load_skill({ name: "x" })', null).calls.map((c) => c.name)).toEqual(['load_skill']);
    const scan = scanBareCalls('run({ command: "ls" })');
    expect(scan.calls).toEqual([]);
    expect(scan.errors[0]).toContain('[ledger, load_skill]');
  });

  it('accepts an already-normalised registry', () => {
    expect(scanBareCalls('run({ command: "ls" })', REGISTRY).calls).toHaveLength(1);
  });

  it('folds shell aliases and edit verbs onto registered tools only', () => {
    expect(scanBareCalls('sh({ cmd: ["bash", "-lc", "make"] })', TOOLS).calls).toEqual([
      { id: 'tc_0', name: 'run', arguments: { command: 'make' } },
    ]);
    expect(scanBareCalls('replace_body({ path: "a.go" })', TOOLS).calls).toEqual([
      { id: 'tc_0', name: 'edit', arguments: { path: 'a.go', action: 'replace_body' } },
    ]);
    const withoutRun = scanBareCalls('bash({ script: "ls" })', [{ name: 'edit' }]);
    expect(withoutRun.calls).toEqual([]);
    expect(withoutRun.errors[0]).toMatch(/^Unknown tool 'bash'/);
  });

  it('never renames a registered tool that happens to be an alias', () => {
    expect(scanBareCalls('bash({ script: "ls" })', [{ name: 'bash' }, { name: 'run' }]).calls).toEqual([
      { id: 'tc_0', name: 'bash', arguments: { script: 'ls' } },
    ]);
  });
});

describe('scanBareCalls: line starts', () => {
  it('ignores mentions inside inline code but not calls on later lines', () => {
    const scan = scanBareCalls('I chose not to `run({ command: "rm" })` here.\nrun({ command: "ls" })', TOOLS);
    expect(scan.calls.map((c) => c.arguments.command)).toEqual(['ls']);
  });

  it('requires the call at a line start (after blanks, one `<` and one allowlisted label)', () => {
    expect(scanBareCalls('  <  tool: run({ command: "a" })>', TOOLS).calls).toHaveLength(1);
    expect(scanBareCalls('then run({ command: "a" })', TOOLS).calls).toEqual([]);
  });

  it('reports a known tool behind an unlisted label and does not run it', () => {
    const scan = scanBareCalls('Next: look({ path: "a" })', TOOLS);
    expect(scan.calls).toEqual([]);
    expect(scan.errors).toHaveLength(1);
    expect(scan.errors[0]).toMatch(/^Saw `Next: look\(\.\.\.\)`/);
  });

  it('reports a known tool called without an object literal', () => {
    const scan = scanBareCalls('run("ls")', TOOLS);
    expect(scan.calls).toEqual([]);
    expect(scan.errors[0]).toMatch(/^Tool 'run' must be called with an object literal argument/);
  });

  it('passes parse failures through with the machine prefix', () => {
    const scan = scanBareCalls('run({ command: )', TOOLS);
    expect(scan.calls).toEqual([]);
    expect(scan.errors[0]).toMatch(/^TOOL CALL PARSE ERROR/);
  });

  it('accepts name{...} for registered names', () => {
    expect(scanBareCalls('call:run{ command: "git status" }', TOOLS).calls).toEqual([
      { id: 'tc_0', name: 'run', arguments: { command: 'git status' } },
    ]);
  });

  it('strips <tool_call> wrappers but not wrapper text inside strings', () => {
    const scan = scanBareCalls('<tool_call>edit({ content: "<tool_call>x</tool_call>" })</tool_call>', TOOLS);
    expect(scan.calls[0]?.arguments.content).toBe('<tool_call>x</tool_call>');
    expect(scan.prose).toBe('');
  });

  it('strips thinking blocks before sniffing', () => {
    const scan = scanBareCalls('<think>run({ command: "secret" })</think>\nrun({ command: "ls" })', TOOLS);
    expect(scan.calls.map((c) => c.arguments.command)).toEqual(['ls']);
  });
});

describe('scanBareCalls: prose', () => {
  it('is the text without calls, with blank-line runs collapsed and trimmed', () => {
    const scan = scanBareCalls('\n\nFirst.\n\n\n\nrun({ command: "ls" })\n\n\n\nSecond.\n\n', TOOLS);
    expect(scan.prose).toBe('First.\n\nSecond.');
  });

  it('drops empty fence pairs even without calls', () => {
    expect(scanBareCalls('Before\n```\n\n```\nAfter', TOOLS).prose).toBe('Before\nAfter');
  });

  it('is the text around the payload when the native-JSON fallback answers', () => {
    const scan = scanBareCalls('Calling:\n\n\n\n[{"function": {"name": "run", "arguments": "{}"}}] now.', TOOLS);
    expect(scan).toEqual({ calls: [{ id: 'native_fallback', name: 'run', arguments: {} }], errors: [], prose: 'Calling:\n\n now.' });
    expect(scanBareCalls('Reading:\n```\n{"tool": "look", "arguments": {}}\n```', TOOLS)).toEqual({
      calls: [{ id: 'native_fallback', name: 'look', arguments: {} }],
      errors: [],
      prose: 'Reading:',
    });
  });
});

describe('scanBareCalls: parsed values', () => {
  it('keeps __proto__ as an own key without touching the prototype', () => {
    const scan = scanBareCalls('[{"name": "run", "arguments": {"__proto__": {"x": 1}}}]', TOOLS);
    const args = scan.calls[0]?.arguments as Record<string, unknown>;
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect((args as { x?: unknown }).x).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toEqual({ x: 1 });
  });
});

describe('scanBareCalls: misuse', () => {
  it('throws a TypeError naming the field for a non-string text', () => {
    expect(() => scanBareCalls(42 as unknown as string)).toThrow(/text must be a string/);
  });

  it('throws a TypeError for a malformed registry', () => {
    expect(() => scanBareCalls('x', 7)).toThrow(TypeError);
  });
});

describe('scanBareCalls: never throws on model text', () => {
  const pieces = [
    'run(', 'run({', '({', '})', ')', '{', '}', '[', ']', '"', "'", '`', '```', '```json', '\n', ' ', '\t', '<', '>',
    '<tool_call>', '</tool_call>', '<think>', '</think>', 'tool_code:', 'Hint:', 'edit', 'look', 'bash', '<<EOF', 'EOF',
    '\\', '\\n', 'command: "ls"', ':', ',', '"name"', '"function"', '"arguments"', '__proto__', 'é', '\ud83d', '\ude00',
  ];
  it('returns calls, errors and prose for arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''))), (text) => {
        const scan = scanBareCalls(text, TOOLS);
        expect(Array.isArray(scan.calls)).toBe(true);
        expect(Array.isArray(scan.errors)).toBe(true);
        expect(typeof scan.prose).toBe('string');
        for (const call of scan.calls) expect(['look', 'edit', 'run', 'ledger', 'load_skill']).toContain(call.name);
      }),
      { numRuns: 600 },
    );
  });
});

describe('scanBareCalls: round trip', () => {
  const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__');
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(key, tie('value'), { maxKeys: 3 }),
    ),
  }));
  const FENCE = '`'.repeat(3);
  const proseLine = fc.array(fc.constantFrom('Let', 'me', 'check', 'the', 'file.', 'Now'), { maxLength: 8 }).map((w) => w.join(' '));

  it('finds a canonically rendered call between prose lines, fenced or not, with equal arguments', () => {
    fc.assert(
      fc.property(fc.constantFrom('look', 'edit', 'run'), fc.dictionary(key, value, { maxKeys: 4 }), proseLine, proseLine, fc.boolean(), (name, args, before, after, fenced) => {
        const call = renderCanonicalCall(name, args);
        const text = fenced ? [before, FENCE + 'ts', call, FENCE, after].join('\n') : [before, call, after].join('\n');
        const scan = scanBareCalls(text, TOOLS);
        expect(scan.errors).toEqual([]);
        expect(scan.calls).toEqual([{ id: 'tc_0', name, arguments: JSON.parse(JSON.stringify(args)) }]);
        // The call's line (and its fence lines) leave one blank line between the prose lines.
        expect(scan.prose).toBe([before, after].filter((line) => line !== '').join('\n\n'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('scanBareUnits', () => {
  const unit = (fields: Record<string, unknown>): Unit => ({ start: 0, end: 0, ...fields }) as unknown as Unit;

  it('sniffs text-like units on their trimmed text, exactly like scanBareCalls', () => {
    const text = '  edit({ path: "main.go", content: \n';
    const [result] = scanBareUnits([unit({ kind: 'text', text, fenced: false })], REGISTRY);
    expect(result).toEqual({ bare: scanBareCalls(text.trim(), REGISTRY) });
    expect(scanBareUnits([unit({ kind: 'fenced_line', text: ' run({ command: "ls" }) ' })], REGISTRY)).toEqual([
      { bare: { calls: [{ id: 'tc_0', name: 'run', arguments: { command: 'ls' } }], errors: [], prose: '' } },
    ]);
  });

  it('parses block heads directly, known or not', () => {
    const results = scanBareUnits(
      [
        unit({ kind: 'block', tag: 'tool_call', body: '\n frobnicate({ a: 1 }) \n', closed: true, head_name: 'frobnicate', head_sep: '(' }),
        unit({ kind: 'unclosed_block', tag: 'tool_call', body: ' run{ command: "ls" } tail', closed: false, head_name: 'run', head_sep: '{' }),
        unit({ kind: 'block', tag: 'tool_call', body: 'look ({})', closed: true, head_name: 'look', head_sep: '(' }),
      ],
      REGISTRY,
    );
    expect(results[0]).toEqual({ direct: { ok: true, arguments: { a: 1 }, consumed: 'frobnicate({ a: 1 })'.length } });
    expect(results[1]).toEqual({ direct: { ok: true, value: { command: 'ls' }, consumed: 'run{ command: "ls" }'.length } });
    expect(results[2]).toMatchObject({ direct: { ok: false } });
  });

  it('answers null for blocks without a head and for other kinds', () => {
    const results = scanBareUnits(
      [
        unit({ kind: 'block', tag: 'assistant_prose', body: 'hello', closed: true }),
        unit({ kind: 'tag', raw: '<x>', name: 'x' }),
        unit({ kind: 'wrapper', tag: 'function_calls' }),
        null as unknown as Unit,
        unit({ kind: 'text' }),
      ],
      null,
    );
    expect(results).toEqual([null, null, null, null, null]);
  });

  it('rejects a registry that is not normalised', () => {
    expect(() => scanBareUnits([], TOOLS as never)).toThrow(/registry must be a normalised tool registry/);
    expect(() => scanBareUnits('x' as never, null)).toThrow(/units must be an array/);
  });
});
