/**
 * `npm run bench`: scan and full-parse speed on the seed-shaped response, as ratios to
 * `JSON.parse` of an equal-size JSON document measured in the same run, plus the 8x growth on
 * adversarial inputs and heap growth per parse. Prints markdown tables; writes
 * bench/results.json when `--json` is given. Run with `--expose-gc` for the heap figure.
 */
import { writeFileSync } from 'node:fs';
import { buildScanSpec } from '../src/dialects/index.js';
import { scanUnits } from '../src/scan/index.js';
import { parseToolCalls } from '../src/compose/index.js';
import { ADVERSARIAL } from './adversarial.js';
import { cpuMs, measure, mbPerSecond, table } from './harness.js';
import { GATEWAY_TOOLS, hermesResponse } from './gateway-hermes.js';
import { jsonDocumentOfSize, SEED_TOOL_DEFS, SEED_TOOLS, seedShapedResponse } from './seed-shaped.js';
import { MIXED_TOOLS, mixedGrammarResponse } from './mixed-grammar.js';

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

// Every field grammar in one response (gateway profile), as a ratio to JSON.parse of the same size.
const mixed = mixedGrammarResponse();
const mixedJson = jsonDocumentOfSize(mixed.text.length);
const mixedProbe = parseToolCalls(mixed.text, { tools: MIXED_TOOLS });
const mixedJsonT = measure(() => JSON.parse(mixedJson));
const mixedT = measure(() => parseToolCalls(mixed.text, { tools: MIXED_TOOLS }));

const heap = heapGrowthPerParse(() => parseToolCalls(text, { tools }), 200);
const results: Record<string, unknown> = {};

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
console.log(`\n## Mixed grammars (${(mixed.text.length / 1000).toFixed(1)} KB, every field grammar in turn, gateway profile)\n`);
console.log(table([
  ['what', 'ms/op', 'MB/s', 'calls', 'ratio to JSON.parse'],
  ['JSON.parse (equal size)', mixedJsonT.ms, mbPerSecond(mixedJson.length, mixedJsonT.ms), '-', 1],
  ['parseToolCalls', mixedT.ms, mbPerSecond(mixed.text.length, mixedT.ms), `${mixedProbe.calls.length} of ${mixed.calls}`, mixedT.ms / mixedJsonT.ms],
]));
results['mixed grammars'] = { ms: mixedT.ms, ratioToJsonParse: mixedT.ms / mixedJsonT.ms, calls: mixedProbe.calls.length, rendered: mixed.calls };
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

if (process.argv.includes('--json')) {
  writeFileSync(new URL('./results.json', import.meta.url), JSON.stringify({
    node: process.version, bytes: text.length, units,
    jsonParseMs: jsonT.ms, scanMs: scanT.ms, parseMs: parseT.ms,
    scanRatio: scanT.ms / jsonT.ms, parseRatio: parseT.ms / jsonT.ms, heapGrowthPerParse: heap, adversarial: results,
  }, null, 2));
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
