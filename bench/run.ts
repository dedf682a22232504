/**
 * `npm run bench`: the rows of bench/rows.ts (sizes, grammars, reasoning, one response per
 * reader family) as ratios to `JSON.parse` of an equal-size JSON document measured in the same
 * interleaved rounds, with bytes allocated per input byte, the closest TypeScript peer side by
 * side where it reads the row, and a streamed-versus-one-shot row; then scan speed, validation,
 * reasoning against prose and the 8x growth on adversarial inputs. Prints markdown tables;
 * writes bench/results.json when `--json` is given; `--rows` stops after the rows, and
 * `--only <text>` keeps the rows whose name holds the text. Run with
 * `--expose-gc` (the npm script does) for the allocation figures.
 */
import { writeFileSync } from 'node:fs';
import { lib, LIBRARY_FROM } from './library.js';
import { ADVERSARIAL } from './adversarial.js';
import { allocatedPerCall, cpuMs, interleaved, measure, mbPerSecond, median, table } from './harness.js';
import { peerParser } from './peer.js';
import { benchRows, checkRow } from './rows.js';
import { GATEWAY_TOOLS, hermesResponse } from './gateway-hermes.js';
import { jsonDocumentOfSize, SEED_TOOL_DEFS, SEED_TOOLS, seedShapedResponse } from './seed-shaped.js';

const { buildScanSpec, createStreamParser, parseToolCalls, scanUnits } = lib;
console.log(`library: ${LIBRARY_FROM}\n`);
const results: Record<string, unknown> = {};
const rowResults = rowsTable();
results.rows = rowResults;
if (process.argv.includes('--rows')) {
  writeResults({ rows: rowResults });
  process.exit(0);
}

const text = seedShapedResponse();
const json = jsonDocumentOfSize(text.length);
const spec = buildScanSpec([...SEED_TOOLS]);
const tools = [...SEED_TOOLS];

const probe = parseToolCalls(text, { tools });
const units = scanUnits(text, spec).units.length;
console.log(`seed-shaped response: ${(text.length / 1024).toFixed(1)} KiB, ${units} units, ${probe.calls.length} calls, ${probe.dropped.length} dropped fragments`);
if (probe.calls.length !== 250) throw new Error(`bench payload parsed to ${probe.calls.length} calls, expected 250: fix the parser or the generator before trusting numbers`);

const jsonT = measure(() => JSON.parse(json));
const scanT = measure(() => scanUnits(text, spec));
const parseT = measure(() => parseToolCalls(text, { tools }));

// Validation on and off, with the schema-carrying definitions (names alone give nothing to check).
const defs = [...SEED_TOOL_DEFS];
const seedValidated = measure(() => parseToolCalls(text, { tools: defs, validate: 'report' }));
const seedUnvalidated = measure(() => parseToolCalls(text, { tools: defs, validate: 'off' }));

const hermes = hermesResponse();
const hermesProbe = parseToolCalls(hermes, { tools: GATEWAY_TOOLS });
if (hermesProbe.calls.length !== 3 || hermesProbe.protocol_violations.length !== 0) throw new Error('the gateway bench payload must parse to 3 valid calls');
const hermesOn = measure(() => parseToolCalls(hermes, { tools: GATEWAY_TOOLS }));
const hermesOff = measure(() => parseToolCalls(hermes, { tools: GATEWAY_TOOLS, validate: 'off' }));


const heap = heapGrowthPerParse(() => parseToolCalls(text, { tools }), 200);

console.log('\n## Seed-shaped response (' + (text.length / 1000).toFixed(1) + ' KB)\n');
console.log(table([
  ['what', 'ms/op', 'MB/s', 'µs/unit', 'ratio to JSON.parse'],
  ['JSON.parse (equal size)', jsonT.ms, mbPerSecond(json.length, jsonT.ms), '-', 1],
  ['scanUnits', scanT.ms, mbPerSecond(text.length, scanT.ms), (scanT.ms * 1000) / units, scanT.ms / jsonT.ms],
  ['parseToolCalls', parseT.ms, mbPerSecond(text.length, parseT.ms), (parseT.ms * 1000) / units, parseT.ms / jsonT.ms],
]));
console.log('\n## Argument validation (gateway profile)\n');
console.log(table([
  ['case', 'validate', 'µs/op'],
  [`seed-shaped ${(text.length / 1000).toFixed(1)} KB, ${probe.calls.length} calls, schema definitions`, 'report', seedValidated.ms * 1000],
  ['', 'off', seedUnvalidated.ms * 1000],
  ['2 KB, 3 Hermes calls, 8 OpenAI tools (same array each time; target 10 µs)', 'report', hermesOn.ms * 1000],
  ['', 'off', hermesOff.ms * 1000],
]));
console.log(`\nheap growth per parse (after GC, 200 parses): ${heap === null ? 'run with --expose-gc' : `${heap.toFixed(0)} bytes`}`);

// Reasoning (gateway profile): a 200 KB reasoning block costs no more than 200 KB of prose.
const thought = 'The user wants the weather in Paris, so I should call the weather tool with the city.\n';
const body = thought.repeat(Math.ceil(200_000 / thought.length)).slice(0, 200_000);
const reasoningCases: [string, string, object][] = [
  ['200 KB of prose', body, {}],
  ['200 KB <think> block, then an answer', `<think>${body}</think>It is sunny.`, {}],
  ['200 KB orphan-close reasoning (the prompt opened it)', `${body}</think>It is sunny.`, {}],
  ['200 KB reasoning_started, cut off', body, { reasoning_started: true }],
];
let proseMs = 0;
const reasoningRows: (string | number)[][] = [['gateway input', 'ms/op', 'MB/s', 'ratio to 200 KB of prose']];
for (const [name, input, options] of reasoningCases) {
  const probeResult = parseToolCalls(input, { tools, profile: 'gateway', ...options });
  if (name !== '200 KB of prose' && probeResult.reasoning?.length !== body.trim().length) throw new Error(`bench: ${name} did not read as reasoning`);
  const ms = cpuMs(() => parseToolCalls(input, { tools, profile: 'gateway', ...options }), { reps: 8 });
  if (proseMs === 0) proseMs = ms; // the first row, prose, is the baseline
  reasoningRows.push([name, ms, mbPerSecond(input.length, ms), ms / proseMs]);
  results[`reasoning: ${name}`] = { ms, ratioToProse: ms / proseMs };
}
console.log('\n## Reasoning, gateway profile (CPU time, best of 5 after GC; target: a reasoning block costs no more than prose)\n');
console.log(table(reasoningRows));

const growth: (string | number)[][] = [['adversarial input', 'n', 'scan 8n/n', 'parse 8n/n']];
for (const [name, build] of Object.entries(ADVERSARIAL)) {
  const n = 4000;
  const small = build(n);
  const large = build(8 * n);
  const s1 = cpuMs(() => scanUnits(small, spec), { reps: 8 });
  const s8 = cpuMs(() => scanUnits(large, spec));
  const p1 = cpuMs(() => parseToolCalls(small, { tools }), { reps: 8 });
  const p8 = cpuMs(() => parseToolCalls(large, { tools }));
  growth.push([name, n, s8 / s1, p8 / p1]);
  results[name] = { scan8x: s8 / s1, parse8x: p8 / p1 };
}
console.log('\n## Growth on adversarial input (CPU time, best of 5 after GC; target: 8x input costs at most 12x)\n');
console.log(table(growth));

writeResults({
  bytes: text.length, units,
  jsonParseMs: jsonT.ms, scanMs: scanT.ms, parseMs: parseT.ms,
  scanRatio: scanT.ms / jsonT.ms, parseRatio: parseT.ms / jsonT.ms, heapGrowthPerParse: heap, adversarial: results,
});

function writeResults(figures: Record<string, unknown>): void {
  if (!process.argv.includes('--json')) return;
  writeFileSync(new URL('./results.json', import.meta.url), JSON.stringify({ node: process.version, ...figures }, null, 2));
}

interface RowFigures {
  row: string;
  bytes: number;
  jsonParseUs: number;
  toolParseUs: number;
  ratioToJsonParse: number;
  goal: number;
  meetsGoal: boolean;
  allocatedBytesPerInputByte: number | null;
  peerUs?: number;
  peerRatioToJsonParse?: number;
  /** The peer's time over tool-parse's (goal: at least 3). */
  timesFasterThanPeer?: number;
  /** The stream row: streamed time over one-shot time. */
  streamedOverOneShot?: number;
}

/**
 * Every row of bench/rows.ts: JSON.parse of an equal-size JSON document, tool-parse and (where
 * it reads the row) the peer, in interleaved rounds; the ratios are medians over the rounds.
 */
function rowsTable(): RowFigures[] {
  const out: RowFigures[] = [];
  const printed: (string | number)[][] = [['row', 'KB', 'JSON.parse µs', 'tool-parse µs', 'ratio', 'goal', 'B alloc / B in', 'peer µs', 'peer ratio', 'x faster than peer']];
  const only = process.argv.indexOf('--only');
  const wanted = only > 0 ? process.argv[only + 1] ?? '' : '';
  for (const r of benchRows().filter((row) => row.name.includes(wanted))) {
    checkRow(r);
    const doc = jsonDocumentOfSize(r.text.length);
    const fns: (() => unknown)[] = [() => JSON.parse(doc), r.run];
    if (r.peer !== undefined) {
      const peer = peerParser(r.peer, r.options.tools);
      const found = peer(r.text);
      if (found !== r.calls) throw new Error(`bench row "${r.name}": the peer found ${found} calls, expected ${r.calls}`);
      fns.push(() => peer(r.text));
    }
    const rounds = interleaved(fns);
    const ratio = median(rounds.map(([j, t]) => t! / j!));
    const jsonUs = median(rounds.map((x) => x[0]!)) * 1000;
    const toolUs = median(rounds.map((x) => x[1]!)) * 1000;
    const alloc = allocatedPerCall(r.run, Math.max(20, Math.ceil(4_000_000 / r.text.length)));
    const figures: RowFigures = {
      row: r.name, bytes: r.text.length, jsonParseUs: jsonUs, toolParseUs: toolUs, ratioToJsonParse: ratio, goal: r.goal, meetsGoal: ratio <= r.goal,
      allocatedBytesPerInputByte: alloc === null ? null : alloc / r.text.length,
    };
    if (r.peer !== undefined) {
      figures.peerUs = median(rounds.map((x) => x[2]!)) * 1000;
      figures.peerRatioToJsonParse = median(rounds.map(([j, , p]) => p! / j!));
      figures.timesFasterThanPeer = median(rounds.map(([, t, p]) => p! / t!));
    }
    out.push(figures);
    printed.push([
      r.name, r.text.length / 1000, jsonUs, toolUs, ratio, `≤ ${r.goal}${figures.meetsGoal ? '' : ' (missed)'}`,
      figures.allocatedBytesPerInputByte ?? 'needs --expose-gc',
      figures.peerUs ?? '-', figures.peerRatioToJsonParse ?? '-', figures.timesFasterThanPeer ?? '-',
    ]);
  }
  console.log('## Rows: ratios to JSON.parse of an equal-size JSON document (CPU time, medians of 5 interleaved rounds)\n');
  console.log(table(printed));
  const byName = new Map(out.map((f) => [f.row, f]));
  const gateway = byName.get('80 KB seed-shaped, 250 calls (gateway)');
  const harn = byName.get('80 KB seed-shaped, 250 calls (harn)');
  if (gateway && harn) console.log(`\ngateway / harn on the seed-shaped response: ${(gateway.ratioToJsonParse / harn.ratioToJsonParse).toFixed(2)} (limit 1.1)`);
  if (wanted === '' || wanted === 'stream') out.push(streamRow());
  return out;
}

/** The seed-shaped response pushed in 4-character chunks through createStreamParser, against one parse. */
function streamRow(): RowFigures {
  const seed = seedShapedResponse();
  const options = { tools: [...SEED_TOOLS] };
  const chunks: string[] = [];
  for (let i = 0; i < seed.length; i += 4) chunks.push(seed.slice(i, i + 4));
  const streamed = (): unknown => {
    const parser = createStreamParser(options);
    for (const chunk of chunks) parser.push(chunk);
    return parser.end();
  };
  const oneShot = (): unknown => parseToolCalls(seed, options);
  const rounds = interleaved([oneShot, streamed]);
  const ratio = median(rounds.map(([o, s]) => s! / o!));
  const alloc = allocatedPerCall(streamed, 30);
  console.log(`\nstreamed in 4-character chunks / one-shot, seed-shaped ${(seed.length / 1000).toFixed(1)} KB: ${ratio.toFixed(2)} (${(median(rounds.map((x) => x[1]!)) * 1000).toFixed(0)} µs against ${(median(rounds.map((x) => x[0]!)) * 1000).toFixed(0)} µs); ${alloc === null ? '' : `${(alloc / seed.length).toFixed(1)} bytes allocated per input byte`}`);
  return {
    row: 'stream: seed-shaped in 4-character chunks / one-shot', bytes: seed.length, jsonParseUs: Number.NaN, toolParseUs: median(rounds.map((x) => x[1]!)) * 1000,
    ratioToJsonParse: Number.NaN, goal: Number.NaN, meetsGoal: true, allocatedBytesPerInputByte: alloc === null ? null : alloc / seed.length, streamedOverOneShot: ratio,
  };
}

function heapGrowthPerParse(fn: () => unknown, runs: number): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  for (let i = 0; i < 20; i++) fn();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < runs; i++) fn();
  gc();
  return (process.memoryUsage().heapUsed - before) / runs;
}
