/**
 * The one-shot invariant over every conformance text (field grammars, reasoning, composer
 * examples, reference vectors; under `gateway` and `harn`): however the text is cut, `end()`
 * returns exactly `parseToolCalls(text)` and the events spell that result out.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToolCalls, type ParseOptions, type ParseResult } from '../../src/index.js';
import { streamCorpus } from './corpus.js';
import { cutAt, everyN, invariantFailures } from './invariant.js';

const corpus = streamCorpus();

/** The tools of `parts` as one registry: each name once (its first definition), then `extra` names not yet in it. */
function mergedTools(parts: readonly { options: { tools?: unknown } }[], extra: readonly string[] = []): unknown[] {
  const tools = new Map<string, unknown>();
  const nameOf = (t: unknown): string => (typeof t === 'string' ? t : String((t as { function?: { name?: unknown }; name?: unknown }).function?.name ?? (t as { name?: unknown }).name));
  for (const p of parts) for (const t of Array.isArray(p.options.tools) ? (p.options.tools as unknown[]) : []) if (!tools.has(nameOf(t))) tools.set(nameOf(t), t);
  for (const name of extra) if (!tools.has(name)) tools.set(name, name);
  return [...tools.values()];
}

describe('stream: the one-shot invariant', () => {
  it('covers the whole corpus', () => {
    expect(corpus.length).toBeGreaterThan(2000);
    expect(corpus.some((c) => c.options.profile === 'harn')).toBe(true);
  });

  it('holds for every case cut into 1-, 2-, 3-, 7- and 64-character chunks', () => {
    const broken: string[] = [];
    for (const c of corpus) {
      for (const size of [1, 2, 3, 7, 64]) {
        const failures = invariantFailures(c.text, everyN(c.text, size), c.options);
        if (failures.length > 0) {
          broken.push(`${c.id} (${size}): ${failures[0]}`);
          break;
        }
      }
    }
    expect(broken).toEqual([]);
  }, 120_000);

  it('holds for random cuts of random cases', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: corpus.length - 1 }), fc.array(fc.nat(), { maxLength: 40 }), (i, cuts) => {
        const c = corpus[i]!;
        expect(invariantFailures(c.text, cutAt(c.text, cuts), c.options)).toEqual([]);
      }),
      // A fixed seed: the same 3,000 cuttings on every run (CI must not turn on a new draw).
      { numRuns: 3000, seed: 20261201 },
    );
  }, 120_000);

  it('holds for random cuts of two or three cases joined (grammars mixed in one response)', () => {
    const gateway = corpus.filter((c) => c.options.profile !== 'harn');
    const separators = ['', '\n', ' ', '\n\n', 'Then:\n'];
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: gateway.length - 1 }), { minLength: 2, maxLength: 3 }),
        fc.integer({ min: 0, max: separators.length - 1 }),
        fc.array(fc.nat(), { maxLength: 60 }),
        (picks, sep, cuts) => {
          const parts = picks.map((i) => gateway[i]!);
          const text = parts.map((p) => p.text).join(separators[sep]);
          const tools = mergedTools(parts);
          const options = { ...parts[0]!.options, tools: tools.length > 0 ? tools : undefined };
          expect(invariantFailures(text, cutAt(text, cuts), options)).toEqual([]);
        },
      ),
      { numRuns: 2500, seed: 20261201 },
    );
  }, 180_000);

  it('holds for the joins random draws once broke (a look-alike before another grammar; an envelope closed after its section)', () => {
    const xlam = '<think>The user asked about San Francisco, so get_weather fits.</think>[{"name": "get_weather", "arguments": {"city": "San Francisco", "days": 3, "units": "celsius"}}]Then:\n<function_calls>\n<invoke name="get_weather">\n<parameter name="city">San Francisco</parameter>\n</invoke>\n</function_calls>';
    const muse = '<tool_code>\nlol\n</tool_code>\n\n<|start|>to=functions<|message|><atem:function_calls><atem:invoke name="look"><atem:parameter name="path">a</atem:parameter></atem:invoke></atem:function_calls><|eom|>';
    for (const text of [xlam, muse]) {
      for (let cut = 1; cut < text.length; cut++) {
        expect(invariantFailures(text, [text.slice(0, cut), text.slice(cut)], { tools: ['write_file', 'look'] })).toEqual([]);
      }
    }
  });

  it('holds for every two-piece cut of the foreign-turn cases (a call whose optional close begins another role\'s turn)', () => {
    // A text cut right after Llama 3's `<|eom_id|>` released the call with its close, before the
    // `<|start_header_id|>ipython` that makes that close the start of a made-up turn.
    const cases = corpus.filter((c) => c.id.startsWith('field:') && c.id.includes('/foreign-turn:') && c.options.profile !== 'harn' && c.text.length < 600);
    expect(cases.length).toBeGreaterThan(20);
    for (const c of cases) {
      for (let cut = 1; cut < c.text.length; cut++) {
        expect(invariantFailures(c.text, [c.text.slice(0, cut), c.text.slice(cut)], c.options), `${c.id} cut at ${cut}`).toEqual([]);
      }
    }
  }, 120_000);

  // Joins wider random sweeps found: a cut-off Qwen3-Coder parameter whose region only looked
  // closed because the text so far ended with `</tool_call>` (then blanks), and a Harmony message announced
  // at its JSON's end that later text (no end markers) made an error.
  const sweepJoins: [readonly string[], string][] = [
    [['function_markup::truncated_parameter_errors_and_does_not_dispatch', 'field:ernie-4.5/marker-in-argument (reasoning_started: false)', 'field:llama3-json/ends-at-eot'], 'Then:\n'],
    [['field:deepseek-v3.1/prose-around', 'field:harmony-llmjp/end-markers-missing (reasoning_started: false)', 'reasoning:think#cut-off'], '\n'],
    // The same cut-off parameter whose text so far ended with `</tool_call>` and a line break.
    [['function_markup::truncated_parameter_errors_and_does_not_dispatch', 'tool_parse_entities::double_escaped_reference_stays_literal', 'field:xlam/reasoning-first'], '\n'],
    // A stray `<channel|>` at the end of the text so far: `call:` may yet follow and open a call.
    [['field:gemma-4/orphan-close-then-bare-call (reasoning_started: false)', 'reasoning:think#unclosed-then-response'], '\n'],
  ];
  for (const [ids, separator] of sweepJoins) {
    it(`holds for the join ${ids.join(' + ')} in 1- and 4-character chunks`, () => {
      const parts = ids.map((id) => corpus.find((c) => c.id === id && c.options.profile !== 'harn')!);
      expect(parts.every((p) => p !== undefined)).toBe(true);
      const text = parts.map((p) => p.text).join(separator);
      const tools = mergedTools(parts);
      const options = { ...parts[0]!.options, tools: tools.length > 0 ? tools : undefined };
      for (const size of [1, 4]) expect(invariantFailures(text, everyN(text, size), options)).toEqual([]);
    });
  }

  // Prose as answers write it, between and around calls: what the plain-lines front releases
  // line by line (HTML, code fences, line calls, `Label:` lines, response blocks, special tokens).
  const PROSE = [
    'Here is the answer.\n', 'It has two lines.\nSecond line.\n', 'Use the `<div>` element.\n', 'Line <br> break.\n', 'If a < b and b > c.\n',
    '```python\ndef f(x):\n    return x < 3\nprint(f(2))\n```\n', '```json\n{"city": "Paris"}\n```\n', 'look(path="a.rs")\n', 'Note: look({"path": "a"})\n',
    '<user_response>Done.</user_response>\n', '<details><summary>More</summary>Hidden</details>\n', '<b>bold</b> words\n', 'all\n', 'look\n',
    'foo_CALL> here\n', '\ufeffrun(command="ls")\n', '  indented line\n', '\n\n', 'Trailing spaces   \n', 'Tool call:\n', '[link](http://x.y)\n',
    '</think>\n', '<think>short thought</think>\n', 'Final words', '<|im_end|>', '~~~\ncode\n~~~\n', 'x <tool_call> y\n', '</function> stray\n',
    'Run `npm test` first.\n', 'Call `look(path)` to read.\n', 'See [the guide](https://x.y/a_b) and [1].\n', '[look(path="a")]\n', 'A set {a, b} of ~5.\n',
    'An object {\n"name": "look", "arguments": {"path": "a"}}\n', '[TOOL_CALLS', '``inline``\n',
    '```sh\nnpm test\n```\n', '```\n', 'fn f() {\n  let y = 1;\n}\n', '~~~py\nx = 1\n~~~\n', '```tool\nlook(path="a")\n```\n', 'A set {\n\n',
  ];

  it('holds for prose of every kind around calls, with reasoning_started unset, false and true', () => {
    const gateway = corpus.filter((c) => c.options.profile !== 'harn');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...PROSE), fc.integer({ min: 0, max: gateway.length - 1 })), { minLength: 2, maxLength: 6 }),
        fc.constantFrom(undefined, false, true),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 60 }),
        (pieces, started, registered, cuts) => {
          const cases = pieces.flatMap((p) => (typeof p === 'number' ? [gateway[p]!] : []));
          const text = pieces.map((p) => (typeof p === 'number' ? gateway[p]!.text : p)).join('');
          const tools = registered ? mergedTools(cases, ['look', 'run']) : undefined;
          const options = { profile: 'gateway' as const, ...(tools === undefined ? {} : { tools }), ...(started === undefined ? {} : { reasoning_started: started }) };
          expect(invariantFailures(text, cutAt(text, cuts), options)).toEqual([]);
        },
      ),
      { numRuns: 1500, seed: 20261202 },
    );
  }, 180_000);

  it('trace: true adds the trace and changes nothing else, in the one-shot result and in a stream', () => {
    const gateway = corpus.filter((c) => c.options.profile !== 'harn');
    const withoutTrace = (text: string, options: ParseOptions): unknown => {
      const { trace, ...rest } = parseToolCalls(text, { ...options, trace: true }) as ParseResult & { trace: unknown };
      expect(Array.isArray(trace)).toBe(true);
      return rest;
    };
    const changed = corpus.filter((c) => !isDeepStrictEqual(withoutTrace(c.text, c.options), parseToolCalls(c.text, c.options))).map((c) => c.id);
    expect(changed).toEqual([]);
    // Prose between regions is where a trace once changed the reading (a plain run's mid-line `<`).
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...PROSE), fc.integer({ min: 0, max: gateway.length - 1 })), { minLength: 2, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (pieces, cuts) => {
          const cases = pieces.flatMap((p) => (typeof p === 'number' ? [gateway[p]!] : []));
          const text = pieces.map((p) => (typeof p === 'number' ? gateway[p]!.text : p)).join('');
          const options: ParseOptions = { profile: 'gateway', tools: mergedTools(cases, ['look', 'run']) };
          expect(withoutTrace(text, options)).toEqual(parseToolCalls(text, options));
          expect(invariantFailures(text, cutAt(text, cuts), { ...options, trace: true })).toEqual([]);
        },
      ),
      { numRuns: 500, seed: 20261204 },
    );
  }, 120_000);

  it('holds for a look-alike object right after opening reasoning on its line, with text glued after it and a later block', () => {
    // The one-shot parse opens the look-alike at the answer's first character (its blank
    // aside); a stream once read that line as plain prose and released it whole.
    const text = '<think>Checking the forecast.</think> {"name": "get_weather", "arguments": {"city": "Oslo"}}Here it is.\n<think>more</think>\nDone.\n';
    const options = { profile: 'gateway' as const, tools: ['look', 'run'] };
    for (const size of [1, 3, 7, text.length]) expect(invariantFailures(text, everyN(text, size), options)).toEqual([]);
  });

  it('holds where the prose property once broke: a Harmony call frame chained to a `<|start|>` envelope; Kimi K3\'s answer close with reasoning_started; Functionary\'s `all` before a reasoning block', () => {
    const harmony = '<|start|> assistant<|channel|> commentary to=functions.get_weather<|constrain|> json<|message|> {"city": "SF"}<|call|>';
    const muse = '<|start|>to=functions<|message|><atem:function_calls><atem:invoke name="get_weather"><atem:parameter name="city">SF</atem:parameter></atem:invoke></atem:function_calls><|eom|>\n\nFinal words';
    const k3 = 'It is sunny.<|close|>response<|sep|><function_calls>\n<invoke name="look">\n<parameter name="path">a</parameter>\n</invoke>\n</function_calls>';
    // Functionary's unmarked first segment (`all`) reads on past a reasoning block to its `>>>`.
    const functionary = 'all\n<think>The user asked.</think>\n\n>>>get_weather\n{"city": "SF"}<function_calls>\n<invoke name="get_weather">\n<parameter name="city">SF</parameter>\n</invoke>\n</function_calls>';
    for (const [text, options] of [[harmony + muse, { profile: 'gateway' }], [k3, { profile: 'gateway', reasoning_started: true }], [functionary, { profile: 'gateway' }]] as const) {
      for (let cut = 1; cut < text.length; cut++) expect(invariantFailures(text, [text.slice(0, cut), text.slice(cut)], options)).toEqual([]);
      expect(invariantFailures(text, everyN(text, 1), options)).toEqual([]);
    }
  });

  it('holds for a FunctionGemma call whose `<start_function_response>` comes in a later chunk, with a mid-line `<` after it', () => {
    // The region steps over that marker; released before it came, the text after read it as a
    // stray tag and split the next line at its `<`.
    const text = 'Let me check.<start_function_call>call:search{query:<escape>ramen<escape>,limit:5}<end_function_call><start_function_response>If a < b and b > c.\n<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</function_calls>Here is the answer.\n';
    const options = { profile: 'gateway' as const, tools: ['search', 'get_weather'] };
    for (let cut = 1; cut < text.length; cut++) expect(invariantFailures(text, [text.slice(0, cut), text.slice(cut)], options)).toEqual([]);
  });

  it('holds for a Harmony call whose JSON string quotes a whole `final` message header', () => {
    // Cut just after the quoted `<|message|>`, the string is open; a probe word on a new line made
    // it a control-character failure that stopped at the quoted header, and the stream released
    // the quoted `hi` as the answer.
    const text =
      '<|start|>assistant<|channel|>commentary to=functions.run <|constrain|>json<|message|>{"command": "echo \'<|start|>assistant<|channel|>final<|message|>hi<|end|>\' | wc", "timeout": 60}<|call|>' +
      '<|start|>assistant<|channel|>commentary to=functions.look <|constrain|>json<|message|>{"path": "a"}<|call|>';
    const options = { profile: 'gateway' as const, tools: ['look', 'run'] };
    expect((parseToolCalls(text, options) as ParseResult).calls.map((c) => c.name)).toEqual(['run', 'look']);
    for (const size of [1, 2, 5]) expect(invariantFailures(text, everyN(text, size), options)).toEqual([]);
    // Cut after each marker's `<`: held text that ends `…60}<` has whole JSON, then a marker begun.
    const afterLt = [...text.matchAll(/<\|/g)].map((m) => m.index + 1);
    expect(invariantFailures(text, cutAt(text, afterLt), options)).toEqual([]);
  });

  it('holds when a cut splits a surrogate pair, a DeepSeek marker or a <|…|> token', () => {
    const texts = [
      'Sure 😀.\n<tool_call>{"name": "look", "arguments": {"path": "é😀"}}</tool_call>',
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>look\n```json\n{"path": "a"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.look:0<|tool_call_argument_begin|>{"path":"a"}<|tool_call_end|><|tool_calls_section_end|>ok',
    ];
    for (const text of texts) {
      for (let cut = 1; cut < text.length; cut++) {
        expect(invariantFailures(text, [text.slice(0, cut), text.slice(cut)], { tools: ['look'] })).toEqual([]);
      }
    }
  });
});
