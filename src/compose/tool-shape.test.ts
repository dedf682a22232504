import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_GRAMMARS } from '../dialects/field/index.js';
import { parseToolCalls } from './parse.js';
import { EXCERPT_LIMIT, toolShapeFinding, toolShapeViolations } from './tool-shape.js';

const drop = (text: string, reason: 'salvaged_as_prose' | 'fenced_narration' | 'unparsed_call_block' = 'salvaged_as_prose') => ({ text, reason });

describe('tool-shape findings', () => {
  it('finds call markup anywhere in the rejoined drops, with a bounded excerpt', () => {
    const finding = toolShapeFinding([drop('Let me look.'), drop('<function=look>\n<parameter=file>a</parameter>', 'fenced_narration')]);
    expect(finding).toEqual({ shape: 'call_markup', dropped_reason: 'salvaged_as_prose', excerpt: '\u2026<function=look>\n<parameter=file>a</parameter>' });
  });

  it('finds a tag wrapping a call body, skipping protocol tags', () => {
    expect(toolShapeFinding([drop('<tool_call>run(x)</tool_call>')])).toBeNull();
    expect(toolShapeFinding([drop('<execute>run({"command": "ls"})</execute>')])?.shape).toBe('tagged_call_body');
    expect(toolShapeFinding([drop('<note>plain words</note>')])).toBeNull();
  });

  it('finds JSON with name and arguments keys', () => {
    const finding = toolShapeFinding([drop('{"name": "run", "arguments": {"command": "ls"}}')]);
    expect(finding?.shape).toBe('json_name_arguments');
    expect(finding?.excerpt.startsWith('\u2026"name"')).toBe(true);
  });

  it('under gateway, takes JSON for a call only where its arguments are an object or JSON text: a list there is data', () => {
    const launch = '{\n  "name": "Python: Current File",\n  "type": "debugpy",\n  "args": ["--port", "1593"]\n}';
    expect(toolShapeFinding([drop(launch)], { fieldGrammars: true, profile: 'gateway' })).toBeNull();
    expect(toolShapeFinding([drop(launch)])?.shape).toBe('json_name_arguments');
    for (const call of ['{"name": "run", "arguments": {"command": "ls"}}', '{"name": "run", "arguments": "{\\"command\\": \\"ls\\"}"}', '{\\"name\\": \\"run\\", \\"args\\": {\\"command\\": \\"ls\\"}}']) {
      expect(toolShapeFinding([drop(call)], { fieldGrammars: true, profile: 'gateway' })?.shape, call).toBe('json_name_arguments');
    }
  });

  it("counts Functionary's `>>>` only glued to a recipient name: a Python prompt and a shift are text", () => {
    const field = { fieldGrammars: true } as const;
    for (const text of ['>>> print(1)', 'x = a >>> 2', 'Type after the prompt >>>', '>>>']) expect(toolShapeFinding([drop(text)], field)).toBeNull();
    expect(toolShapeFinding([drop('See:\n>>>frob\n{"a": 1')], field)).toEqual({ shape: 'call_markup', dropped_reason: 'salvaged_as_prose', excerpt: '\u2026>>>frob\n{"a": 1' });
    expect(toolShapeFinding([drop('>>>_private')], field)?.shape).toBe('call_markup');
    const repl = parseToolCalls('In the REPL:\n```py\n>>> print(1)\n1\n```\nShift with `a >>> 2`.', { tools: ['look'] });
    expect(repl.protocol_violations).toEqual([]);
    expect(repl.prose).toBe('In the REPL:\n```py\n>>> print(1)\n1\n```\nShift with `a >>> 2`.');
  });

  it('finds a field marker in the drop it stands in, and never across two drops', () => {
    const field = { fieldGrammars: true } as const;
    // The first drop holding a marker gives the reason and the excerpt, from its own text.
    const found = toolShapeFinding([drop('Plain words.'), drop('More words.', 'fenced_narration'), drop('Then <|tool_call_begin|> x', 'fenced_narration'), drop('</function>')], field);
    expect(found).toEqual({ shape: 'call_markup', dropped_reason: 'fenced_narration', excerpt: '\u2026<|tool_call_begin|> x' });
    // A marker that counts only before a name or a body does not pair with the next drop's start.
    expect(toolShapeFinding([drop('Type >>>'), drop('frob then stop')], field)).toBeNull();
    expect(toolShapeFinding([drop('It uses functools'), drop('[1, 2] later')], field)).toBeNull();
    // A NUL written by the model is text like any other.
    expect(toolShapeFinding([drop('a\u0000b'), drop('c\u0000 </function>d')], field)?.excerpt).toBe('\u2026</function>d');
  });

  it('finds every field grammar marker after plain prose drops (the probes that rule out a plain ledger miss none)', () => {
    const field = { fieldGrammars: true } as const;
    const markers = new Set(FIELD_GRAMMARS.flatMap((grammar) => grammar.markers.filter((marker) => marker.trim() !== '')));
    expect(markers.size).toBeGreaterThan(100);
    for (const marker of markers) {
      // Some markers count only before a name or a body (`>>>frob`, `functools[{…}]`).
      const found = ['', 'frob', 'frob({"a": 1})', '[{"name": "f", "arguments": {}}]'].some((after) => toolShapeFinding([drop('Plain words (1).'), drop(`See ${marker}${after}`)], field) !== null);
      expect(found, marker).toBe(true);
    }
    expect(toolShapeFinding([drop('Plain words (1).'), drop('More plain words, and a list: a, b.')], field)).toBeNull();
  });

  it('reads drops with no markup at all as the full check does (a drop with a lone `>` sends the same drops down it)', () => {
    // Words, field-marker pieces that need no `<`, `>`, `[` or `{` (`functools`, `**Tool Call:**`,
    // `]<]minimax`, `◁think▷`), quotes and parens: the prose between a model's calls.
    const piece = fc.constantFrom('Plain words', ' ', '\n', '(1)', '"name": "f"', '"arguments"', 'functools', '**Tool Call:**', ']', '◁think▷', 'call:', 'to=functions.x', '\u0000', 'é');
    const prose = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
    const reason = fc.constantFrom<'salvaged_as_prose' | 'fenced_narration' | 'unparsed_call_block'>('salvaged_as_prose', 'fenced_narration', 'unparsed_call_block');
    fc.assert(
      fc.property(fc.array(fc.tuple(prose, reason), { minLength: 1, maxLength: 5 }), fc.boolean(), (drops, field) => {
        const ledger = drops.map(([text, why]) => drop(text, why));
        // `1 > 0` holds no shape and no marker of its own, and comes last: the first finding stands where it was.
        const options = { fieldGrammars: field };
        expect(toolShapeFinding(ledger, options)).toEqual(toolShapeFinding([...ledger, drop('1 > 0')], options));
      }),
      { numRuns: 2000 },
    );
  });

  it('ignores drops that already carry a diagnostic', () => {
    expect(toolShapeFinding([drop('<function=run>', 'unparsed_call_block')])).toBeNull();
  });

  it('truncates long excerpts', () => {
    const finding = toolShapeFinding([drop(`[TOOL_CALLS]${'x'.repeat(400)}`)]);
    expect(finding?.excerpt).toHaveLength(EXCERPT_LIMIT + 1);
    expect(finding?.excerpt.endsWith('\u2026')).toBe(true);
  });

  it('turns the finding into one unparsed_tool_syntax violation naming the taught syntax', () => {
    const [violation, ...rest] = toolShapeViolations([drop('<invoke name="run">')], 'json');
    expect(rest).toEqual([]);
    expect(violation?.kind).toBe('unparsed_tool_syntax');
    expect(violation?.dropped_reason).toBe('salvaged_as_prose');
    expect(violation?.message.startsWith('unparsed_tool_syntax:')).toBe(true);
    expect(violation?.message).toContain('```tool');
    expect(toolShapeViolations([drop('just words')], 'text')).toEqual([]);
  });

  it('reads many distinct unclosed tags without a finding', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `<t${i}>`).join(' ');
    expect(toolShapeFinding([drop(text)])).toBeNull();
  });
});

/** The detector as the reference states it, with its regular expressions (the reference vocabulary's `tool_shape` table). */
function referenceShape(text: string): [string, number] | null {
  const markup = /<(?:function|invoke|tool)\s*[=\s][^>]*>/i.exec(text) ?? /\[TOOL_CALLS\]|<\|recipient\|>|<\|channel\|>/i.exec(text);
  if (markup) return ['call_markup', markup.index];
  const protocol = new Set(['tool_call', 'toolcall', 'assistant_prose', 'assistantprose', 'user_response', 'userresponse', 'done']);
  for (const m of text.matchAll(/<([A-Za-z_][A-Za-z0-9_.:-]*)\b[^>]*>/gs)) {
    const name = m[1]!.toLowerCase();
    if (protocol.has(name)) continue;
    const bodyStart = m.index + m[0].length;
    const close = text.indexOf(`</${name}>`, bodyStart);
    if (close < 0) continue;
    const body = text.slice(bodyStart, close);
    if (/[A-Za-z_][A-Za-z0-9_]*\s*\(/.test(body) || /\{[^{}]*"?[A-Za-z_][A-Za-z0-9_]*"?\s*:/.test(body)) return ['tagged_call_body', m.index];
  }
  const nameKey = /"(?:name|tool|tool_name|recipient)"\s*:/i.exec(text);
  if (text.includes('{') && nameKey && /"(?:arguments|args|parameters|input|params)"\s*:/i.test(text)) return ['json_name_arguments', nameKey.index];
  return null;
}

describe('tool-shape sweeps agree with the reference expressions', () => {
  const atoms = ['<', '>', '</', '{', '}', '(', ':', '"', '=', ' ', '\n', '\u00a0', 'a', 'Z', '_', '1', '.', '-', 'function', 'INVOKE', 'tool', 'x', 'note', 'done', '"name"', '"args"', '[TOOL_CALLS]', '<|channel|>'];
  const text = fc.array(fc.constantFrom(...atoms), { maxLength: 40 }).map((parts) => parts.join(''));

  it('finds the same shape at the same place', () => {
    fc.assert(
      fc.property(text, (t) => {
        const expected = referenceShape(t);
        const finding = toolShapeFinding([drop(t)]);
        if (expected === null) {
          expect(finding).toBeNull();
          return;
        }
        expect(finding?.shape).toBe(expected[0]);
        const rest = t.slice(expected[1]).trim();
        const body = rest.length > EXCERPT_LIMIT ? rest.slice(0, EXCERPT_LIMIT) + '\u2026' : rest;
        expect(finding?.excerpt).toBe(expected[1] > 0 ? '\u2026' + body : body);
      }),
      { numRuns: 3000 },
    );
  });
});
