/**
 * The rows of `npm run bench` (issue 17's goals): each a response, the options it is parsed
 * with, what it must parse to (checked before any figure is kept), and where the closest
 * TypeScript peer (`@ai-sdk-tool/parser`) reads the same bytes, the peer protocol that does.
 */
import { GRAMMARS } from '../conformance/field/grammars.js';
import { FIELD_GRAMMARS } from '../src/dialects/field/index.js';
import type { ParseOptions } from '../src/compose/index.js';
import { lib } from './library.js';
import { dropHeavyResponse } from './drop-heavy.js';
import { GATEWAY_TOOLS, hermesResponse } from './gateway-hermes.js';
import { MIXED_TOOLS, mixedGrammarResponse } from './mixed-grammar.js';
import { SEED_TOOLS, seedShapedResponse } from './seed-shaped.js';

/** The peer's protocols the bench drives (its Hermes and Qwen3-Coder parsers). */
export type PeerProtocol = 'hermes' | 'qwen3-coder';

export interface BenchRow {
  readonly name: string;
  readonly text: string;
  readonly options: ParseOptions;
  /** The calls the parse must return (the row is refused otherwise). */
  readonly calls: number;
  /** The peer protocol that reads this row, and the tools in its form. */
  readonly peer?: PeerProtocol;
  /** Goal: at most this many times `JSON.parse` of the same bytes. */
  readonly goal: number;
  readonly run: () => unknown;
}

/** One reader family's grammars of the conformance catalogue, by the family its record names. */
function familyGrammars(family: string): string[] {
  const byId = new Map(FIELD_GRAMMARS.map((g) => [g.id, g.family]));
  return GRAMMARS.filter((g) => (family === 'look-alike' ? g.family === 'look-alike' : byId.get(g.grammar) === family)).map((g) => g.grammar);
}

/** Hermes calls (`<tool_call>{"name", "arguments"}</tool_call>`) between prose, about `bytes` long. */
export function hermesCalls(bytes: number, render: (i: number) => string): { text: string; calls: number } {
  let text = '';
  let calls = 0;
  for (let i = 0; text.length < bytes; i++, calls++) text += `I will read the next file and compare it with the notes (${i}).\n${render(i)}\n`;
  return { text, calls };
}

const hermesCall = (i: number): string => `<tool_call>\n{"name": "look", "arguments": {"path": "src/file_${i}.ts"}}\n</tool_call>`;
const qwenCall = (i: number): string => `<tool_call>\n<function=look>\n<parameter=path>\nsrc/file_${i}.ts\n</parameter>\n</function>\n</tool_call>`;

/** Reasoning blocks of every reasoning grammar with a close, each followed by a Hermes call. */
function reasoningFamily(bytes: number): { text: string; calls: number } {
  const blocks = FIELD_GRAMMARS.flatMap((g) => (g.family === 'reasoning' && g.role === 'reasoning' && g.close.length > 0 && g.open.length > 0 && g.open[0]!.startsWith('<') ? [[g.open[0]!, g.close[0]!] as const] : []));
  return hermesCalls(bytes, (i) => {
    const [open, close] = blocks[i % blocks.length]!;
    return `${open}The user wants file ${i}; I should read it first.${close}\n${hermesCall(i)}`;
  });
}

function row(name: string, text: string, options: ParseOptions, calls: number, goal: number, peer?: PeerProtocol): BenchRow {
  return { name, text, options, calls, goal, ...(peer ? { peer } : {}), run: () => lib.parseToolCalls(text, options) };
}

export function benchRows(): BenchRow[] {
  const seed = seedShapedResponse();
  const tools = [...SEED_TOOLS];
  const hermes80 = hermesCalls(80_000, hermesCall);
  const qwen80 = hermesCalls(80_000, qwenCall);
  const mixed = mixedGrammarResponse();
  const thought = 'The user wants the weather in Paris, so I should call the weather tool with the city.\n';
  const reasoning = `<think>${thought.repeat(Math.ceil(200_000 / thought.length)).slice(0, 200_000)}</think>It is sunny.`;
  const rows = [
    row('2 KB, 3 Hermes calls, raw registry of 8 OpenAI tools, validate on', hermesResponse(), { tools: GATEWAY_TOOLS }, 3, 6, 'hermes'),
    row('80 KB seed-shaped, 250 calls (gateway)', seed, { tools }, 250, 8),
    row('80 KB seed-shaped, 250 calls (harn)', seed, { tools, profile: 'harn' }, 250, 8),
    row('80 KB Hermes, 250+ calls', hermes80.text, { tools: MIXED_TOOLS }, hermes80.calls, 8, 'hermes'),
    row('82 KB drop-heavy (~800 dropped fragments)', dropHeavyResponse(), { tools: ['look'] }, 38, 8),
    row('80 KB mixed grammars (every field grammar)', mixed.text, { tools: MIXED_TOOLS }, mixed.calls, 8),
    row('200 KB reasoning block', reasoning, { tools }, 0, 8),
  ];
  for (const family of ['token-section', 'call-objects', 'param-markup', 'value-grammar', 'harmony', 'look-alike']) {
    const r = mixedGrammarResponse(80_000, familyGrammars(family));
    rows.push(row(`80 KB family: ${family}`, r.text, { tools: MIXED_TOOLS }, r.calls, 8));
  }
  rows.push(row('80 KB family: param-markup, Qwen3-Coder only', qwen80.text, { tools: MIXED_TOOLS }, qwen80.calls, 8, 'qwen3-coder'));
  const thinking = reasoningFamily(80_000);
  rows.push(row('80 KB family: reasoning (blocks, each before a call)', thinking.text, { tools: MIXED_TOOLS }, thinking.calls, 8));
  return rows;
}

/** Refuses a row whose parse does not return its calls (figures for a wrong parse are worthless). */
export function checkRow(r: BenchRow): void {
  const result = lib.parseToolCalls(r.text, r.options);
  if (result.calls.length !== r.calls) throw new Error(`bench row "${r.name}" parsed to ${result.calls.length} calls, expected ${r.calls}`);
}
