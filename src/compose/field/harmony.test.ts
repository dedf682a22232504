import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HARMONY } from '../../dialects/field/harmony.js';
import { parseToolCalls } from '../parse.js';

const tools = [{ name: 'look' }, { name: 'search' }, { name: 'browser.search' }, { name: 'python', parameters: { type: 'object', properties: { code: { type: 'string' } } } }];
const gateway = (text: string, withTools: unknown = tools) => parseToolCalls(text, { tools: withTools, profile: 'gateway' });
const pairs = (text: string, withTools: unknown = tools) => gateway(text, withTools).calls.map((c) => [c.name, c.arguments]);

/** One call message, in one of the header spellings the templates write. */
function callMessage(name: string, args: unknown, variant = 0, space = ''): string {
  const s = space;
  const body = JSON.stringify(args);
  switch (variant % 4) {
    case 0:
      return `<|start|>${s}assistant<|channel|>${s}commentary to=functions.${name} <|constrain|>${s}json<|message|>${s}${body}<|call|>`;
    case 1:
      return `<|start|>${s}assistant to=functions.${name}<|channel|>${s}commentary<|constrain|>${s}json<|message|>${s}${body}<|call|>`;
    case 2:
      return `<|start|>${s}assistant<|channel|>${s}commentary to=functions.${name} json<|message|>${s}${body}<|call|>`;
    default:
      return `<|start|>${s}assistant<|channel|>${s}commentary to=functions.${name}<|message|>${s}${body}<|call|>`;
  }
}

describe('field lane: Harmony', () => {
  it("reads the README's Harmony row as the call look({path: 'a.rs'})", () => {
    const result = gateway('<|start|>assistant<|channel|>commentary to=functions.look <|constrain|>json<|message|>{"path":"a.rs"}<|call|>');
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'a.rs' }]]);
    expect(result.prose).toBe('');
    expect(result.dropped).toEqual([]);
    expect(result.tool_parse_errors).toEqual([]);
  });

  it('reads every header spelling, LLM-jp spaces included', () => {
    for (let variant = 0; variant < 4; variant++) {
      for (const space of ['', ' ']) expect(pairs(callMessage('look', { path: 'x' }, variant, space))).toEqual([['look', { path: 'x' }]]);
    }
  });

  it('reads parallel calls written as consecutive messages', () => {
    const text = `${callMessage('look', { path: 'a' })}<|end|>${callMessage('search', { q: 'b' }, 1)}<|end|><|start|>assistant<|channel|>commentary to=browser.search<|message|>{"query":"c"}<|call|>`;
    expect(pairs(text)).toEqual([['look', { path: 'a' }], ['search', { q: 'b' }], ['browser.search', { query: 'c' }]]);
  });

  it('keeps analysis out of prose, in reasoning; preamble and final are prose without markers', () => {
    const text = '<|channel|>analysis<|message|>Need the file.<|end|><|start|>assistant<|channel|>commentary<|message|>Checking the file.<|end|>' + callMessage('look', { path: 'a' }) + '<|start|>assistant<|channel|>final<|message|>It says hi.<|return|>';
    const result = gateway(text);
    expect(result.calls.map((c) => c.name)).toEqual(['look']);
    expect(result.prose).toBe('Checking the file.\n\nIt says hi.');
    expect(result.reasoning).toBe('Need the file.');
    // Visible bodies are read as the text around them is: prose (which the walk also notes as salvaged).
    expect(result.dropped.filter((d) => d.reason !== 'salvaged_as_prose')).toEqual([]);
    expect(result.protocol_violations).toEqual([]);
  });

  it('keeps prose before and after, also glued to the markers', () => {
    expect(gateway(`Let me look.\n${callMessage('look', { path: 'a' })}\nDone.`).prose).toBe('Let me look.\n\nDone.');
    const glued = gateway(`Looking.${callMessage('look', { path: 'a' })}Done.`);
    expect(glued.calls.map((c) => c.name)).toEqual(['look']);
    expect(glued.prose).toBe('Looking.\n\nDone.');
  });

  it('reads output that begins mid-header, and only an unambiguous header', () => {
    expect(pairs('commentary to=functions.look json<|message|>{"path":"b"}<|call|>')).toEqual([['look', { path: 'b' }]]);
    expect(pairs(' to=functions.look<|channel|>commentary<|message|>{"path":"c"}<|call|>')).toEqual([['look', { path: 'c' }]]);
    expect(pairs('analysis<|message|>x<|end|><|start|>assistant<|channel|>final<|message|>y')).toEqual([]);
    const prose = gateway('We set commentary to=functions.look in the config, see below.');
    expect(prose.prose).toBe('We set commentary to=functions.look in the config, see below.');
    expect(prose.calls).toEqual([]);
  });

  it('reads complete arguments whose end marker is missing, with recovered_dialect', () => {
    const result = gateway('<|channel|>commentary to=functions.look<|constrain|>json<|message|>{"path":"a"}');
    expect(result.calls.map((c) => c.arguments)).toEqual([{ path: 'a' }]);
    expect(result.protocol_violations.map((v) => v.kind)).toEqual(['recovered_dialect']);
    const next = gateway('<|channel|>commentary to=functions.look<|message|>{"path":"a"}<|start|>assistant<|channel|>final<|message|>ok');
    expect(next.calls.map((c) => c.name)).toEqual(['look']);
    expect(next.prose).toBe('ok');
  });

  it('turns arguments cut off by the end of the text into a truncation error and a drop', () => {
    const text = '<|start|>assistant<|channel|>commentary to=functions.look<|message|>{"path":"a.r';
    const result = gateway(text);
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL TRUNCATED:/)]);
    expect(result.dropped).toEqual([{ text, reason: 'unparsed_call_block' }]);
    expect(result.prose).toBe('');
  });

  it('refuses an unregistered name, and reads any name with no registry', () => {
    const result = gateway(callMessage('rm_rf', { path: '/' }));
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([expect.stringContaining("Unknown tool 'functions.rm_rf'")]);
    expect(result.dropped.map((d) => d.reason)).toEqual(['unknown_tool']);
    expect(result.prose).toBe('');
    expect(pairs(callMessage('anything', { x: 1 }), null)).toEqual([['anything', { x: 1 }]]);
  });

  it('gives a one-parameter built-in (python) its raw code; bad JSON elsewhere is an error', () => {
    expect(pairs('<|channel|>analysis to=python code<|message|>print(1 + 1)<|call|>')).toEqual([['python', { code: 'print(1 + 1)' }]]);
    const bad = gateway('<|channel|>commentary to=functions.look<|message|>{path: a}<|call|> after');
    expect(bad.calls).toEqual([]);
    expect(bad.tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL PARSE ERROR/)]);
    expect(bad.prose).toBe('after');
  });

  it('gives a code recipient whose tool declares nothing its raw body as code, closed or cut by the end', () => {
    expect(pairs('<|start|>assistant<|channel|>commentary to=python <|constrain|>code<|message|>print(1+1)<|call|>', ['python'])).toEqual([['python', { code: 'print(1+1)' }]]);
    const open = gateway('<|start|>assistant<|channel|>commentary to=python <|constrain|>code<|message|>print("hello")');
    expect(open.calls.map((c) => [c.name, c.arguments])).toEqual([['python', { code: 'print("hello")' }]]);
    expect(open.protocol_violations.map((v) => v.kind)).toEqual(['recovered_dialect']);
    // A JSON object is still read as JSON, and one cut off is truncation, never raw code.
    expect(pairs('<|channel|>analysis to=python<|message|>{"code": "x = 1"}<|call|>')).toEqual([['python', { code: 'x = 1' }]]);
    const cut = gateway('<|channel|>analysis to=python<|message|>{"code": "x =');
    expect(cut.calls).toEqual([]);
    expect(cut.tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL TRUNCATED:/)]);
    // Another tool that declares nothing gets no raw body.
    expect(gateway('<|channel|>commentary to=functions.look<|message|>print(1)<|call|>').calls).toEqual([]);
  });

  it('reads an empty body before its end as a call with no arguments; one cut after <|message|> is truncation', () => {
    expect(pairs('<|start|>assistant<|channel|>commentary to=functions.look <|constrain|>json<|message|><|call|>')).toEqual([['look', {}]]);
    const cut = gateway('<|start|>assistant<|channel|>commentary to=functions.look <|constrain|>json<|message|>');
    expect(cut.calls).toEqual([]);
    expect(cut.tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL TRUNCATED:/)]);
  });

  it('reads output that begins at a channel word glued to <|message|>', () => {
    const analysis = gateway('analysis<|message|>Need the file.<|end|><|start|>assistant<|channel|>final<|message|>Done.<|return|>');
    expect([analysis.reasoning, analysis.prose]).toEqual(['Need the file.', 'Done.']);
    expect(gateway('final<|message|>Done.<|return|>').prose).toBe('Done.');
    const preamble = gateway(`commentary<|message|>Checking.<|end|>${callMessage('look', { path: 'a' })}`);
    expect([preamble.prose, preamble.calls.map((c) => c.name)]).toEqual(['Checking.', ['look']]);
  });

  it('steps over a header abandoned for another, its words on the ledger, not in prose', () => {
    const result = gateway('<|channel|>commentary to=assistant<|channel|>analysis<|message|>I am\nthinking<|end|><|start|>assistant<|channel|>final<|message|>Hello!');
    expect(result.prose).toBe('Hello!');
    expect(result.reasoning).toBe('I am\nthinking');
    expect(result.dropped).toContainEqual({ text: 'commentary to=assistant', reason: 'salvaged_as_prose' });
    // Words that are no header are not stepped over: they stay prose.
    expect(gateway('<|channel|>not a header at all<|channel|>final<|message|>Hello!').prose).toContain('not a header at all');
  });

  it('keeps markers inside JSON arguments as arguments', () => {
    expect(pairs(callMessage('look', { path: 'a<|call|>b<|end|>' }))).toEqual([['look', { path: 'a<|call|>b<|end|>' }]]);
  });

  it('changes nothing under the harn profile', () => {
    const text = `${callMessage('look', { path: 'a' })}<|start|>assistant<|channel|>final<|message|>Done.`;
    expect(parseToolCalls(text, { tools, profile: 'harn' }).calls).toEqual([]);
    expect(parseToolCalls(text, { tools, profile: 'harn' })).not.toHaveProperty('reasoning');
    expect(parseToolCalls(text, { tools }).calls.map((c) => c.name)).toEqual(['look']);
  });
});

describe('Harmony properties', () => {
  const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...HARMONY.markers, 'to=functions.', '"', '\\'));
  const args = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.boolean(), fc.array(text, { maxLength: 3 }).map((p) => p.join(''))), { maxKeys: 3 });
  const prose = fc.array(fc.constantFrom('Let', 'me', 'check.', 'Done', 'ok'), { maxLength: 5 }).map((w) => w.join(' '));

  it('reads back random calls in random header spellings, between prose, analysis and final messages', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('look', 'search'), args, fc.nat(3)), { minLength: 1, maxLength: 3 }), prose, prose, fc.constantFrom('', ' '), (calls, before, answer, space) => {
        const messages = calls.map(([name, a, variant]) => callMessage(name, a, variant, space)).join('<|end|>');
        const analysis = `<|channel|>${space}analysis<|message|>${space}thinking about it<|end|>`;
        const final = answer === '' ? '' : `<|start|>assistant<|channel|>final<|message|>${answer}<|return|>`;
        const result = gateway(`${before}\n${analysis}${messages}${final}`);
        expect(result.tool_parse_errors).toEqual([]);
        expect(result.calls.map((c) => [c.name, c.arguments])).toEqual(calls.map(([name, a]) => [name, a]));
        expect(result.prose).toBe([before, answer].filter((p) => p !== '').join('\n\n'));
        for (const marker of HARMONY.markers) expect(result.prose).not.toContain(marker);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on random fragments of the markers', () => {
    const piece = fc.constantFrom(...HARMONY.markers, 'assistant', 'analysis', 'commentary', 'final', ' to=functions.look', 'to=python', ' json', '{"a":1}', '{', '"', ' ', '\n', 'x');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.boolean(), (pieces, withTools) => {
        const result = gateway(pieces.join(''), withTools ? tools : null);
        expect(Array.isArray(result.calls)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
