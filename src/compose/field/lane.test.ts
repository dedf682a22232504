import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../parse.js';
import { compileOpeners } from './detect.js';
import { FIELD_GRAMMARS } from '../../dialects/field/index.js';

const tools = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
];

const gateway = (text: string, withTools: unknown = tools) => parseToolCalls(text, { tools: withTools, profile: 'gateway' });

const kimiCall = (name: string, index: number, args: string) =>
  `<|tool_call_begin|>functions.${name}:${index}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;
const kimiSection = (...calls: string[]) => `<|tool_calls_section_begin|>${calls.join('')}<|tool_calls_section_end|>`;

describe('field lane: token sections (Kimi K2)', () => {
  it('reads the calls of a section in order, with the prose around it and no marker in prose', () => {
    const text = `Let me check.\n${kimiSection(kimiCall('get_weather', 0, '{"city":"Paris"}'), kimiCall('search', 1, '{"query":"rain <|tool_call_end|>"}'))}\nDone.`;
    const result = gateway(text);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['search', { query: 'rain <|tool_call_end|>' }],
    ]);
    expect(result.calls.map((c) => c.id)).toEqual(['tc_0', 'tc_1']);
    expect(result.prose).toBe('Let me check.\n\nDone.');
    expect(result.tool_parse_errors).toEqual([]);
  });

  it('reads a call whose end markers are missing when its arguments are complete', () => {
    const result = gateway(`<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city":"Paris"}`);
    expect(result.calls.map((c) => c.arguments)).toEqual([{ city: 'Paris' }]);
    expect(result.protocol_violations.map((v) => v.kind)).toContain('recovered_dialect');
  });

  it('turns arguments cut off by the end of the text into a truncation error and a drop', () => {
    const text = `<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city":"Pa`;
    const result = gateway(text);
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toHaveLength(1);
    expect(result.tool_parse_errors[0]).toMatch(/^TOOL CALL TRUNCATED:/);
    expect(result.dropped.map((d) => d.reason)).toEqual(['unparsed_call_block']);
    expect(result.protocol_violations.map((v) => v.kind)).not.toContain('recovered_dialect');
    expect(result.prose).toBe('');
  });

  it('refuses an unregistered name with an error and a drop, never a call or prose', () => {
    const result = gateway(kimiSection(kimiCall('rm_rf', 0, '{"path":"/"}')));
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors[0]).toContain("'functions.rm_rf'");
    expect(result.dropped).toEqual([{ text: kimiCall('rm_rf', 0, '{"path":"/"}'), reason: 'unknown_tool' }]);
    expect(result.prose).toBe('');
  });

  it('with no registry, a call inside the grammar markers is a call whatever its name', () => {
    const result = gateway(kimiSection(kimiCall('anything_at_all', 0, '{"x":1}')), null);
    expect(result.calls.map((c) => c.name)).toEqual(['anything_at_all']);
  });

  it('reports arguments that are not JSON and goes on with the next call', () => {
    const result = gateway(kimiSection(kimiCall('get_weather', 0, '{city: Paris'), kimiCall('search', 1, '{"query":"x"}')));
    expect(result.calls.map((c) => c.name)).toEqual(['search']);
    expect(result.tool_parse_errors[0]).toMatch(/^TOOL CALL PARSE ERROR/);
    expect(result.dropped.map((d) => d.reason)).toEqual(['unparsed_call_block']);
  });

  it('leaves the harn profile exactly as it was: no field grammar is read there', () => {
    const text = kimiSection(kimiCall('get_weather', 0, '{"city":"Paris"}'));
    expect(parseToolCalls(text, { tools, profile: 'harn' }).calls).toEqual([]);
    // The default profile is the gateway, which reads it.
    expect(parseToolCalls(text, { tools })).toEqual(gateway(text));
    expect(gateway(text).calls.map((c) => c.name)).toEqual(['get_weather']);
  });
});

describe('field lane: token sections (DeepSeek)', () => {
  it('reads the V3 form: function<sep>NAME then a fenced JSON body', () => {
    const text = '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city":"Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    const result = gateway(text);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(result.prose).toBe('');
    expect(result.dropped).toEqual([]);
  });

  it('reads the V3.1 form: NAME<sep>{JSON}, glued to prose', () => {
    const text = 'Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city":"Paris"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{"query":"q"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    const result = gateway(text);
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather', 'search']);
    expect(result.prose).toBe('Checking.');
  });

  it('reads the ASCII-bar spelling of the markers', () => {
    const text = '<|tool▁calls▁begin|><|tool▁call▁begin|>get_weather<|tool▁sep|>{"city":"Oslo"}<|tool▁call▁end|><|tool▁calls▁end|>';
    expect(gateway(text).calls.map((c) => c.arguments)).toEqual([{ city: 'Oslo' }]);
  });
});

describe('opener detection', () => {
  it('finds the earliest opener and the grammars that share it, and nothing in plain text', () => {
    const detect = compileOpeners(FIELD_GRAMMARS);
    const text = 'plain <b>text</b> and <|tool_call_begin|>';
    expect(detect.none('plain <b>text</b>')).toBe(true);
    const hit = detect.next(text, 0);
    expect(hit?.index).toBe(text.indexOf('<|tool_call_begin|>'));
    // Kimi K2's per-call token, and Step-3's decoded with ASCII bars: the body tells them apart.
    expect(hit?.grammars.map((g) => g.id)).toEqual(['kimi-k2', 'step-3']);
    expect(detect.next(text, (hit?.index ?? 0) + 1)).toBeNull();
  });

  it('names every opener by its own entry, with each grammar that opens with it', () => {
    const detect = compileOpeners(FIELD_GRAMMARS);
    for (const grammar of FIELD_GRAMMARS) {
      for (const opener of [...grammar.openers, ...(grammar.responseOpeners ?? [])]) {
        // Alone in a text, an opener stands where every place counts it (its start).
        const hit = detect.next(opener, 0);
        expect(hit?.opener, opener).toBe(opener);
        expect(hit?.grammars, opener).toContain(grammar);
      }
    }
  });

  it('prefers the longest opener at one place', () => {
    const detect = compileOpeners(FIELD_GRAMMARS);
    expect(detect.next('<|tool_calls_section_begin|>', 0)?.opener).toBe('<|tool_calls_section_begin|>');
  });

  it('counts a line-start opener only after a newline or at the start, and a longer opener there first', () => {
    const detect = compileOpeners(FIELD_GRAMMARS);
    expect(detect.next('a {"x": 1}', 0)).toBeNull();
    expect(detect.next('a\n{"x": 1}', 0)).toMatchObject({ index: 2, opener: '{' });
    expect(detect.next('[TOOL_CALLS]x', 0)?.opener).toBe('[TOOL_CALLS]');
    expect(detect.next('see [1] and\n[2]', 0)).toMatchObject({ index: 12, opener: '[' });
  });

  it('takes spaces before the first line\'s opener as its indent in a whole text, never in a window cut mid-line', () => {
    const detect = compileOpeners(FIELD_GRAMMARS);
    expect(detect.next('  [a(x=1)]', 0)).toMatchObject({ index: 2, opener: '[' });
    expect(detect.next('x  [a(x=1)]', 0)).toBeNull();
    expect(detect.nextInWindow('  [a(x=1)]', 0)).toBeNull();
    expect(detect.nextInWindow('[a(x=1)]', 0)).toMatchObject({ index: 0, opener: '[' });
    expect(detect.nextInWindow('b\n[a(x=1)]', 1)).toMatchObject({ index: 2, opener: '[' });
  });

  // The trie-shaped RegExp against the plain definition: at the first position from the cursor
  // where some opener starts (a line-start one only after a newline, or at 0 after any
  // indent; a response-start one only after blanks alone), the longest one.
  it('finds what a position-by-position search finds, on texts built from opener pieces', () => {
    const detect = compileOpeners(FIELD_GRAMMARS);
    const openers = [...new Set(FIELD_GRAMMARS.flatMap((g) => [...g.openers.map((o) => [o, g.openAt ?? 'anywhere'] as const), ...(g.responseOpeners ?? []).map((o) => [o, 'response-start'] as const)]))];
    const plain = (text: string, from: number) => {
      for (let at = from; at < text.length; at++) {
        let best = '';
        for (const [opener, place] of openers) {
          if (place === 'line-start' && at > 0 && text[at - 1] !== '\n' && !/^[ \t]*$/.test(text.slice(0, at))) continue;
          if (place === 'response-start' && !/^\s*$/.test(text.slice(0, at))) continue;
          if (opener.length > best.length && text.startsWith(opener, at)) best = opener;
        }
        if (best !== '') return { index: at, opener: best };
      }
      return null;
    };
    // In a window: a line-start opener only after a newline or at the window's first character.
    const plainInWindow = (text: string, from: number) => {
      for (let at = from; at < text.length; at++) {
        let best = '';
        for (const [opener, place] of openers) {
          if (place === 'response-start' || (place === 'line-start' && at > 0 && text[at - 1] !== '\n')) continue;
          if (opener.length > best.length && text.startsWith(opener, at)) best = opener;
        }
        if (best !== '') return { index: at, opener: best };
      }
      return null;
    };
    const piece = fc.oneof(
      fc.constantFrom(...openers.map(([o]) => o)),
      fc.constantFrom(' ', '\t'),
      fc.constantFrom(...openers.map(([o]) => o)).chain((o) => fc.nat(o.length).map((k) => o.slice(0, k))),
      fc.constantFrom('\n', ' ', 'a', '<', '|', '[', '{', '｜', 'x y'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(20), (pieces, start) => {
        const text = pieces.join('');
        const from = Math.min(start, text.length);
        const hit = detect.next(text, from);
        expect(hit === null ? null : { index: hit.index, opener: hit.opener }).toEqual(plain(text, from));
        const inWindow = detect.nextInWindow(text, from);
        expect(inWindow === null ? null : { index: inWindow.index, opener: inWindow.opener }).toEqual(plainInWindow(text, from));
        expect(detect.none(text)).toBe(plain(text, 0) === null);
      }),
      { numRuns: 400 },
    );
  });
});

describe('an opener mentioned in prose', () => {
  const read = (text: string) => parseToolCalls(text, { tools: [{ name: 'get_weather' }], profile: 'gateway' });

  it('a lone opener mid-line with words after it keeps its sentence whole, with no diagnostic', () => {
    const result = read('Intro.\nWrap each call in a <tool_call> tag, then wait.\nThanks.');
    expect(result.prose).toContain('Wrap each call in a <tool_call> tag, then wait.');
    expect(result.calls).toEqual([]);
    expect(result.tool_parse_errors).toEqual([]);
    expect(result.protocol_violations).toEqual([]);
  });

  it('not a mention: a body after it, a close later, or the opener at a line start', () => {
    for (const text of ['Call <tool_call> {"name": "get_weather", "arguments": {}} now', 'Wrap it in a <tool_call> tag.\n<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', '<tool_call> tag, then wait.']) {
      expect(read(text).prose, text).not.toBe(text);
    }
  });

  it('a lone opener before a complete pair: the close is the pair\'s, the sentence prose, the pair a call', () => {
    const call = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>';
    for (const [text, prose] of [
      [`Use <tool_call> tags. ${call}`, 'Use <tool_call> tags.'],
      [`Use <tool_call> tags.\n${call}`, 'Use <tool_call> tags.'],
      [`Use <tool_call> tags. ${call.replace('</tool_call>', '')}`, 'Use <tool_call> tags.'],
    ]) {
      const result = read(text!);
      expect(result.calls.map((c) => [c.name, c.arguments]), text).toEqual([['get_weather', { city: 'Paris' }]]);
      expect(result.prose, text).toBe(prose);
      expect(result.dropped, text).toEqual([]);
    }
    // Two lone openers and no body: the whole line is prose.
    expect(read('Use <tool_call> or <tool_call> tags, then wait.').prose).toBe('Use <tool_call> or <tool_call> tags, then wait.');
  });

  it('harn keeps the reference reading', () => {
    const text = 'Wrap each call in a <tool_call> tag, then wait.';
    expect(parseToolCalls(text, { tools: [{ name: 'get_weather' }], profile: 'harn' }).prose).toBe('');
  });
});

describe('a namespace before a tool name', () => {
  const read = (text: string, tools: unknown = [{ name: 'get_weather' }]) => parseToolCalls(text, { tools, profile: 'gateway' });

  it('resolves NS/NAME to NAME when NAME is registered (GLM-5.3-Flash), and leaves it as written otherwise', () => {
    expect(read('<tool_call>Weather/get_weather>{"city": "Beijing"}').calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Beijing' }]]);
    const hermes = read('<tool_call>{"name": "Weather/get_weather", "arguments": {"city": "Oslo"}}</tool_call>');
    expect(hermes.calls.map((c) => c.name)).toEqual(['get_weather']);
    // A registered name with a slash is itself; an unregistered rest is unknown; no registry keeps the namespace.
    expect(read('<tool_call>{"name": "maps/route", "arguments": {}}</tool_call>', [{ name: 'maps/route' }]).calls.map((c) => c.name)).toEqual(['maps/route']);
    expect(read('<tool_call>Weather/forecast>{"city": "Oslo"}').tool_parse_errors).toEqual([expect.stringContaining("Unknown tool 'Weather/forecast'")]);
    expect(read('<tool_call>{"name": "Weather/get_weather", "arguments": {}}</tool_call>', null).calls.map((c) => c.name)).toEqual(['Weather/get_weather']);
  });
});
