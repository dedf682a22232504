/**
 * Inputs that once broke the stream's promises, each checked under random cuttings: the events
 * agree with the final result (never a call, text or reasoning it lacks), and they come as
 * early as the one-shot result allows (a region's close, not `end()`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToolCalls, type ParseOptions, type StreamEvent } from '../../src/index.js';
import { cutAt, everyN, invariantFailures, streamChunks } from './invariant.js';

const TOOLS = ['get_weather', 'search', 'note', 'run', 'python'];
const WEATHER = '{"name": "get_weather", "arguments": {"city": "Paris"}}';
const HARMONY_CALL = '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>';

/** Every one- and two-cut split of `text`, its 1- to 4-character cuttings and 40 random ones. */
function cuttings(text: string): string[][] {
  const out: string[][] = [[text]];
  for (let cut = 1; cut < text.length; cut++) out.push([text.slice(0, cut), text.slice(cut)]);
  for (const size of [1, 2, 3, 4]) out.push(everyN(text, size));
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 12 }), (cuts) => {
      out.push(cutAt(text, cuts));
    }),
    { numRuns: 40, seed: 20261203 },
  );
  return out;
}

function expectInvariant(text: string, options: ParseOptions): void {
  const broken: string[] = [];
  for (const chunks of cuttings(text)) {
    const failures = invariantFailures(text, chunks, options);
    if (failures.length > 0) broken.push(`${JSON.stringify(chunks)}: ${failures[0]}`);
    if (broken.length > 2) break;
  }
  expect(broken).toEqual([]);
}

/** The push (1-based; `chunks.length + 1` is `end()`) at which the first event of `type` came. */
function firstAt(chunks: readonly string[], options: ParseOptions, type: StreamEvent['type']): number | undefined {
  const { events, at } = streamChunks(chunks, options);
  const i = events.findIndex((e) => e.type === type);
  return i < 0 ? undefined : at[i];
}

describe('stream: inputs that once broke the invariant', () => {
  const cases: [string, string, ParseOptions][] = [
    // A suffixed block ends only with the close carrying its open's suffix (Hunyuan).
    ['a Hunyuan block closed with another suffix, then a call', `<think:opensource>Need it.</think:x>\n<tool_call>\n${WEATHER}\n</tool_call>`, { tools: TOOLS }],
    ['a Hunyuan block closed with another suffix, then prose', '<think:abc>Hmm.</think:xyz>Answer.\nMore.', { tools: TOOLS }],
    ['a Hunyuan block closed with its suffix, then a call', `<think:opensource>Need it.</think:opensource>\n<tool_call>\n${WEATHER}\n</tool_call>`, { tools: TOOLS }],
    // A value with no close of its own before the call's close: a later value close (another grammar's) makes the call's close part of the value.
    ['a GLM value left open, then an IQuest call', '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris\n</tool_call><iquestcoder_tool_call>search<arg_key>q</arg_key><arg_value>x</arg_value></iquestcoder_tool_call>', {}],
    ['a GLM value left open, prose, then an IQuest call', '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris\n</tool_call>\nDone.\n<iquestcoder_tool_call>search<arg_key>q</arg_key><arg_value>x</arg_value></iquestcoder_tool_call>', {}],
    // A value whose first close is followed by text that is no argument: a clean close later (a file that shows the grammar) ends it instead.
    ['a Qwen3-Coder value showing the grammar with escaped line breaks', '<tool_call>\n<function=write_file>\n<parameter=content>E = "<tool_call>\\n<function=f>\\n<parameter=x>1</parameter>\\n</function>\\n</tool_call>"\n</parameter>\n</function>\n</tool_call>', { tools: ['write_file'] }],
    // A value holding another grammar's calls before its own close: the close, when it comes, makes them the value's text.
    ['a Qwen3-Coder value holding two Hermes calls', '<tool_call>\n<function=write_file>\n<parameter=content>\nOUT = """<tool_call>\n{"name": "run", "arguments": {"command": "ls"}}\n</tool_call>\n<tool_call>\n{"name": "run", "arguments": {"command": "rm -rf build"}}\n</tool_call>"""\n</parameter>\n</function>\n</tool_call>', { tools: ['write_file', 'run'] }],
    // Llama 3's chained calls: after `{…}; ` the next call may begin with a word (`search.call(`).
    ['a Llama 3 call chained to a built-in call, then another grammar\'s call and prose', '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}; search.call(query="ramen", limit=5)<|tool_call_start|>[get_weather(city=\'Paris\')]<|tool_call_end|>Here is the answer.\n', {}],
    // A reasoning close inside a reference block not closed yet belongs to that block once it closes.
    ['an orphan close right after <tool_call>', `<tool_call></think>\n${WEATHER}\n</tool_call>`, { tools: TOOLS }],
    ['an orphan close inside <toolcall>', `<toolcall></think>\n${WEATHER}\n</toolcall>`, { tools: TOOLS }],
    ['an orphan close inside a Qwen3-Coder function tag', 'OK.\n<tool_call>\n<function=get_weather</think>>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>', { tools: TOOLS }],
    ['a [/THINK] inside a Qwen3-Coder function tag', 'OK.\n<tool_call>\n<function=get_weather[/THINK]>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>', { tools: TOOLS }],
    ['an <|END_THINKING|> inside a GLM call', 'OK.\n<tool_call>get_weather<|END_THINKING|>\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>', { tools: TOOLS }],
    ['a Kimi K3 think close inside a MiniMax invoke', '<minimax:tool_call>\n<invoke name="get_<|close|>think<|sep|>weather">\n<parameter name="city">Paris</parameter>\n</invoke>\n</minimax:tool_call>', { tools: TOOLS }],
    ['a </seed:think> inside an invoke', 'OK.\n<tool_call>\n<invoke name="get_weather</seed:think>">\n<parameter name="city">Paris</parameter>\n</invoke>\n</tool_call>', { tools: TOOLS }],
    ['an <|inner_suffix|> and </ifm|think> inside a function tag', 'OK.\n<tool_call>\n<function=get<|inner_suffix|>_weather</ifm|think>>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>', { tools: TOOLS }],
    // `trace` adds a trace and changes nothing else, in the stream too.
    ['prose with a mid-line < under trace', "<think>Plan.</think>\nUse `Vec<u8>` here.\nIf a < b, swap.\n<tool_call>\n" + WEATHER + '\n</tool_call>', { tools: TOOLS, trace: true }],
    // Reasoning events never split a surrogate pair.
    ['a surrogate pair cut in a reasoning block', '<think>\ud83d\ude00😀😀</think>😀', { tools: TOOLS }],
    ['a surrogate pair cut in reasoning the prompt opened', '😀 reason 😀</think>😀 answer 😀', { tools: TOOLS, reasoning_started: true }],
    ['an answer wrapper body and a call after it', `<think>Need.</think>\n<response>It is sunny.\nMore lines.\n</response>\n<tool_call>\n${WEATHER}\n</tool_call>`, { tools: TOOLS }],
    ['Command R7B response then action', '<|START_RESPONSE|>Checking.<|END_RESPONSE|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}]<|END_ACTION|>', { tools: TOOLS }],
    ['an orphan close with reasoning_started: false', `Need it.\n</think>\n\n<tool_call>\n${WEATHER}\n</tool_call>\nAfter.`, { tools: TOOLS, reasoning_started: false }],
    // reasoning_started, with the open written by the model, or a frame end before the answer.
    ['reasoning_started with <think> written by the model', '<think>\nOkay.\n</think>\n\nIt is sunny.', { tools: TOOLS, reasoning_started: true }],
    ['reasoning_started with [THINK] after blanks', '  [THINK]Okay.[/THINK]Answer.', { tools: TOOLS, reasoning_started: true }],
    ['reasoning_started with the analysis header and a call frame', `<|channel|>analysis<|message|>Thought.<|end|>${HARMONY_CALL}`, { tools: TOOLS, reasoning_started: true }],
    ['reasoning_started and <|end|> before the final channel', 'Reason.<|end|><|start|>assistant<|channel|>final<|message|>Answer.<|return|>', { tools: TOOLS, reasoning_started: true }],
    ['reasoning_started and <|end|> before Solar content', 'reason<|end|>\n<|content|>answer', { tools: TOOLS, reasoning_started: true }],
    ['reasoning_started and <|end|> inside the reasoning', 'reason<|end|> more</think>x', { tools: TOOLS, reasoning_started: true }],
    ['reasoning_started and a Hunyuan close', 'reason</think:opensource>answer', { tools: TOOLS, reasoning_started: true }],
    // Mentions of an open are prose.
    ['an open as inline code', "Use the `<think>` tag to reason.\nThat's it.", { tools: TOOLS }],
    ['an open mid-line with no close', 'The tag <think> marks reasoning.', { tools: TOOLS }],
    ['a block as inline code', 'Wrap reasoning in `<think>...</think>` tags.\nOk.', { tools: TOOLS }],
    ['a block as inline code, then a call on its line', `Note \`<think>a</think>\` and <tool_call>${WEATHER}</tool_call>`, { tools: TOOLS }],
    ['a block, then an inline-code mention', '<think>x</think>Use the `<think>` tag.\nOk.', { tools: TOOLS }],
    ['an inline-code mention and a stray close on its line', `Use \`<think>\` and </think> here.\n<tool_call>\n${WEATHER}\n</tool_call>`, { tools: TOOLS }],
    ['an answer wrapper mentioned mid-line', 'Put the final answer in <answer> tags.\nOK.', { tools: TOOLS }],
    ['an answer wrapper mid-line with its close', 'Sure. <response>Hi</response>', { tools: TOOLS }],
    // Answer wrappers and blocks never closed.
    ['Hunyuan A13B <answer>', '<think>\nx\n</think>\n<answer>\nThe answer\n</answer>', { tools: TOOLS }],
    ['Apriel final response', `Here are my reasoning steps:\nThe user wants Paris.\n[BEGIN FINAL RESPONSE]\n<tool_calls>[${WEATHER}]</tool_calls>`, { tools: TOOLS }],
    ['Solar next message header', '<|think|>x<|end|><|begin|>assistant<|content|>Answer.', { tools: TOOLS }],
    ['a Command block never closed, then the response', '<|START_THINKING|>x<|START_RESPONSE|>y<|END_RESPONSE|>', { tools: TOOLS }],
    ['a <think> block never closed, then <response>', '<think>x<response>y</response>', { tools: TOOLS }],
    ['an answer marker inside a closed block', '<think>I will use <response> tags.</think><response>Hi</response>', { tools: TOOLS }],
  ];
  for (const [name, text, options] of cases) {
    it(`${name}: every cutting agrees with the one-shot result`, () => expectInvariant(text, options));
  }

  it('a Hunyuan close with another suffix does not end the block: no call is streamed from inside it', () => {
    const text = `<think:opensource>Need it.</think:x>\n<tool_call>\n${WEATHER}\n</tool_call>`;
    expect(parseToolCalls(text, { tools: TOOLS }).calls).toEqual([]);
    const { events } = streamChunks(['<think:opensource>Need it.</think:x>', text.slice(36)], { tools: TOOLS });
    expect(events.some((e) => e.type === 'call_start')).toBe(false);
  });

  it('a Hunyuan block streams its reasoning as it comes, up to the close with its suffix', () => {
    const text = `<think:opensource>Need it.</think:opensource>\n<tool_call>\n${WEATHER}\n</tool_call>`;
    const chunks = everyN(text, 1);
    expect(firstAt(chunks, { tools: TOOLS }, 'reasoning')).toBeLessThan(text.indexOf('</think:'));
    expect(firstAt(chunks, { tools: TOOLS }, 'call_end')).toBeLessThanOrEqual(text.length);
  });

  it('no reasoning event ends in a lone high surrogate', () => {
    const { events } = streamChunks(['<think>\ud83d', '\ude00😀😀</think>😀'], { tools: TOOLS });
    for (const e of events) if (e.type === 'reasoning') expect(/[\ud800-\udbff]$/.test(e.text)).toBe(false);
  });
});

describe('stream: inputs that once released late', () => {
  it('reasoning_started with the open written by the model: the block\'s body still flows before its close', () => {
    const text = '<think>\nThe user asks about Paris.\n</think>\n\nIt is sunny.';
    const chunks = everyN(text, 1);
    expect(firstAt(chunks, { tools: TOOLS, reasoning_started: true }, 'reasoning')).toBeLessThan(text.indexOf('</think>'));
  });

  it('reasoning_started: the reasoning flows from the first characters that cannot begin an open', () => {
    const chunks = ['The', ' user asks.', '</think>Answer.'];
    expect(firstAt(chunks, { tools: TOOLS, reasoning_started: true }, 'reasoning')).toBe(1);
  });

  it('two regions completed by one push: the second region\'s call comes in that push', () => {
    const text = `<|channel|>analysis<|message|>Need.<|end|>${HARMONY_CALL}`;
    expect(firstAt(['<|channel|>analysis<|message|>Need.', text.slice(35)], { tools: TOOLS }, 'call_end')).toBe(2);
    expect(firstAt([text], { tools: TOOLS }, 'call_end')).toBe(1);
    expectInvariant(text, { tools: TOOLS });
  });

  it('an orphan close under reasoning_started: false is a marker: the call after it comes at its close', () => {
    const text = `Need it.\n</think>\n\n<tool_call>\n${WEATHER}\n</tool_call>\nAfter.`;
    const close = text.indexOf('</tool_call>') + '</tool_call>'.length;
    expect(firstAt([text.slice(0, close), text.slice(close)], { tools: TOOLS, reasoning_started: false }, 'call_end')).toBe(1);
  });

  it('a Markdown link, footnote or checkbox line at a line start (no list of calls can begin there): the lines after it flow', () => {
    for (const line of ['[The docs](https://example.com/docs) explain it.', '[^1]: https://example.com/notes', '[x] tests pass', '[Note] read this first']) {
      const chunks = ['Here is what I found.\n\n', `${line}\n`, '\nA paragraph a client shows as it comes.\n', 'Another one.\n', 'Done.'];
      const options = { tools: TOOLS, reasoning_started: false };
      const { events, at } = streamChunks(chunks, options);
      const paragraph = events.findIndex((e) => e.type === 'text' && e.text.includes('A paragraph'));
      expect(at[paragraph]).toBe(3);
      expectInvariant(chunks.join(''), options);
    }
  });

  it('a JSON snippet whose first key names no call, in a block before a call: the call comes at its close', () => {
    const chunks = ['Config:\n\n```json\n', '{"version": "1.2.0"}\n```\n\nChecking.\n', `<tool_call>\n${WEATHER}\n</tool_call>`, '\n\nI will report back.\n'];
    const options = { tools: TOOLS, reasoning_started: false };
    expect(firstAt(chunks, options, 'call_end')).toBe(3);
    expectInvariant(chunks.join(''), options);
  });

  it('the same lines while a call list or an opener could still begin: held, and the one-shot result kept', () => {
    const options = { tools: TOOLS, reasoning_started: false };
    for (const text of ['Intro.\n[get_weather(city="Paris")]\nDone.', 'Intro.\n[THINK]Plan.[/THINK]Done.\nMore.', 'Intro.\n{"name": "get_weather", "arguments": {"city": "Paris"}}\nDone.']) expectInvariant(text, options);
  });

  it('Llama 3 `<|python_tag|>{…}` with no end token, text after it in the same chunk: the call comes with that chunk, the prose flows after it', () => {
    const chunks = ['<|python_tag|>', '{"name": "get_weather", ', '"parameters": {"city": "SF"', '}}\nI have', ' asked for the weather.\n', 'More prose.\n'];
    const options = { tools: TOOLS, reasoning_started: false };
    expect(firstAt(chunks, options, 'call_end')).toBe(4);
    expect(firstAt(chunks, options, 'text')).toBe(5);
    expectInvariant(chunks.join(''), options);
    expectInvariant('<|python_tag|>{"name": "get_weather", "parameters": {"city": "SF"}}; {"name": "search", "parameters": {"q": "x"}}\nDone.', options);
  });

  const wrappers: [string, string, string][] = [
    ['gpt-oss final channel', '<|channel|>analysis<|message|>Need.<|end|><|start|>assistant<|channel|>final<|message|>', '<|return|>'],
    ['ERNIE <response>', '<think>Need.</think>\n<response>', '</response>'],
    ['Command <|START_RESPONSE|>', '<|START_RESPONSE|>', '<|END_RESPONSE|>'],
    ['Command <|START_TEXT|>', '<|START_TEXT|>', '<|END_TEXT|>'],
    ['Kimi K3 response', '<|open|>response<|sep|>', '<|close|>response<|sep|>'],
  ];
  it('a <think> sample in a code block the answer opened: never reasoning, whatever the cutting', () => {
    const text = 'Here is one:\n```\n<think>Plan the route.</think>\n```\n<think>Real.</think>Done.';
    const options = { tools: TOOLS };
    const one = parseToolCalls(text, options);
    expect(one.reasoning).toBe('Real.');
    expect(one.prose).toBe('Here is one:\n\n```\n<think>Plan the route.</think>\n```\n\nDone.');
    for (const size of [1, 3, 7]) {
      const { events } = streamChunks(everyN(text, size), options);
      expect(events.filter((e) => e.type === 'reasoning').map((e) => (e.type === 'reasoning' ? e.text : '')).join('')).toBe('Real.');
    }
    expectInvariant(text, options);
    expectInvariant(text.slice(0, text.indexOf('</think>')), options);
  });

  it('gpt-oss final channel: an answer holding a call object flows as it comes, never a call', () => {
    const text = `<|channel|>analysis<|message|>Need.<|end|><|start|>assistant<|channel|>final<|message|>Send this:\n${WEATHER}\nThen wait.<|return|>`;
    const options = { tools: TOOLS };
    const one = parseToolCalls(text, options);
    expect(one.calls).toEqual([]);
    expect(one.prose).toBe(`Send this:\n${WEATHER}\nThen wait.`);
    // Cut inside the call object: the text before the cut has come by then, the object's start too.
    const cut = text.indexOf('"city"');
    const { events, at } = streamChunks([text.slice(0, cut), text.slice(cut)], options);
    const said = events.filter((e, i) => e.type === 'text' && at[i] === 1).map((e) => (e.type === 'text' ? e.text : '')).join('');
    expect(said).toBe('Send this:\n{"name": "get_weather", "arguments": {');
    expect(events.some((e) => e.type === 'call_start')).toBe(false);
    expectInvariant(text, options);
    expectInvariant(`${text.slice(0, text.indexOf('<|return|>'))}`, options);
  });

  for (const [name, open, close] of wrappers) {
    it(`${name}: the answer's lines stream as they end, and a call after the wrapper comes at its close`, () => {
      const text = `${open}It is sunny.\nMore lines.\n${close}\n<tool_call>\n${WEATHER}\n</tool_call>`;
      const options = { tools: TOOLS };
      const one = parseToolCalls(text, options);
      expect(one.prose).toBe('It is sunny.\nMore lines.');
      expect(one.calls).toHaveLength(1);
      const firstLine = text.indexOf('\n', open.length) + 1;
      const chunks = [text.slice(0, firstLine), text.slice(firstLine, text.length - 3), text.slice(text.length - 3)];
      expect(firstAt(chunks, options, 'text')).toBe(1);
      expect(firstAt(chunks, options, 'call_end')).toBeLessThanOrEqual(3);
      expectInvariant(text, options);
    });
  }
});
