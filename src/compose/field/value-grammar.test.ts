import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderPyCall, seededPick } from '../../../test/support/py-render.js';
import { REASONING_GRAMMARS } from '../../dialects/field/reasoning.js';
import { VALUE_GRAMMARS } from '../../dialects/field/value-grammars.js';
import type { ValueGrammar } from '../../dialects/field/index.js';
import { parseToolCalls } from '../parse.js';

const tools = [{ name: 'get_weather' }, { name: 'search' }, { name: 'brave_search' }];
const gateway = (text: string, withTools: unknown = tools) => parseToolCalls(text, { tools: withTools, profile: 'gateway' });

type Args = Record<string, unknown>;

/** Renders calls in a grammar, from its record: opener, body form, close. */
function render(grammar: ValueGrammar, calls: readonly (readonly [string, Args])[], seed = 1, close = true): string {
  const opener = grammar.openers[0]!;
  const end = close ? grammar.close[0]! : '';
  const body = grammar.body;
  const style = { pick: seededPick(seed), jsonConstants: grammar.id.startsWith('lfm2') };
  if (body.form === 'py-calls') {
    const rendered = calls.map(([name, args]) => renderPyCall(name, args, style));
    return grammar.id.startsWith('olmo3') ? `${opener}\n${rendered.join('\n')}\n${end}` : `${opener}[${rendered.join(', ')}]${end}`;
  }
  if (body.form === 'py-method-call') return calls.map(([name, args]) => `${opener}${renderPyCall(`${name}.${body.method}`, args, style)}${end}`).join('\n');
  const value = (v: unknown): string => {
    if (typeof v === 'string') return `${body.stringDelimiter}${v}${body.stringDelimiter}`;
    if (Array.isArray(v)) return `[${v.map(value).join(',')}]`;
    if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${k}:${value(x)}`).join(',')}}`;
    return JSON.stringify(v);
  };
  // An opener that ends with the call prefix (Gemma 4's `<channel|>call:`) writes it once, then bare calls follow;
  // it is a reasoning block's stop, so the block it ends is written first (with none, the text before it would be reasoning).
  const prefix = body.callPrefixes.at(-1)!;
  if (opener.endsWith(prefix)) {
    const block = REASONING_GRAMMARS.find((g) => g.stop.includes(opener));
    return `${block?.open[0] ?? ''}${opener}${calls.map(([name, args]) => `${name}${value(args)}`).join(prefix)}${end}`;
  }
  return calls.map(([name, args]) => `${opener}${prefix}${name}${value(args)}${end}`).join('');
}

const one: [string, Args] = ['get_weather', { city: 'Paris', days: 3 }];
const two: [string, Args] = ['search', { query: 'rain', tags: ['a', 'b'], deep: { ok: true, none: null } }];
/** Llama 3's built-in form carries one call per opener; the others carry several in one region. */
const several = (g: ValueGrammar) => (g.body.form === 'py-method-call' ? [one] : [one, two]);

/** A record whose opener is a reasoning block's stop (Gemma 4's bare calls) is rendered after that block: its own cases are below. */
const afterBlock = (g: ValueGrammar) => REASONING_GRAMMARS.some((r) => r.stop.includes(g.openers[0]!));

/** A look-alike record (no marker of its own, registered names only) has rules of its own: its cases are below. */
const lookalike = (g: ValueGrammar) => g.registeredOnly === true;

describe('value grammar gemma4-bare (a look-alike: registered names only)', () => {
  const call = 'call:get_weather{city:<|"|>Paris<|"|>,days:3}';
  it('reads a registered call at a line start, with or without its delimiters, the prose around it kept', () => {
    expect(gateway(`Let me check.\n${call}\nDone.`)).toMatchObject({ calls: [{ name: 'get_weather', arguments: { city: 'Paris', days: 3 } }], prose: 'Let me check.\n\nDone.', tool_parse_errors: [] });
    expect(gateway('call:get_weather{city:Paris,days:3}').calls.map((c) => [c.name, c.arguments])).toEqual([one]);
    expect(gateway(`${call}\ncall:search{query:rain}`).calls.map((c) => c.name)).toEqual(['get_weather', 'search']);
  });

  it('leaves prose alone: an unregistered name, no registry, a call mid-sentence or with words after it', () => {
    for (const [text, withTools] of [['call:book{to:Paris}', tools], ['call:get_weather{city:Paris}', null], ['Try call:get_weather{city:Paris} now.', tools], ['call:search{query:rain} is how.', [{ name: 'get_weather' }]]] as const) {
      const result = gateway(text, withTools);
      expect(result.calls, text).toEqual([]);
      expect(result.tool_parse_errors, text).toEqual([]);
      expect(result.prose, text).toBe(text);
    }
  });

  it('turns a registered call cut off by the end of the text into a truncation', () => {
    const result = gateway('call:get_weather{city:<|"|>Par');
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors[0]).toMatch(/^TOOL CALL TRUNCATED:/);
    expect(result.dropped.length).toBeGreaterThan(0);
  });
});

describe.each(VALUE_GRAMMARS.filter((g) => !afterBlock(g) && !lookalike(g)).map((g) => [g.id, g] as const))('value grammar %s', (_id, grammar) => {
  it('reads one call, with no marker in prose and nothing dropped', () => {
    const result = gateway(render(grammar, [one]));
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([one]);
    expect(result.prose).toBe('');
    expect(result.dropped).toEqual([]);
    expect(result.tool_parse_errors).toEqual([]);
    expect(result.protocol_violations).toEqual([]);
  });

  it('reads several calls in order', () => {
    expect(gateway(render(grammar, several(grammar))).calls.map((c) => [c.name, c.arguments])).toEqual(several(grammar));
  });

  it('keeps prose before and after, also glued to the markers', () => {
    const call = render(grammar, [one]);
    expect(gateway(`Let me check.\n${call}\nDone.`).prose).toBe('Let me check.\n\nDone.');
    const glued = gateway(`Checking.${call}Done.`);
    expect(glued.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(glued.prose).toBe('Checking.\n\nDone.');
  });

  it('reads complete calls whose close is missing at the end of the text', () => {
    const result = gateway(render(grammar, [one], 1, false));
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([one]);
    expect(result.protocol_violations.map((v) => v.kind)).toEqual(grammar.closeRequired ? ['recovered_dialect'] : []);
  });

  it('turns arguments cut off by the end of the text into a truncation error and a drop', () => {
    const full = render(grammar, [one]);
    const text = full.slice(0, full.indexOf('Paris') + 3);
    const result = gateway(text);
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL TRUNCATED:.*'get_weather'/)]);
    expect(result.dropped).toEqual([{ text, reason: 'unparsed_call_block' }]);
    expect(result.prose).toBe('');
  });

  it('refuses an unregistered name with an error and a drop, never a call or prose', () => {
    const result = gateway(render(grammar, [['rm_rf', { path: '/' }]]));
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([expect.stringContaining("Unknown tool 'rm_rf'")]);
    expect(result.dropped.map((d) => d.reason)).toEqual(['unknown_tool']);
    expect(result.prose).toBe('');
  });

  it('with no registry, a call inside the markers is a call whatever its name', () => {
    expect(gateway(render(grammar, [['anything', { x: 1 }]]), null).calls.map((c) => [c.name, c.arguments])).toEqual([['anything', { x: 1 }]]);
  });

  it('leaves a look-alike of its body without the markers as prose', () => {
    const body = render(grammar, [['not_a_tool', { x: 1 }]]).replaceAll(grammar.openers[0]!, '').replaceAll(grammar.close[0]!, '');
    const result = gateway(`For example: ${body.trim()}`);
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([]);
    expect(result.prose).toContain('not_a_tool');
  });

  it('reads nothing under the harn profile', () => {
    expect(parseToolCalls(render(grammar, [one]), { tools, profile: 'harn' }).calls).toEqual([]);
  });
});

describe('value grammar gemma4-after-thought: bare calls after the thinking channel', () => {
  const thought = '<|channel>thought\nParis, then rain.';
  it('reads bare calls after the channel, closed or not, with the channel as reasoning', () => {
    for (const close of ['', '<tool_call|>']) {
      const result = gateway(`${thought}<channel|>call:get_weather{city:<|"|>Paris<|"|>}call:search{query:<|"|>rain<|"|>}${close}`);
      expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Paris' }], ['search', { query: 'rain' }]]);
      expect(result.reasoning).toBe('Paris, then rain.');
      expect(result.prose).toBe('');
      expect(result.tool_parse_errors).toEqual([]);
    }
  });

  it('ends an orphan channel the same way: the text before the close is reasoning', () => {
    const result = gateway('Paris, then rain.<channel|>call:get_weather{city:<|"|>Paris<|"|>}');
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(result.reasoning).toBe('Paris, then rain.');
  });

  it('turns a bare call cut off into a truncation, and leaves `call:` in a sentence as prose', () => {
    const cut = gateway(`${thought}<channel|>call:get_weather{city:<|"|>Par`);
    expect(cut.calls).toEqual([]);
    expect(cut.tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL TRUNCATED:/)]);
    const sentence = gateway('Write call:get_weather{city:Paris} to ask for it.');
    expect(sentence.calls).toEqual([]);
    expect(sentence.prose).toContain('call:get_weather');
  });
});

describe('value grammars: shapes and shared openers', () => {
  it('leaves a JSON body after a shared opener to another reader', () => {
    const text = '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]<|tool_call_end|>';
    expect(gateway(text).tool_parse_errors.filter((e) => e.includes('lfm2-pythonic'))).toEqual([]);
    const invoke = '<function_calls><invoke name="get_weather"><parameter name="city">Paris</parameter></invoke></function_calls>';
    expect(gateway(invoke).tool_parse_errors.filter((e) => e.includes('olmo3'))).toEqual([]);
    expect(gateway('<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}').tool_parse_errors.filter((e) => e.includes('llama3-builtin'))).toEqual([]);
  });

  it('reports a body that is not a call list after a unique opener, dropped up to the close', () => {
    const result = gateway("<|python_start|>[get_weather(city=paris)]<|python_end|> after");
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([expect.stringMatching(/^TOOL CALL PARSE ERROR.*'paris' is a name/)]);
    expect(result.dropped.filter((d) => d.reason === 'unparsed_call_block')).toEqual([{ text: '<|python_start|>[get_weather(city=paris)]<|python_end|>', reason: 'unparsed_call_block' }]);
    expect(result.prose).toBe('after');
  });

  it('keeps the Olmo 3 calls read before a line that is not a call', () => {
    const result = gateway("<function_calls>\nget_weather(city='Paris')\nnot really a call\n</function_calls>");
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(result.dropped).toEqual([{ text: 'not really a call\n</function_calls>', reason: 'unparsed_call_block' }]);
  });

  it('keeps the calls beside one that does not read, and drops the region whole when none reads', () => {
    const mixed = gateway("<|tool_call_start|>[search(q=b'x'), get_weather(city='Oslo')]<|tool_call_end|>");
    expect(mixed.calls.map((c) => c.arguments)).toEqual([{ city: 'Oslo' }]);
    expect(mixed.dropped).toEqual([{ text: "search(q=b'x')", reason: 'unparsed_call_block' }]);
    const none = gateway("<|tool_call_start|>[search(q=b'x'), get_weather(city=Oslo)]<|tool_call_end|>");
    expect(none.calls).toEqual([]);
    expect(none.tool_parse_errors).toHaveLength(2);
    expect(none.dropped).toEqual([{ text: "<|tool_call_start|>[search(q=b'x'), get_weather(city=Oslo)]<|tool_call_end|>", reason: 'unparsed_call_block' }]);
  });

  it('goes on at the next Olmo 3 line that starts a call, the lines between dropped with the failed one', () => {
    const result = gateway("<function_calls>\nsearch(q=b'x',\n  deep=1)\nget_weather(city='Oslo')\n</function_calls>");
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(result.dropped).toEqual([{ text: "search(q=b'x',\n  deep=1)", reason: 'unparsed_call_block' }]);
  });

  it('steps over what Gemma writes right after a call, and types delimited values by the schema', () => {
    const typed = [{ name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' }, all: { type: 'boolean' } } } }];
    const result = gateway('<|tool_call>call:search{q:<|"|>7<|"|>,n:<|"|>7<|"|>,all:<|"|>TRUE<|"|>}<tool_call|><turn|>', typed);
    expect(result.calls.map((c) => c.arguments)).toEqual([{ q: '7', n: 7, all: true }]);
    expect(result.prose).toBe('');
    expect(result.dropped).toEqual([]);
    expect(gateway('<start_function_call>call:search{n:<escape>x<escape>}<end_function_call><start_function_response>', typed).calls.map((c) => c.arguments)).toEqual([{ n: 'x' }]);
  });

  it('reads Gemma strings verbatim, marker text inside them included', () => {
    const text = '<|tool_call>call:search{query:<|"|>a <tool_call|> b, {c}<|"|>,n:"x\\"y"}<tool_call|>';
    expect(gateway(text).calls.map((c) => c.arguments)).toEqual([{ query: 'a <tool_call|> b, {c}', n: 'x"y' }]);
  });

  it('reads several Gemma calls inside one block', () => {
    const text = '<|tool_call>call:search{q:1}call:get_weather{city:<|"|>Rome<|"|>}<tool_call|>';
    expect(gateway(text).calls.map((c) => c.name)).toEqual(['search', 'get_weather']);
  });
});

describe('value grammars: properties', () => {
  const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
  const marker = fc.constantFrom(...VALUE_GRAMMARS.flatMap((g) => g.markers));
  const text = fc.oneof(fc.string({ maxLength: 8 }), marker, fc.constantFrom("'", '"', '\\', ')', ']', '}', ','));
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(text, { maxLength: 3 }).map((parts) => parts.join('')),
      fc.array(tie('tree'), { maxLength: 3 }),
      fc.dictionary(ident, tie('tree'), { maxKeys: 3 }),
    ),
  }));
  const prose = fc.array(fc.constantFrom('Let', 'me', 'check', 'that.', 'Done', 'ok', '\n'), { maxLength: 6 }).map((w) => w.join(' ').trim());

  it('reads back random calls rendered in every grammar, between random prose', () => {
    const names = tools.map((t) => t.name);
    fc.assert(
      fc.property(
        fc.constantFrom(...VALUE_GRAMMARS),
        fc.array(fc.tuple(fc.constantFrom(...names), fc.dictionary(ident, tree, { maxKeys: 3 })), { minLength: 1, maxLength: 3 }),
        prose,
        prose,
        fc.integer(),
        (grammar, calls, before, after, seed) => {
          const body = grammar.body;
          // A delimited Gemma string cannot hold its own delimiter.
          if (body.form === 'gemma-calls') fc.pre(!JSON.stringify(calls).includes(JSON.stringify(body.stringDelimiter).slice(1, -1)));
          const result = gateway(`${before}\n${render(grammar, calls, seed)}\n${after}`);
          expect(result.tool_parse_errors).toEqual([]);
          expect(result.calls.map((c) => [c.name, c.arguments])).toEqual(calls);
          expect(result.prose).toBe([before, after].filter((p) => p !== '').join('\n\n'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on random fragments of the grammars, and no marker reaches prose', () => {
    const piece = fc.oneof(marker, fc.constantFrom('[', ']', '(', ')', '{', '}', ',', '=', ':', "'", '"', 'call:', 'get_weather', 'x', '1', '.call', ' ', '\n'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.boolean(), (pieces, withTools) => {
        const result = gateway(pieces.join(''), withTools ? tools : null);
        expect(Array.isArray(result.calls)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
