/**
 * The regular scenarios every marker grammar gets, generated from its renderer and its
 * GrammarSpec, and the scenarios of the look-alike family. Irregular cases (variants the spec
 * names per grammar) live in irregular.ts.
 */
import { THINK, type GrammarSpec, type Wrapper } from './grammars.js';
import type { FieldCase, FieldExpect, OpenAiTool } from './lib/case.js';
import { REGISTRY, SCHEDULE, TYPED_REGISTRY } from './lib/tools.js';
import { renderer } from './render/index.js';
import type { Call, Json } from './render/values.js';

export const WEATHER: Call = { name: 'get_weather', arguments: { city: 'San Francisco', days: 3, units: 'celsius' } };
export const SEARCH_CALL: Call = { name: 'search', arguments: { query: 'best ramen in Tokyo', limit: 5 } };
export const UNKNOWN: Call = { name: 'delete_everything', arguments: { path: '/' } };
/** Where a cut lands inside the first call's first string argument. */
export const CUT_AT = 'San Fr';

export const BEFORE = 'Let me check the weather for you.';
export const AFTER = 'I will summarise the forecast next.';
export const GLUE = 'Checking that now.';
export const THOUGHT = 'The user asked about San Francisco, so get_weather fits.';
export const ANSWER = 'It will be 18°C and sunny.';

/** Multi-line file content with quotes, `<`, `}`, unicode and a marker; no `&` (entity grammars differ). */
export function fileContent(marker: string): string {
  return [
    'export function greet(name: string): string {',
    '  if (name.length < 1) return "}";',
    "  return `Hello, \"${name}\" (café ☕ 日本) <b>welcome</b>`;",
    '}',
    `// ${marker} is only text here`,
  ].join('\n');
}

export const FOREIGN_MARKER = '<|tool_call_end|>';

export function writeFileCall(spec: GrammarSpec): Call {
  const marker = spec.values === 'quoted' ? (spec.ownCloser ?? spec.markers[0] ?? FOREIGN_MARKER) : FOREIGN_MARKER;
  return { name: 'write_file', arguments: { path: 'src/greet.ts', content: fileContent(marker) } };
}

/** What a raw-text grammar gives back for a value the renderer wrote with `rawText`. */
function typedBack(spec: GrammarSpec, value: Json): Json {
  if (spec.values === 'schema' && typeof value !== 'string') return JSON.stringify(value);
  return value;
}

function untypedCall(spec: GrammarSpec, call: Call): Call {
  return { name: call.name, arguments: Object.fromEntries(Object.entries(call.arguments).map(([k, v]) => [k, typedBack(spec, v)])) };
}

const wrap = (w: Wrapper, text: string): string => `${w.open}${text}${w.close}`;

function withMarkers(spec: GrammarSpec, expect: FieldExpect, extra: string[] = []): FieldExpect {
  const excludes = [...spec.markers, ...extra];
  return excludes.length === 0 ? expect : { ...expect, prose_excludes: [...(expect.prose_excludes ?? []), ...excludes] };
}

interface Draft {
  scenario: string;
  note: string;
  text: string;
  tools: OpenAiTool[] | null;
  expect: FieldExpect;
  extraExcludes?: string[];
}

/**
 * The call with its closing markers cut inside the first one (`</func` of `</function>`), or
 * null when the grammar writes none or its first is too short to cut (a lone `}`).
 */
function cutInsideClose(unclosed: string, full: string): { text: string } | null {
  if (unclosed === full || !full.startsWith(unclosed)) return null;
  const tail = full.slice(unclosed.length);
  const lead = tail.length - tail.trimStart().length;
  const rest = tail.slice(lead);
  const stop = rest.search(/\s/);
  const first = stop < 0 ? rest : rest.slice(0, stop);
  if (first.length < 4) return null;
  return { text: unclosed + tail.slice(0, lead + Math.floor(first.length / 2)) };
}

export function regularCases(spec: GrammarSpec): FieldCase[] {
  const render = renderer(spec.grammar);
  const reasoning = spec.reasoning ?? THINK;
  const before = (text: string): string => (spec.answer && spec.grammar !== 'ernie-4.5' ? wrap(spec.answer, text) : text);
  const trailing = spec.trailingProse !== false;
  const drafts: Draft[] = [];

  drafts.push({
    scenario: 'one-call',
    note: 'one call, nothing else: exactly that call, no prose, no errors, no drops',
    text: render([WEATHER]),
    tools: REGISTRY,
    expect: { calls: [WEATHER], prose: '', no_errors: true, dropped: false },
  });
  if (spec.multi !== false) {
    drafts.push({
      scenario: 'several-calls',
      note: 'two calls in the grammar\'s own sequence: both, in order',
      text: render([WEATHER, SEARCH_CALL]),
      tools: REGISTRY,
      expect: { calls: [WEATHER, SEARCH_CALL], prose: '', no_errors: true },
    });
  }
  const file = writeFileCall(spec);
  drafts.push({
    scenario: 'marker-in-argument',
    note:
      spec.values === 'quoted'
        ? 'a multi-line string argument holding quotes, `<`, `}`, unicode and the grammar\'s own closer: the closer inside the string is argument text'
        : 'a multi-line raw value holding quotes, `<`, `}`, unicode and another grammar\'s marker: kept exactly',
    text: render([file]),
    tools: REGISTRY,
    expect: { calls: [file], no_errors: true },
  });
  drafts.push({
    scenario: 'prose-around',
    note: trailing ? 'prose before and after the call stays prose' : 'prose before the call stays prose (nothing may follow this grammar\'s call)',
    text: `${before(BEFORE)}\n\n${render([WEATHER])}${trailing ? `\n\n${AFTER}` : ''}`,
    tools: REGISTRY,
    expect: { calls: [WEATHER], prose_includes: trailing ? [BEFORE, AFTER] : [BEFORE], no_errors: true },
  });
  drafts.push({
    scenario: 'reasoning-first',
    note: `a reasoning block (${reasoning.open}…${reasoning.close}) before the call is reasoning, not prose`,
    text: `${wrap(reasoning, THOUGHT)}\n\n${render([WEATHER])}`,
    tools: REGISTRY,
    expect: { calls: [WEATHER], reasoning: THOUGHT, prose_excludes: [THOUGHT], no_errors: true },
    extraExcludes: [reasoning.open.trim(), reasoning.close.trim()],
  });
  drafts.push({
    scenario: 'glued-to-prose',
    note: trailing ? 'the call glued to prose on both sides, one line' : 'the call glued to the prose before it, one line',
    text: `${before(GLUE)}${render([WEATHER])}${trailing ? ' Done.' : ''}`,
    tools: REGISTRY,
    expect: { calls: [WEATHER], prose_includes: trailing ? [GLUE, 'Done.'] : [GLUE], no_errors: true },
  });
  const unclosed = render([WEATHER], { unclosed: true });
  if (unclosed !== render([WEATHER])) {
    drafts.push({
      scenario: 'end-markers-missing',
      note: 'complete arguments, closing markers missing at end of stream: a call, with a recovered_dialect violation',
      text: `Looking it up.\n${unclosed}`,
      tools: REGISTRY,
      expect: { calls: [WEATHER], prose_includes: ['Looking it up.'], violation_kinds: ['recovered_dialect'] },
    });
  }
  const full = render([WEATHER]);
  const cut = cutInsideClose(unclosed, full);
  if (cut !== null) {
    drafts.push({
      scenario: 'cut-inside-close',
      note: 'complete arguments, the stream cut while the first closing marker was being written: a call, with a recovered_dialect violation; the marker\'s start reaches neither prose nor the errors',
      text: `Looking it up.\n${cut.text}`,
      tools: REGISTRY,
      expect: { calls: [WEATHER], prose: 'Looking it up.', violation_kinds: ['recovered_dialect'], no_errors: true },
    });
  }
  if (unclosed !== full) {
    drafts.push({
      scenario: 'turn-end-after-unclosed',
      note: 'complete arguments, closing markers missing, then the end-of-turn token a server left in: a call with a recovered_dialect violation; the token is an end_of_turn_token drop',
      text: `Looking it up.\n${unclosed}<|im_end|>`,
      tools: REGISTRY,
      expect: { calls: [WEATHER], prose: 'Looking it up.', violation_kinds: ['recovered_dialect'], no_errors: true },
    });
  }
  drafts.push({
    scenario: 'cut-inside-arguments',
    note: 'the stream ends inside a string argument: no call, a TOOL CALL TRUNCATED error, a drop, nothing leaks into prose',
    text: `Looking it up.\n${full.slice(0, full.indexOf(CUT_AT) + CUT_AT.length)}`,
    tools: REGISTRY,
    expect: { calls: [], prose_includes: ['Looking it up.'], prose_excludes: [CUT_AT], error_prefixes: ['TOOL CALL TRUNCATED:'], dropped: true },
  });
  if (spec.values !== 'quoted' && unclosed !== full) {
    const partial: Call = { name: WEATHER.name, arguments: { days: 3, units: 'celsius' } };
    drafts.push({
      scenario: 'cut-before-required-argument',
      note: 'raw-text arguments come one by one: the stream ends after a whole argument, closing markers missing, while the tool\'s required `city` has not come: no call (the list was cut, not finished), a TOOL CALL TRUNCATED error, a drop',
      text: `Looking it up.\n${render([partial], { unclosed: true })}`,
      tools: REGISTRY,
      expect: { calls: [], prose_includes: ['Looking it up.'], prose_excludes: ['celsius'], error_prefixes: ['TOOL CALL TRUNCATED:'], dropped: true },
    });
  }
  drafts.push({
    scenario: 'unknown-name',
    note: 'a name the registry lacks, inside the grammar\'s markers: an error naming it and a drop, never a call, never prose',
    text: render([UNKNOWN]),
    tools: REGISTRY,
    expect: { calls: [], prose_excludes: [UNKNOWN.name], error_mentions: [UNKNOWN.name], dropped: true },
  });
  if (spec.multi !== false) {
    drafts.push({
      scenario: 'unknown-beside-known',
      note: 'an unknown call next to a registered one: the registered call survives, the unknown one is an error and a drop',
      text: render([WEATHER, UNKNOWN]),
      tools: REGISTRY,
      expect: { calls: [WEATHER], prose_excludes: [UNKNOWN.name], error_mentions: [UNKNOWN.name], dropped: true },
    });
  }
  const stock: Call = { name: 'lookup_stock', arguments: { symbol: 'ACME', qty: 7 } };
  drafts.push({
    scenario: 'no-registry',
    note:
      spec.values === 'schema'
        ? 'no registry (`tools` absent): a call in the grammar\'s markers is a call whatever its name; with no schema raw values stay text'
        : 'no registry (`tools` absent): a call in the grammar\'s markers is a call whatever its name',
    text: render([stock]),
    tools: null,
    expect: { calls: [untypedCall(spec, stock)], no_errors: true },
  });
  if (spec.quoteInReasoning !== false) {
    const answer = spec.answer ? wrap(spec.answer, ANSWER) : ANSWER;
    drafts.push({
      scenario: spec.callsInReasoning === true ? 'call-inside-reasoning-counts' : 'call-inside-reasoning',
      note:
        spec.callsInReasoning === true
          ? 'this grammar\'s calls may sit inside its reasoning block: the call counts (spec section 8, the exception)'
          : 'look-alike: a complete call written inside the reasoning block is not a call (spec section 8)',
      text: `${wrap(reasoning, `I could call ${render([WEATHER])} but the forecast is already in the conversation.`)}\n\n${answer}`,
      tools: REGISTRY,
      expect: { calls: spec.callsInReasoning === true ? [WEATHER] : [], prose: ANSWER },
      extraExcludes: [reasoning.open.trim(), reasoning.close.trim()],
    });
  }
  if (spec.values !== 'quoted') drafts.push(typingDraft(spec, render));

  return drafts.map((d) => ({
    id: `${spec.grammar}/${d.scenario}`,
    scenario: d.scenario,
    note: d.note,
    text: d.text,
    tools: d.tools,
    expect: withMarkers(spec, d.expect, d.extraExcludes),
  }));
}

/** Spec section 4 in one call: integer, boolean, object, a union with null, a string of digits, a value with no schema. */
function typingDraft(spec: GrammarSpec, render: (calls: Call[]) => string): Draft {
  const label = spec.values === 'json-else-raw' ? 'Room 42' : '42';
  const typed: Call = {
    name: SCHEDULE.function.name,
    arguments: { count: 3, confirm: true, meta: { room: 'A1', floor: 2 }, limit: null, label, ticket: '0042' },
  };
  const note = {
    schema: 'raw values typed by the schema: integer, boolean, object (as JSON), ["integer","null"] given null, a string-typed "42" stays a string, `ticket` has no schema and stays text',
    inband: 'values typed by the grammar\'s own type attributes: integer, boolean, object, null, strings kept as text',
    'json-else-raw': 'each value parsed as JSON, else kept as text',
    quoted: '',
  }[spec.values];
  return { scenario: 'schema-typing', note, text: render([typed]), tools: TYPED_REGISTRY, expect: { calls: [typed], no_errors: true } };
}

/** The look-alike family: a value in plain prose that is a call only under section 3's gate. */
export function lookalikeCases(spec: GrammarSpec): FieldCase[] {
  const render = renderer(spec.grammar);
  const pythonic = spec.grammar === 'bare-pythonic';
  const unregistered: Call = { name: 'send_email', arguments: { to: 'ops@example.com', subject: 'Status' } };
  const whole = render([WEATHER]);
  const drafts: Draft[] = [
    {
      scenario: 'whole-response-registered',
      note: 'the whole response is the value and the name is registered: a call',
      text: whole,
      tools: REGISTRY,
      expect: { calls: [WEATHER], prose: '', no_errors: true },
    },
    {
      scenario: 'whole-response-no-registry',
      note: 'no registry and the value is the whole response: a call',
      text: whole,
      tools: null,
      expect: { calls: [WEATHER], prose: '', no_errors: true },
    },
    {
      scenario: 'in-prose-registered',
      note: 'inside prose with a registered name: a call; the prose around stays, and nothing of the value (a wrapper key included) is left in it',
      text: `${BEFORE}\n${whole}\n${AFTER}`,
      tools: REGISTRY,
      expect: { calls: [WEATHER], prose: `${BEFORE}\n\n${AFTER}`, no_errors: true },
    },
    {
      scenario: 'in-prose-unregistered',
      note: 'look-alike: a name the registry lacks, quoted in prose: prose, not a call, not an error',
      text: `For example, ${render([unregistered])} would send the mail.`,
      tools: REGISTRY,
      expect: { calls: [], prose_includes: ['For example,', unregistered.name, 'would send the mail.'], no_errors: true },
    },
    {
      scenario: 'in-prose-no-registry',
      note: 'look-alike: no registry and the value is not the whole response: prose',
      text: `${BEFORE}\n${whole}\n${AFTER}`,
      tools: null,
      expect: { calls: [], prose_includes: [BEFORE, AFTER, 'get_weather'] },
    },
    {
      scenario: 'incomplete-value',
      note: 'look-alike: the value does not parse completely (cut in a string): not a call',
      text: `${BEFORE}\n${whole.slice(0, whole.indexOf(CUT_AT) + CUT_AT.length)}`,
      tools: REGISTRY,
      expect: { calls: [], prose_includes: [BEFORE] },
    },
    {
      scenario: 'reasoning-first',
      note: 'a <think> block before the whole-response value is reasoning; the value is a call',
      text: `<think>${THOUGHT}</think>\n${whole}`,
      tools: REGISTRY,
      expect: { calls: [WEATHER], reasoning: THOUGHT, prose_excludes: [THOUGHT, '<think>', '</think>'], no_errors: true },
    },
  ];
  if (spec.grammar !== 'bare-json' && spec.grammar !== 'bare-json-parameters' && spec.grammar !== 'name-keyed-json') {
    drafts.push({
      scenario: 'several-calls',
      note: 'several calls in one value, registered: all of them, in order',
      text: render([WEATHER, SEARCH_CALL]),
      tools: REGISTRY,
      expect: { calls: [WEATHER, SEARCH_CALL], prose: '', no_errors: true },
    });
  }
  if (!pythonic) {
    const schemaValue = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city'],
    };
    const text =
      spec.grammar === 'name-keyed-json'
        ? JSON.stringify({ get_weather: schemaValue })
        : spec.grammar === 'xlam'
          ? JSON.stringify([{ name: 'get_weather', parameters: schemaValue }])
          : spec.grammar === 'llamacpp-generic'
            ? JSON.stringify({ tool_call: { name: 'get_weather', parameters: schemaValue } })
            : JSON.stringify({ name: 'get_weather', description: 'Forecast for a city.', parameters: schemaValue });
    drafts.push({
      scenario: 'json-schema-in-prose',
      note: 'look-alike: a registered name with a JSON Schema ("type": "object" + "properties") describes the tool, it does not call it',
      text: `The tool is declared as ${text} in the request.`,
      tools: REGISTRY,
      expect: { calls: [], prose_includes: ['The tool is declared as', 'in the request.'] },
    });
  }
  return drafts.map((d) => ({ id: `${spec.grammar}/${d.scenario}`, scenario: d.scenario, note: d.note, text: d.text, tools: d.tools, expect: d.expect }));
}
