import { describe, expect, it } from 'vitest';
import { PARAM_MARKUP_GRAMMARS } from '../../dialects/field/param-markup.js';
import { renderParamMarkup } from '../../../test/support/param-markup-render.js';
import { parseToolCalls } from '../parse.js';

const tools = [
  {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer' },
        metric: { type: 'boolean' },
        filters: { type: 'object', properties: { hot: { type: 'array', items: { type: ['integer', 'string'] } } } },
        limit: { type: ['integer', 'null'] },
        code: { type: 'string' },
      },
    },
  },
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
];

const gateway = (text: string, withTools: unknown = tools) =>
  parseToolCalls(text, withTools === null ? { profile: 'gateway' } : { tools: withTools, profile: 'gateway' });

const weather = { name: 'get_weather', arguments: { city: 'Paris' } };
const search = { name: 'search', arguments: { query: 'rain in Oslo' } };
const pairs = (result: ReturnType<typeof gateway>) => result.calls.map((c) => ({ name: c.name, arguments: c.arguments }));

for (const grammar of PARAM_MARKUP_GRAMMARS) {
  const render = (calls: Parameters<typeof renderParamMarkup>[1], unclosed = false) => renderParamMarkup(grammar, calls, { unclosed });
  const markers = grammar.markers.map((m) => m.split('{S}').join(':opensource'));
  const noMarkers = (prose: string) => {
    for (const marker of markers) expect(prose).not.toContain(marker);
  };

  describe(`param-markup: ${grammar.id}`, () => {
    it('reads one call, with no error, drop or marker in prose', () => {
      const result = gateway(render([weather]));
      expect(pairs(result)).toEqual([weather]);
      expect(result.prose).toBe('');
      expect(result.tool_parse_errors).toEqual([]);
      expect(result.dropped).toEqual([]);
    });

    it('reads several calls in order', () => {
      const text = grammar.envelope === null && grammar.section === null ? `${render([weather])}\n${render([search])}` : render([weather, search]);
      expect(pairs(gateway(text))).toEqual([weather, search]);
    });

    it('keeps prose before and after the calls, and prose glued to them on one line', () => {
      const around = gateway(`Let me check.\n${render([weather])}\nDone.`);
      expect(pairs(around)).toEqual([weather]);
      expect(around.prose).toBe('Let me check.\n\nDone.');
      const glued = gateway(`Checking now.${render([weather])}`);
      expect(pairs(glued)).toEqual([weather]);
      expect(glued.prose).toBe('Checking now.');
      noMarkers(around.prose + glued.prose);
    });

    it('reads a call whose closing markers are missing when its arguments are complete', () => {
      const result = gateway(render([weather], true));
      expect(pairs(result)).toEqual([weather]);
      expect(result.protocol_violations.map((v) => v.kind)).toContain('recovered_dialect');
    });

    it('turns a call cut inside a value into a truncation error and a drop, never a call', () => {
      const full = render([{ name: 'get_weather', arguments: { city: 'Paris', code: 'abcdefgh' } }]);
      expect(full).toContain('abcdefgh');
      const text = full.slice(0, full.indexOf('abcd') + 2);
      const result = gateway(text);
      expect(result.calls).toEqual([]);
      expect(result.tool_parse_errors).toHaveLength(1);
      expect(result.tool_parse_errors[0]).toMatch(/^TOOL CALL TRUNCATED:/);
      expect(result.dropped.length).toBeGreaterThan(0);
      expect(result.prose).toBe('');
    });

    it('refuses an unregistered name with an error and a drop, beside a registered call', () => {
      const result = gateway(render([{ name: 'rm_rf', arguments: { path: '/' } }, weather]));
      expect(pairs(result)).toEqual([weather]);
      expect(result.tool_parse_errors.some((e) => e.includes("'rm_rf'"))).toBe(true);
      expect(result.dropped.map((d) => d.reason)).toContain('unknown_tool');
      expect(result.prose).toBe('');
    });

    it('with no registry reads any name and keeps values as text', () => {
      const result = gateway(render([{ name: 'anything', arguments: { n: grammar.values.typeAttribute === null && grammar.values.typing === 'schema' ? 42 : 'x' } }]), null);
      expect(result.calls.map((c) => c.name)).toEqual(['anything']);
      expect(result.calls[0]!.arguments).toEqual({ n: grammar.values.typeAttribute === null && grammar.values.typing === 'schema' ? '42' : 'x' });
    });

    it('types values by the schema: integer, boolean, object, a union with null, and text where there is no schema', () => {
      const args = { days: 3, metric: false, filters: { hot: [1, 'x'] }, limit: null, city: '42', other: 'true' };
      const result = gateway(render([{ name: 'get_weather', arguments: args }]));
      // `other` has no schema: text, except where the grammar reads JSON first (Muse Glimmer).
      const other = grammar.values.typing === 'json-else-text' ? true : 'true';
      expect(pairs(result)).toEqual([{ name: 'get_weather', arguments: { ...args, other } }]);
      expect(result.tool_parse_errors).toEqual([]);
    });

    const valueClose = grammar.args.kind === 'tags' ? grammar.args.tag.close[0]! : grammar.args.kind === 'pairs' ? grammar.args.valueClose : null;
    const closeOptional = grammar.args.kind === 'tags' && grammar.args.closeOptional;

    it('never runs a value with no close of its own into the next call', () => {
      if (valueClose === null) return;
      const text = grammar.envelope === null && grammar.section === null ? `${render([weather])}\n${render([search])}` : render([weather, search]);
      const broken = text.replace(valueClose.split('{S}').join(':opensource'), '');
      const result = gateway(broken);
      noMarkers(result.prose);
      if (closeOptional) {
        expect(pairs(result)).toEqual([weather, search]);
        expect(result.protocol_violations.map((v) => v.kind)).toContain('recovered_dialect');
        return;
      }
      expect(pairs(result)).toEqual([search]);
      expect(result.tool_parse_errors).toHaveLength(1);
      expect(result.tool_parse_errors[0]).toMatch(/^TOOL CALL PARSE ERROR:/);
      expect(result.dropped.length).toBeGreaterThan(0);
    });

    it('keeps its own value close written inside a value when text follows it there', () => {
      if (valueClose === null) return;
      const city = `a ${valueClose.split('{S}').join(':opensource')} b`;
      expect(pairs(gateway(render([{ name: 'get_weather', arguments: { city } }, search])))).toEqual([{ name: 'get_weather', arguments: { city } }, search]);
    });

    it('keeps a value that does not read as its schema type as text, with an error beside the call', () => {
      const text = render([{ name: 'get_weather', arguments: { days: 'three' } }]);
      const result = gateway(text);
      if (grammar.values.typeAttribute !== null) return; // the in-band type says string: nothing to report
      expect(pairs(result)).toEqual([{ name: 'get_weather', arguments: { days: 'three' } }]);
      expect(result.tool_parse_errors).toHaveLength(1);
      expect(result.tool_parse_errors[0]).toContain("'days'");
    });

  });
}

describe('param-markup: grammar particulars', () => {
  const M = ']<]minimax[>[';
  it('MiniMax M3: the token may be missing or spaced, a repeated key is a list, only null/Null/NULL mean null', () => {
    const spaced = `<tool_call>\n${M} <invoke name="search">\n${M}<query>ramen</query>\n</invoke>\n</tool_call>`;
    expect(pairs(gateway(spaced))).toEqual([{ name: 'search', arguments: { query: 'ramen' } }]);
    const listed = `${M}<tool_call>${M}<invoke name="get_weather">${M}<city>x${M}</city>${M}<city>y${M}</city>${M}<limit>NULL${M}</limit>${M}</invoke>${M}</tool_call>`;
    expect(pairs(gateway(listed))).toEqual([{ name: 'get_weather', arguments: { city: ['x', 'y'], limit: null } }]);
    expect(pairs(gateway(`${M}<tool_call>${M}<invoke name="get_weather">${M}<limit>None${M}</limit>${M}</invoke>${M}</tool_call>`))).toEqual([
      { name: 'get_weather', arguments: { limit: 'None' } },
    ]);
  });

  it('MiniMax M3: a leaked namespace token outside a call never reaches prose', () => {
    const result = gateway(`Hello ${M} world.`);
    expect(result.prose).not.toContain(M);
    expect(result.calls).toEqual([]);
  });

  it('Qwen3-Coder: multi-line values lose only their framing newlines, and entities stay as written', () => {
    const text = '<tool_call>\n<function=get_weather>\n<parameter=code>\ndef f():\n    return "&amp;"\n  </parameter>\n</function>\n</tool_call>';
    expect(pairs(gateway(text))).toEqual([{ name: 'get_weather', arguments: { code: 'def f():\n    return "&amp;"' } }]);
  });

  it('Qwen3-Coder: a `<parameter=` or `<function=` mid-line inside a value is text; at a line start it ends a value left unclosed', () => {
    const doc = '<tool_call>\n<function=get_weather>\n<parameter=code>\nUse <parameter=name> or <function=f> to start.\n</parameter>\n</function>\n</tool_call>';
    expect(pairs(gateway(doc))).toEqual([{ name: 'get_weather', arguments: { code: 'Use <parameter=name> or <function=f> to start.' } }]);
    const unclosed = '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n  <parameter=days>\n3\n</parameter>\n</function>\n</tool_call>';
    expect(pairs(gateway(unclosed))).toEqual([{ name: 'get_weather', arguments: { city: 'Paris', days: 3 } }]);
  });

  it('Qwen3-Coder bare, without <tool_call>', () => {
    expect(pairs(gateway('<function=search>\n<parameter=query>\nx\n</parameter>\n</function>'))).toEqual([{ name: 'search', arguments: { query: 'x' } }]);
  });

  it('leaves <function=NAME>{JSON} (Llama 3.1) and <tool_call>{JSON} (Hermes) to other grammars', () => {
    const llama = gateway('<function=search>{"query": "x"}</function>');
    expect(llama.tool_parse_errors.every((e) => !e.includes('qwen3-coder'))).toBe(true);
    const hermes = gateway('<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>');
    expect(hermes.tool_parse_errors.every((e) => !e.includes('glm') && !e.includes('qwen3-coder'))).toBe(true);
  });

  it('a look-alike is not a call: a lone <invoke>, a <tool_call> holding prose, <function= in a sentence', () => {
    for (const text of ['The XML looks like <invoke name="get_weather"> in the docs.', 'Use <tool_call>some words here</tool_call> to call.', 'Write <function=name> then the body.']) {
      const result = gateway(text);
      expect(result.calls).toEqual([]);
      expect(result.tool_parse_errors.filter((e) => /glm|qwen3-coder|anthropic/.test(e))).toEqual([]);
    }
  });

  it('Step-3 keeps values exactly and reads calls without the function prefix', () => {
    const text = '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="search"><steptml:parameter name="query">\n  ramen \n</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>';
    expect(pairs(gateway(text))).toEqual([{ name: 'search', arguments: { query: '\n  ramen \n' } }]);
  });

  it('Anthropic XML decodes entities; the DSML-less form types by string=', () => {
    expect(pairs(gateway('<function_calls><invoke name="search"><parameter name="query">fish &amp; chips &lt;x&gt;</parameter></invoke></function_calls>'))).toEqual([
      { name: 'search', arguments: { query: 'fish & chips <x>' } },
    ]);
    const dsmlLess = '<function_calls>\n<invoke name="get_weather">\n<parameter name="city" string="true">a &amp; b</parameter>\n<parameter name="filters" string="false">{"x": 1}</parameter>\n</invoke>\n</function_calls>';
    expect(pairs(gateway(dsmlLess))).toEqual([{ name: 'get_weather', arguments: { city: 'a &amp; b', filters: { x: 1 } } }]);
  });

  it('DSML: an invoke body may be plain JSON; V4.1 keeps string values unstripped and reads ns::fn names', () => {
    expect(pairs(gateway('<｜DSML｜tool_calls>\n<｜DSML｜invoke name="search">{"query": "x"}</｜DSML｜invoke>\n</｜DSML｜tool_calls>'))).toEqual([{ name: 'search', arguments: { query: 'x' } }]);
    const spaced = 'Sure.\n\n<｜DSML｜ calls>\n<｜DSML｜ invoke name="web::search">\n<｜DSML｜ parameter name="query" string="true"> ramen </｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>';
    expect(pairs(gateway(spaced, [{ name: 'web::search' }]))).toEqual([{ name: 'web::search', arguments: { query: ' ramen ' } }]);
  });

  it('Hunyuan: any deployment suffix, and a JSON body closed by <end_of_tool_call>', () => {
    const S = ':6124c78e';
    const text = `<tool_calls${S}><tool_call${S}>search<tool_sep${S}><arg_key${S}>query</arg_key${S}><arg_value${S}>x</arg_value${S}></tool_call${S}></tool_calls${S}>`;
    expect(pairs(gateway(text))).toEqual([{ name: 'search', arguments: { query: 'x' } }]);
    const json = '<tool_calls:opensource><tool_call:opensource>search<tool_sep:opensource>{"query": "y"}<end_of_tool_call:opensource></tool_calls:opensource>';
    expect(pairs(gateway(json))).toEqual([{ name: 'search', arguments: { query: 'y' } }]);
    expect(gateway(json).prose).toBe('');
  });

  it('K2 Horizon: <ifm|arg_type> types the value', () => {
    const text = '<ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>42</ifm|arg_value><ifm|arg_key>code</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>5</ifm|arg_value></ifm|tool_call></ifm|tool_calls>';
    expect(pairs(gateway(text))).toEqual([{ name: 'get_weather', arguments: { city: '42', code: 5 } }]);
  });

  it('K2 Horizon: a {"name", "arguments"} object in <ifm|tool_call>, with or without a registry; the text after it is an error', () => {
    const text = 'Before<ifm|tool_calls><ifm|tool_call>{"name": "search", "arguments": {"query": "x"}}</ifm|tool_call></ifm|tool_calls>after';
    for (const registry of [tools, null]) {
      const result = gateway(text, registry);
      expect(pairs(result)).toEqual([{ name: 'search', arguments: { query: 'x' } }]);
      expect(result.prose).toBe('Before\n\nafter');
      expect(result.tool_parse_errors).toEqual([]);
    }
    const trailing = gateway('<ifm|tool_call>{"name": "search", "arguments": {}} stray</ifm|tool_call>');
    expect(trailing.calls.map((c) => c.name)).toEqual(['search']);
    expect(trailing.tool_parse_errors).toHaveLength(1);
    expect(trailing.prose).toBe('');
  });

  it('dots: unquoted attributes; a JSON body is left to another grammar', () => {
    expect(pairs(gateway('<dots_function_call><invoke name=search><parameter name=query>x</parameter></invoke></dots_function_call>'))).toEqual([{ name: 'search', arguments: { query: 'x' } }]);
    expect(gateway('<dots_function_call>{"name": "search", "arguments": {}}</dots_function_call>').tool_parse_errors.filter((e) => e.includes('dots'))).toEqual([]);
  });

  it('MiniCPM 5: CDATA values and the <arguments> wrapper', () => {
    const text = '<function name="get_weather"><arguments><param name="city"><![CDATA[a < b & "c"]]></param><param name="days">5</param></arguments></function>';
    expect(pairs(gateway(text))).toEqual([{ name: 'get_weather', arguments: { city: 'a < b & "c"', days: 5 } }]);
  });

  it('Solar Open2: a call also ends at the next start, with no violation', () => {
    const text = '<|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>a<|tool_arg:end|><|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>b<|tool_arg:end|><|tool_call:end|>';
    const result = gateway(text);
    expect(pairs(result)).toEqual([{ name: 'search', arguments: { query: 'a' } }, { name: 'search', arguments: { query: 'b' } }]);
    expect(result.protocol_violations).toEqual([]);
  });

  it('Kimi K3: one JSON block of arguments, and entity-escaped attribute values', () => {
    const json = '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>json type="object"<|sep|>{"city": "Oslo"}<|close|>json<|sep|><|close|>call<|sep|><|close|>tools<|sep|>';
    expect(pairs(gateway(json))).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo' } }]);
    const escaped = '<|open|>tools<|sep|><|open|>call tool="faq" index="1"<|sep|><|open|>argument key="q&amp;a" type="string"<|sep|>say "hi"<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>';
    expect(pairs(gateway(escaped, [{ name: 'faq' }]))).toEqual([{ name: 'faq', arguments: { 'q&a': 'say "hi"' } }]);
  });

  it('Muse Glimmer: the self and user recipients carry prose', () => {
    const result = gateway('<|start|>to=user<|message|>It will be 18°C.<|eot|>');
    expect(result.calls).toEqual([]);
    expect(result.prose).toBe('It will be 18°C.');
  });
});
