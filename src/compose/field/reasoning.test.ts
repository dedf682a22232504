/**
 * Reasoning blocks in the field lane (issue 14): the channel of their own, the order of the
 * turn's parts, the ledger promise over random mixes, never throwing on marker fragments, and
 * linear work under `reasoning_started`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REASONING_GRAMMARS } from '../../dialects/field/reasoning.js';
import type { ReasoningGrammar } from '../../dialects/field/index.js';
import { countStringWork } from '../../../test/support/string-work.js';
import { parseToolCalls, parseTurn } from '../parse.js';

const tools = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'note', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
];

const gateway = (text: string, extra: object = {}) => parseToolCalls(text, { tools, profile: 'gateway', ...extra });

const kimi = (name: string, args: unknown) =>
  `<|tool_calls_section_begin|><|tool_call_begin|>functions.${name}:0<|tool_call_argument_begin|>${JSON.stringify(args)}<|tool_call_end|><|tool_calls_section_end|>`;

/** A reasoning grammar's open and close as a model writes them (a suffix filled in). */
function pairOf(grammar: ReasoningGrammar): [string, string] {
  const suffix = grammar.suffix === null ? '' : `opensource${grammar.suffix.end}`;
  return [grammar.open[0]! + suffix, grammar.close[0]! + suffix];
}

// Blocks with an open of their own (Apriel's final-response marker closes reasoning that has none).
// Plain-word blocks (Granite's `Here is my thought process:`) and tags read only as the
// response's first text (the GRPO format's `<reasoning>`) have rules of their own
// (conformance/reasoning pins them), and their words are no markers where they stand as text.
const MARKED = REASONING_GRAMMARS.filter((g) => g.closeRequired !== true && (g.openAt ?? 'anywhere') === 'anywhere');
// A block that only the next message ends (flattened Harmony's `assistantanalysis`) has no close to render.
const BLOCKS = MARKED.filter((g) => g.role === 'reasoning' && g.open.length > 0 && g.close.length > 0).map(pairOf);
const ALL_MARKERS = MARKED.flatMap((g) => [...g.open, ...g.close]);

describe('reasoning: its own channel', () => {
  it('is neither prose nor a drop', () => {
    const result = gateway('<think>The user wants Paris.</think>Let me check.');
    expect(result.reasoning).toBe('The user wants Paris.');
    expect(result.prose).toBe('Let me check.');
    expect(result.dropped.map((d) => d.text)).not.toContain('The user wants Paris.');
  });

  it('keeps the reasoning block returned as read: one block is the only copy', () => {
    const body = 'a'.repeat(1000);
    expect(gateway(`<think>${body}</think>`).reasoning).toBe(body);
  });

  it('under harn strips as before and has no reasoning field', () => {
    const harn = parseToolCalls('<think>secret</think>visible', { tools, profile: 'harn' });
    expect('reasoning' in harn).toBe(false);
    expect(harn.prose).toBe('visible');
  });

  it('is null under gateway when the text has no reasoning, and the rest reads as before', () => {
    const text = 'Just prose.';
    const result = gateway(text);
    expect(result.reasoning).toBeNull();
    const { reasoning, ...rest } = result;
    expect(reasoning).toBeNull();
    expect(rest).toEqual(parseToolCalls(text, { tools, profile: 'harn' }));
  });

  it('a call inside reasoning is not a call: verbatim, with one call_in_reasoning naming the marker', () => {
    const call = kimi('get_weather', { city: 'Paris' });
    const result = gateway(`<think>Maybe ${call}</think>Answer.`);
    expect(result.calls).toEqual([]);
    expect(result.reasoning).toBe(`Maybe ${call}`);
    expect(result.protocol_violations).toHaveLength(1);
    expect(result.protocol_violations[0]).toMatchObject({ kind: 'call_in_reasoning', excerpt: '<|tool_calls_section_begin|>' });
  });

  it('brackets, braces and word-like openers in thinking are not call markup', () => {
    expect(gateway('<|channel|>analysis<|message|>Thought.<|return|>').protocol_violations).toEqual([]);
    expect(gateway('Reason.<|end|><|start|>assistant<|channel|>final<|message|>Answer.<|return|>', { reasoning_started: true })).toMatchObject({ prose: 'Answer.', protocol_violations: [] });
    for (const thought of ['The list [1, 2] matters.\n[3] too.', 'An object:\n{"a": 1}', 'At the prompt:\n>>> print(1)', 'I could use functools here.']) {
      const result = gateway(`<think>${thought}</think>Answer.`);
      expect(result.reasoning).toBe(thought);
      expect(result.prose).toBe('Answer.');
      expect(result.protocol_violations).toEqual([]);
    }
  });

  it('reasoning_started: a call before the first close is reasoning; the one after runs', () => {
    const before = kimi('get_weather', { city: 'Rome' });
    const after = kimi('get_weather', { city: 'Paris' });
    const result = gateway(`Thinking ${before} done.</think>${after}`, { reasoning_started: true });
    expect(result.calls.map((c) => c.arguments)).toEqual([{ city: 'Paris' }]);
    expect(result.reasoning).toBe(`Thinking ${before} done.`);
    expect(result.protocol_violations.map((v) => v.kind)).toEqual(['call_in_reasoning']);
  });

  it('reasoning_started with no close: a call section ends the reasoning and runs', () => {
    const call = kimi('get_weather', { city: 'Paris' });
    const result = gateway(`I need the weather first.${call}`, { reasoning_started: true });
    expect(result.calls.map((c) => c.arguments)).toEqual([{ city: 'Paris' }]);
    expect(result.reasoning).toBe('I need the weather first.');
    expect(result.protocol_violations).toEqual([]);
    const qwen = gateway('The user wants Paris.\n\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>', { reasoning_started: true });
    expect(qwen.calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(qwen.reasoning).toBe('The user wants Paris.');
  });

  it('an orphan close after a region is a stray marker, not reasoning', () => {
    const result = gateway(`${kimi('get_weather', { city: 'Paris' })}Checked.</think>Sunny.`);
    expect(result.calls).toHaveLength(1);
    expect(result.reasoning).toBeNull();
    expect(result.prose).toBe('Checked.\n\nSunny.');
  });

  it('refuses a reasoning_started that is not a boolean', () => {
    expect(() => parseToolCalls('x', { profile: 'gateway', reasoning_started: 'yes' as unknown as boolean })).toThrow(TypeError);
  });
});

describe('reasoning: the turn in document order', () => {
  it('keeps reasoning, text and calls in place when they alternate', () => {
    const text = `<think>one</think>${kimi('get_weather', { city: 'Paris' })}<think>two</think>Between.${kimi('note', { text: 'x' })}<think>three</think>End.`;
    const turn = parseTurn(text, { tools, profile: 'gateway' });
    const named = turn.parts.map((p) => (p.kind === 'call' ? `call:${turn.result.calls[p.index]!.name}` : `${p.kind}:${p.text}`));
    expect(named).toEqual(['reasoning:one', 'call:get_weather', 'reasoning:two', 'text:Between.', 'call:note', 'reasoning:three', 'text:End.']);
    expect(turn.result.reasoning).toBe('one\n\ntwo\n\nthree');
  });
});

// Words with no marker character in them, so a segment is its own text and nothing else.
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '));

type Segment = { kind: 'prose'; text: string } | { kind: 'reasoning'; text: string; pair: number } | { kind: 'call'; city: string };

const segment: fc.Arbitrary<Segment> = fc.oneof(
  words.map((text) => ({ kind: 'prose' as const, text })),
  fc.record({ text: words, pair: fc.nat(BLOCKS.length - 1) }).map((r) => ({ kind: 'reasoning' as const, ...r })),
  word.map((city) => ({ kind: 'call' as const, city })),
);

function render(segments: readonly Segment[]): string {
  return segments
    .map((s) => {
      if (s.kind === 'prose') return `\n${s.text}\n`;
      if (s.kind === 'call') return kimi('get_weather', { city: s.city });
      const [open, close] = BLOCKS[s.pair]!;
      return `${open}${s.text}${close}`;
    })
    .join('');
}

describe('reasoning: properties', () => {
  it('every piece of text is in prose, reasoning, a call or dropped; markers reach none of them', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const result = gateway(render(segments));
        const calls = segments.filter((s) => s.kind === 'call');
        expect(result.calls.map((c) => c.arguments)).toEqual(calls.map((c) => ({ city: c.city })));
        const reasoning = segments.filter((s) => s.kind === 'reasoning').map((s) => s.text);
        expect(result.reasoning).toBe(reasoning.length === 0 ? null : reasoning.join('\n\n'));
        const dropped = result.dropped.map((d) => d.text).join('\n');
        for (const s of segments) if (s.kind === 'prose') expect(result.prose.includes(s.text) || dropped.includes(s.text)).toBe(true);
        for (const marker of ALL_MARKERS) {
          expect(result.prose).not.toContain(marker);
          expect(result.reasoning ?? '').not.toContain(marker);
        }
        expect(result.protocol_violations).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on fragments of reasoning markers, quotes and call syntax', () => {
    const fragment = fc.oneof(
      fc.constantFrom(...ALL_MARKERS, '<think:', 'opensource>', '<|channel|>', '<|start|>', '<|message|>', '<|end|>', '"', "'", '{', '}', '<tool_call>', '</tool_call>', '\n'),
      fc.constantFrom(...ALL_MARKERS).chain((m) => fc.nat(m.length).map((k) => m.slice(0, k))),
      word,
      fc.constant(kimi('get_weather', { city: '</think>' })),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), fc.boolean(), fc.boolean(), (parts, started, withTools) => {
        const result = parseToolCalls(parts.join(''), { tools: withTools ? tools : null, profile: 'gateway', reasoning_started: started });
        expect(result.reasoning === null || typeof result.reasoning === 'string').toBe(true);
        expect(typeof result.prose).toBe('string');
      }),
      { numRuns: 400 },
    );
  });
});

describe('reasoning: linear work', () => {
  const reads = (text: string, started: boolean) => countStringWork(() => void gateway(text, { reasoning_started: started }));
  const shapes: Record<string, (n: number) => string> = {
    'started, many call openers before the close': (n) => `${'<|tool_call_begin|>x '.repeat(n)}</think>`,
    'started, no close at all': (n) => '<tool_call>a '.repeat(n),
    'orphan close after many declined openers': (n) => `${'<think:bad '.repeat(n)}</think>done`,
  };
  for (const [name, build] of Object.entries(shapes)) {
    for (const started of [true, false]) {
      it(`${name} (reasoning_started: ${started}): 8x the input costs at most 10x the work`, () => {
        const small = reads(build(300), started);
        const large = reads(build(2400), started);
        expect(small).toBeGreaterThan(0);
        expect(large / small).toBeLessThanOrEqual(10);
      });
    }
  }
});
