/**
 * When events come: a call's events no later than the chunk that completes its closing marker
 * (for every grammar with a close of its own), text released with the regions it precedes,
 * and the work over a stream bounded by three one-shot parses however it is cut.
 */
import { describe, expect, it } from 'vitest';
import { createStreamParser, parseToolCalls, type ParseResult } from '../../src/index.js';
import { everyN, invariantFailures, streamChunks } from './invariant.js';

const TOOLS = ['look'];

describe('stream: release timing', () => {
  it('announces a call, and the prose before it, in the chunk that ends its body, before its close', () => {
    const text = 'Hi.\n<tool_call>{"name": "look", "arguments": {"path": "a"}}</tool_call>\nMore prose.';
    const close = text.indexOf('</tool_call>') + '</tool_call>'.length;
    const { events, at } = streamChunks([text.slice(0, close - 3), text.slice(close - 3, close), text.slice(close)], { tools: TOOLS });
    const byType = (type: string) => at[events.findIndex((e) => e.type === type)];
    expect(byType('text')).toBe(1);
    expect(byType('call_start')).toBe(1);
    expect(byType('call_end')).toBe(1);
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text)).toEqual(['Hi.', '\n\nMore prose.']);
  });

  it('holds a call whose body has not ended: the text may still end inside it', () => {
    const body = '<tool_call>{"name": "look", "arguments": {"path": "a"}';
    const { events, at } = streamChunks([body, '}', '</tool_call>'], { tools: TOOLS });
    expect(at[events.findIndex((e) => e.type === 'call_start')]).toBe(2);
    // Cut off inside the arguments, the one-shot parse has no call: announcing at the name would have been wrong.
    expect(parseToolCalls(body.slice(0, -1), { tools: TOOLS }).calls).toEqual([]);
  });

  it('announces each call of a section as its own close arrives', () => {
    const call = (i: number) => `<|tool_call_begin|>functions.look:${i}<|tool_call_argument_begin|>{"path": "${i}"}<|tool_call_end|>`;
    const chunks = ['<|tool_calls_section_begin|>', call(0), call(1), '<|tool_calls_section_end|>'];
    const { events, at } = streamChunks(chunks, { tools: TOOLS });
    expect(events.flatMap((e, i) => (e.type === 'call_end' ? [at[i]] : []))).toEqual([2, 3]);
  });

  const grammars: [string, string][] = [
    ['hermes', '<tool_call>{"name": "look", "arguments": {"path": "a"}}</tool_call>'],
    ['kimi-k2', '<|tool_calls_section_begin|><|tool_call_begin|>functions.look:0<|tool_call_argument_begin|>{"path": "a"}<|tool_call_end|><|tool_calls_section_end|>'],
    ['deepseek-v3', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>look\n```json\n{"path": "a"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'],
    ['glm-4.5', '<tool_call>look\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\n</tool_call>'],
    ['qwen3-coder', '<tool_call>\n<function=look>\n<parameter=path>\na\n</parameter>\n</function>\n</tool_call>'],
    ['minimax-m2', '<minimax:tool_call>\n<invoke name="look">\n<parameter name="path">a</parameter>\n</invoke>\n</minimax:tool_call>'],
    ['harmony', '<|start|>assistant<|channel|>commentary to=functions.look <|constrain|>json<|message|>{"path": "a"}<|call|>'],
    ['anthropic-xml', '<function_calls>\n<invoke name="look">\n<parameter name="path">a</parameter>\n</invoke>\n</function_calls>'],
  ];
  // Where a call's body ends before the region's close (its JSON, or a call close inside the
  // section), its events come no later than the chunk in which that close begins. GLM's call
  // close is the region's close, and Harmony's message must be the JSON alone (a word after it
  // makes the call an error), so there they come with the close.
  const closes: Record<string, string> = {
    hermes: '</tool_call>',
    'kimi-k2': '<|tool_call_end|>',
    'deepseek-v3': '<｜tool▁call▁end｜>',
    'qwen3-coder': '\n</tool_call>',
    'minimax-m2': '\n</minimax:tool_call>',
    'anthropic-xml': '\n</function_calls>',
  };
  for (const [grammar, call] of grammars) {
    it(`${grammar}: in 1-character chunks the call's events come before its close begins, where its body ends first`, () => {
      const text = `${call}\nAfter the call, more prose follows here.`;
      const { events, at } = streamChunks([...everyN(call, 1), '\nAfter the call, more prose follows here.'], { tools: TOOLS });
      expect(parseToolCalls(text, { tools: TOOLS }).calls.map((c) => c.name)).toEqual(['look']);
      const start = at[events.findIndex((e) => e.type === 'call_start')]!;
      const end = at[events.findIndex((e) => e.type === 'call_end')]!;
      const close = closes[grammar];
      // Chunk n holds character n - 1: before the close begins means by the chunk before its first character.
      const bound = close === undefined ? call.length : call.lastIndexOf(close);
      expect(start).toBeLessThanOrEqual(bound);
      expect(end).toBeLessThanOrEqual(bound);
    });

    it(`${grammar}: in 4-character chunks the call's events come no later than the chunk that completes its close`, () => {
      const { events, at } = streamChunks([...everyN(call, 4), '\nAfter the call.'], { tools: TOOLS });
      expect(at[events.findIndex((e) => e.type === 'call_end')]).toBeLessThanOrEqual(everyN(call, 4).length);
    });
  }

  for (const call of ['[TOOL_CALLS]look[ARGS]{"path": "a"}', 'functools[{"name": "look", "arguments": {"path": "a"}}]']) {
    it(`a grammar with no close (${call.slice(0, 12)}…): the call comes once text that cannot continue it follows`, () => {
      const { events, at } = streamChunks([call, '\n', 'Now the ', 'answer.'], { tools: TOOLS });
      const ends = events.flatMap((e, i) => (e.type === 'call_end' ? [at[i]] : []));
      expect(ends).toEqual([3]);
      const held = streamChunks([call, '\n', '[TOOL_CALLS]'], { tools: TOOLS });
      expect(held.at[held.events.findIndex((e) => e.type === 'call_end')]).toBe(4);
    });
  }

  it('keeps a close written inside a JSON string from releasing the call early', () => {
    const text = '<tool_call>{"name": "look", "arguments": {"path": "a </tool_call> b"}}</tool_call>';
    const inner = text.indexOf('</tool_call>') + '</tool_call>'.length;
    const { events } = streamChunks([text.slice(0, inner), text.slice(inner)], { tools: TOOLS });
    const calls = events.flatMap((e) => (e.type === 'call_end' ? [e.call] : []));
    expect(calls).toEqual(parseToolCalls(text, { tools: TOOLS }).calls);
    expect(calls[0]!.arguments).toEqual({ path: 'a </tool_call> b' });
  });
});

describe('stream: linear work', () => {
  const unit = 'Let me look at the next file now.\n<tool_call>{"name": "look", "arguments": {"path": "src/a.rs"}}</tool_call>\n<think>It has a bug.</think>\n';
  const text = unit.repeat(Math.ceil(200_000 / unit.length));

  for (const size of [1, 4, 64]) {
    it(`a 200 KB response in ${size}-character chunks reads at most three texts' worth`, () => {
      const stream = createStreamParser({ tools: TOOLS });
      let released = 0;
      for (const chunk of everyN(text, size)) released += stream.push(chunk).filter((e) => e.type === 'call_end').length;
      const end = stream.end();
      const one = parseToolCalls(text, { tools: TOOLS });
      expect(end.result).toEqual(one);
      expect(released).toBeGreaterThan(one.calls.length - 2);
      expect(stream.work).toBeLessThanOrEqual(3 * text.length);
    });
  }

  // Reads are not the only cost: joining the held pieces copies text, and a join at every push
  // made two shapes quadratic while the work above stayed flat (docs/performance.md, "Twelfth
  // session"). The copies per character must not grow with the text.
  const shapes: [string, (n: number) => string, object][] = [
    ['an agent turn', (n) => unit.repeat(Math.ceil(n / unit.length)), { tools: TOOLS }],
    ['Markdown link lines at line starts', (n) => 'Prose first.\n' + '[The docs](https://example.com/d) say so.\n'.repeat(Math.ceil(n / 42)), { tools: TOOLS, reasoning_started: false }],
    ['a long Qwen3-Coder value of look-alike lines', (n) => '<tool_call>\n<function=look>\n<parameter=path>\n' + '[x] item {"a": 1}\n'.repeat(Math.ceil(n / 18)) + '</parameter>\n</function>\n</tool_call>', { tools: TOOLS }],
    ['a long value held at a look-alike opener', (n) => 'Intro.\n[{"name": "look", "arguments": {"path": "' + 'x'.repeat(n) + '"}}]', { tools: TOOLS }],
    ['a long value held at a look-alike opener, plain lines read', (n) => 'Intro.\n[{"name": "look", "arguments": {"path": "' + 'x'.repeat(n) + '"}}]', { tools: TOOLS, reasoning_started: false }],
  ];
  for (const [name, make, options] of shapes) {
    it(`copies a bounded number of characters per character received: ${name}`, () => {
      const perChar = (n: number): { copied: number; work: number } => {
        const text = make(n);
        const stream = createStreamParser(options);
        for (const chunk of everyN(text, 4)) stream.push(chunk);
        expect(stream.end().result).toEqual(parseToolCalls(text, options));
        return { copied: stream.copied / text.length, work: stream.work / text.length };
      };
      const small = perChar(50_000);
      const large = perChar(200_000);
      expect(large.copied).toBeLessThanOrEqual(small.copied * 1.25 + 0.1);
      expect(large.work).toBeLessThanOrEqual(small.work * 1.25 + 0.1);
      expect(large.copied).toBeLessThanOrEqual(24);
      expect(large.work).toBeLessThanOrEqual(8);
    });
  }

  it('reads a 200 KB text with no marker once', () => {
    const prose = 'plain words and more words\n'.repeat(8000);
    const stream = createStreamParser();
    for (const chunk of everyN(prose, 4)) stream.push(chunk);
    expect((stream.end().result as ParseResult).prose).toBe(prose.trim());
    expect(stream.work).toBe(prose.length);
    // Once more to join the pieces for the final parse.
    expect(stream.copied).toBe(prose.length);
  });
});

describe('stream: prose waits for the region that ends its piece', () => {
  it('holds a line once it cannot be plain: a later block can change what the lane makes of it', () => {
    const later = '<user_response>The answer.</user_response>';
    const prose = '<b>Some words first</b>.\nAnd a second line.\n';
    const one = parseToolCalls(prose + later, { reasoning_started: false });
    // The response block makes the lane drop the untagged text before it: releasing it early would be wrong.
    expect(one.prose).not.toContain('Some words first');
    const { events, at } = streamChunks([prose, later], { reasoning_started: false });
    expect(at.every((n) => n === 3)).toBe(true);
    expect(events.filter((e) => e.type === 'text').map((e) => e.text).join('')).toBe(one.prose);
  });

  it('releases a reference-grammar block with the end of its piece: the end of the text here', () => {
    const text = 'Reading it.\n<tool_call>look({"path": "a.rs"})</tool_call>\nThen more.';
    const close = text.indexOf('</tool_call>') + '</tool_call>'.length;
    const { events, at } = streamChunks([text.slice(0, close), text.slice(close)], { tools: TOOLS });
    expect(events.filter((e) => e.type === 'call_end').map((e) => e.call.name)).toEqual(['look']);
    expect(at.every((n) => n === 3)).toBe(true);
  });
});

describe('stream: text and reasoning before their region ends', () => {
  const texts = (events: readonly object[], type: string) => events.filter((e) => (e as { type: string }).type === type).map((e) => (e as { text: string }).text);

  it('holds prose before the first marker when reasoning_started is unset: a later </think> makes it reasoning', () => {
    const { events, at } = streamChunks(['I think the answer is 4.\n', 'So that is it.</think>', 'It is 4.'], {});
    expect(texts(events, 'reasoning')).toEqual(['I think the answer is 4.\nSo that is it.']);
    expect(at[events.findIndex((e) => e.type === 'reasoning')]).toBe(2);
    expect(texts(events, 'text').join('')).toBe('It is 4.');
  });

  it('lets a <think> body flow before its close, holding back only what could begin the close', () => {
    const { events, at } = streamChunks(['Hi.\n<think>Paris ', 'needs the weather</th', 'ink>Checking.'], {});
    expect(texts(events, 'text')).toEqual(['Hi.', '\n\nChecking.']);
    expect(texts(events, 'reasoning')).toEqual(['Paris', ' needs the weather']);
    expect(at.slice(0, 3)).toEqual([1, 1, 2]);
  });

  it('streams reasoning the prompt opened from the first character', () => {
    const { events, at } = streamChunks(['The user ', 'asks about Paris.</think>', 'Sunny.'], { reasoning_started: true });
    expect(texts(events, 'reasoning')).toEqual(['The user', ' asks about Paris.']);
    expect(at.slice(0, 2)).toEqual([1, 2]);
    expect(texts(events, 'text')).toEqual(['Sunny.']);
  });
});

describe('stream: what a reasoning front holds back', () => {
  it('never more than the longest end-marker prefix (23 in a block, 46 when the prompt opened it) plus trailing space', () => {
    const body = 'word '.repeat(400);
    for (const [options, open, bound] of [
      [{}, '<think>', 23],
      [{ reasoning_started: true }, '', 46],
    ] as const) {
      const stream = createStreamParser(options);
      let said = 0;
      const text = open + body;
      for (let i = 0; i < text.length; i += 3) {
        for (const e of stream.push(text.slice(i, i + 3))) if (e.type === 'reasoning') said += e.text.length;
        const received = Math.min(text.length, i + 3) - open.length;
        const trailing = body.slice(0, received).length - body.slice(0, received).trimEnd().length;
        expect(received - said).toBeLessThanOrEqual(bound + trailing);
      }
      stream.end();
    }
  });
});

describe('stream: an answer after a region comes line by line', () => {
  const textsAt = (chunks: readonly string[], options: object) => {
    const { events, at } = streamChunks(chunks, options);
    return events.flatMap((e, i) => (e.type === 'text' ? [{ text: e.text, at: at[i] }] : []));
  };

  it('releases each plain line after a reasoning block in the chunk that ends it; the unterminated last line with end()', () => {
    const text = '<think>Two and two.</think>\nThe answer is 4.\nIt is small.\n\nThat is all';
    const chunks = [...text];
    expect(textsAt(chunks, {})).toEqual([
      { text: 'The answer is 4.', at: text.indexOf('4.\n') + 3 },
      { text: '\nIt is small.', at: text.indexOf('small.\n') + 7 },
      { text: '\n\nThat is all', at: chunks.length + 1 },
    ]);
    expect(parseToolCalls(text).prose).toBe('The answer is 4.\nIt is small.\n\nThat is all');
  });

  it('stops at the first line that is not plain: the rest of the piece comes when it is read whole', () => {
    const text = '<tool_call>{"name": "look", "arguments": {"path": "a"}}</tool_call>\nLine one.\n<b>See</b> x.\nLine three.\n';
    const chunks = everyN(text, 4);
    const got = textsAt(chunks, { tools: TOOLS });
    expect(got[0]).toEqual({ text: 'Line one.', at: Math.ceil((text.indexOf('one.\n') + 5) / 4) });
    expect(got.slice(1).every((t) => t.at === chunks.length + 1)).toBe(true);
    expect(got.map((t) => t.text).join('')).toBe(parseToolCalls(text, { tools: TOOLS }).prose);
  });

  it('with reasoning_started: false, streams a plain answer from its first line', () => {
    const text = 'Sure.\nHere it is:\n- one\n- two\n';
    expect(textsAt(everyN(text, 1), { reasoning_started: false }).map((t) => t.at)).toEqual([6, 18, 24, 30]);
  });

  it('streams Markdown that starts nothing line by line: inline code (a name in it is a mention), links, a brace with text after it', () => {
    const lines = ['Run `npm test` first.\n', 'Then call `look(path)` on it.\n', 'See [the guide](https://x.y/a_b) and [1].\n', 'A set {a, b} of ~5.\n'];
    const text = lines.join('');
    const ends = lines.map((_, i) => lines.slice(0, i + 1).join('').length);
    const got = textsAt(everyN(text, 1), { reasoning_started: false, tools: TOOLS });
    expect(got.map((t) => t.at)).toEqual(ends);
    expect(got.map((t) => t.text).join('')).toBe(parseToolCalls(text, { reasoning_started: false, tools: TOOLS }).prose);
  });

  it('streams lines with a `<` mid-line (a comparison, generics, inline HTML) line by line', () => {
    const lines = ['If a < b and c <= d, stop.\n', 'Use `Vec<u8>` for bytes.\n', 'Break with <br> here.\n'];
    const text = lines.join('');
    const ends = lines.map((_, i) => lines.slice(0, i + 1).join('').length);
    const got = textsAt(everyN(text, 1), { reasoning_started: false, tools: TOOLS });
    expect(got.map((t) => t.at)).toEqual(ends);
    const whole = parseToolCalls(text, { reasoning_started: false, tools: TOOLS });
    expect(got.map((t) => t.text).join('')).toBe(whole.prose);
    expect(whole.prose).toBe(text.trim());
    // A `<` at a line's start may open a tag: that line waits.
    const tagLine = 'Words.\n<b>bold</b> after\n';
    expect(textsAt(everyN(tagLine, 1), { reasoning_started: false }).map((t) => t.at)).toEqual([7, tagLine.length + 1]);
  });

  it('releases a closed code block whole at its closing fence line, and goes on after it', () => {
    const block = '```python\nitems = [3, 1, 2]\nresult = sorted(items)\n```\n';
    const after = ['Both are stable.\n', 'The first sorts in place and returns nothing at all.\n', 'The second returns a new list and leaves the old one.\n'];
    const text = `Sorting:\n${block}${after.join('')}`;
    const got = textsAt(everyN(text, 1), { reasoning_started: false, tools: TOOLS });
    // A `[` mid-line, once a chunk window began at it (1-character chunks slide the window over
    // every position), was taken for a line-start opener, and the lines after it waited.
    const ends = after.map((_, i) => 9 + block.length + after.slice(0, i + 1).join('').length);
    expect(got.map((t) => t.at)).toEqual([9, 9 + block.length, ...ends]);
    expect(got.map((t) => t.text).join('')).toBe(parseToolCalls(text, { reasoning_started: false, tools: TOOLS }).prose);
    const open = 'Sorting:\n```python\nitems = [3]\n';
    expect(textsAt(everyN(open, 1), { reasoning_started: false }).map((t) => t.at)).toEqual([9, open.length + 1]);
  });

  it('holds a first line that may head an unmarked segment (a registered name, Functionary\'s `all`)', () => {
    for (const first of ['look', 'all']) {
      const text = `${first}\nThen some words.\n`;
      const got = textsAt(everyN(text, 1), { reasoning_started: false, tools: TOOLS });
      expect(got.every((t) => t.at === text.length + 1)).toBe(true);
    }
  });
});

describe('stream: code and call look-alikes after a region come line by line when no registered name is in them', () => {
  const textsAt = (chunks: readonly string[], options: object) => {
    const { events, at } = streamChunks(chunks, options);
    return events.flatMap((e, i) => (e.type === 'text' ? [{ text: e.text, at: at[i]! }] : []));
  };
  const call = '<tool_call>{"name": "look", "arguments": {"path": "a"}}</tool_call>\n';
  /** The number of `size`-character chunks that ends `prefix` (its last character). */
  const chunkEnding = (prefix: string, size: number) => Math.ceil(prefix.length / size);

  it('releases a code block of unregistered calls at its closing fence line; registering `print` holds it to end()', () => {
    const block = '```python\nprint(x)\nresult = get_data(a=1)\n```\n';
    const text = `${call}Here is the fix:\n${block}Done.\n`;
    const chunks = everyN(text, 4);
    const got = textsAt(chunks, { tools: ['look'] });
    const fenceEnd = chunkEnding(`${call}Here is the fix:\n${block}`, 4);
    expect(got.map((t) => t.at)).toEqual([chunkEnding(`${call}Here is the fix:\n`, 4), fenceEnd, chunkEnding(text, 4)]);
    expect(got.every((t) => t.at <= chunks.length)).toBe(true);
    const one = parseToolCalls(text, { tools: ['look'] });
    expect(got.map((t) => t.text).join('')).toBe(one.prose);
    expect(one.prose).toBe(text.slice(call.length).trim());
    // `print` registered: `print(x)` may be a call, so the block waits for the piece's end; with
    // a positional argument it is none the gateway reads, and the block stays prose.
    const held = textsAt(chunks, { tools: ['look', 'print'] });
    expect(held[0]).toEqual({ text: 'Here is the fix:', at: chunkEnding(`${call}Here is the fix:\n`, 4) });
    expect(held.slice(1).every((t) => t.at === chunks.length + 1)).toBe(true);
    const registered = parseToolCalls(text, { tools: ['look', 'print'] });
    expect(registered.tool_parse_errors).toEqual([]);
    expect(held.map((t) => t.text).join('')).toBe(registered.prose);
  });

  it('releases line-start look-alikes whose name is not registered, each in the chunk that ends it', () => {
    const lines = ['Try this:\n', 'print(x)\n', 'frob{ a: 1 }\n', '  print(x)\n', 'Sure: [frob(a=1)]\n', '`print(x)`\n', 'Note: print(x)\n', 'Done.\n'];
    const text = call + lines.join('');
    for (const tools of [['look'], undefined]) {
      const got = textsAt(everyN(text, 1), tools === undefined ? {} : { tools });
      expect(got.map((t) => t.at)).toEqual(lines.map((_, i) => call.length + lines.slice(0, i + 1).join('').length));
      expect(got.map((t) => t.text).join('')).toBe(parseToolCalls(text, tools === undefined ? {} : { tools }).prose);
    }
  });

  it('releases a line-start look-alike whose calls are all registered once text follows its line, then the prose line by line', () => {
    for (const line of ['{"name": "look", "arguments": {"path": "b"}}', '[look(path="b")]', '[{"name": "look", "arguments": {"path": "b"}}]']) {
      const text = `${call}Before.\n${line}\nAfter.\nLast.\n`;
      const { events, at } = streamChunks(everyN(text, 1), { tools: ['look'] });
      const ends = events.flatMap((e, i) => (e.type === 'call_end' ? [at[i]!] : []));
      // The second call comes once the line after it has begun with text that begins no marker of
      // the grammar: `Af` (an `A` alone might begin Command R+'s `Action:`).
      expect(ends).toHaveLength(2);
      expect(ends[1]).toBe(text.indexOf('After.') + 2);
      const texts = textsAt(everyN(text, 1), { tools: ['look'] });
      expect(texts.map((t) => t.at)).toEqual([call.length + 'Before.\n'.length, text.indexOf('After.\n') + 'After.\n'.length, text.length]);
      expect(invariantFailures(text, everyN(text, 1), { tools: ['look'] })).toEqual([]);
    }
  });

  it('holds a line-start look-alike with an unregistered name, or with no registry, to end()', () => {
    for (const [line, options] of [['{"name": "frob", "arguments": {}}', { tools: ['look'] }], ['{"name": "look", "arguments": {}}', {}]] as const) {
      const text = `${call}Before.\n${line}\nAfter.\n`;
      const { events, at } = streamChunks(everyN(text, 1), options);
      const before = events.findIndex((e) => e.type === 'text' && e.text === 'Before.');
      expect(at[before]).toBe(call.length + 'Before.\n'.length);
      // Whether the value is a call, an error or prose turns on the rest of the response.
      expect(at.slice(before + 1).every((n) => n === text.length + 1)).toBe(true);
      expect(at.length).toBeGreaterThan(before + 1);
    }
  });

  it('without a registry, a line call with an object argument is prose too; with one it is an unknown tool and waits', () => {
    const text = `${call}Then:\nfrob({ a: 1 })\nDone.\n`;
    const free = textsAt(everyN(text, 1), {});
    expect(free.map((t) => t.at)).toEqual([call.length + 'Then:\n'.length, text.length - 'Done.\n'.length, text.length]);
    expect(free.map((t) => t.text).join('')).toBe(parseToolCalls(text).prose);
    const held = textsAt(everyN(text, 1), { tools: ['look'] });
    expect(held.slice(1).every((t) => t.at === text.length + 1)).toBe(true);
    expect(parseToolCalls(text, { tools: ['look'] }).tool_parse_errors[0]).toMatch(/^Unknown tool 'frob'/);
  });

  it('holds a value at a line start (`{`, `[`, a ```json fence): the look-alike grammar opens a region there, whatever its names', () => {
    for (const line of ['[frob(a=1)]', '{"name": "frob", "arguments": {}}', '```json']) {
      const text = `${call}Before.\n${line}\nAfter.\n`;
      const got = textsAt(everyN(text, 1), { tools: ['look'] });
      expect(got[0]).toEqual({ text: 'Before.', at: call.length + 'Before.\n'.length });
      expect(got.slice(1).every((t) => t.at === text.length + 1)).toBe(true);
    }
  });

  it('still holds a line a registered name may make a call or an error: a line call, a label before one, a list of them', () => {
    for (const line of ['look({"path": "b"})', 'look(x)', 'look{ path: "b" }', 'Hint: look(x)', 'tool_code: frob({ a: 1 })', 'Sure: [look(path="b")]', 'see {"a": 1}']) {
      const text = `${call}Before.\n${line}\nAfter.\n`;
      const got = textsAt(everyN(text, 1), { tools: ['look'] });
      expect(got[0]).toEqual({ text: 'Before.', at: call.length + 'Before.\n'.length });
      expect(got.slice(1).every((t) => t.at === text.length + 1)).toBe(true);
    }
  });
});
