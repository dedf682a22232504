/**
 * Request bodies for the load scenarios, built from the seed-shaped generator, and the answer
 * each must produce: the library's own result for the same input, computed in-process, so a
 * service response is checked against the library before any number is trusted.
 */
import { parseToolCalls } from '../src/compose/index.js';
import { projectResult } from '../src/server/worker/project.js';
import { responseOfSize, SEED_TOOL_DEFS, SEED_TOOLS, seedShapedResponse } from '../bench/seed-shaped.js';

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly body: string;
  /** Characters of model text parsed per request (for MB/s). */
  readonly textChars: number;
  /** Checks one response body; returns a problem or null. */
  check(status: number, json: unknown): string | null;
  /** For one-response scenarios: the text and registry, so the library can parse them in-process. */
  readonly single?: { readonly text: string; readonly registry: unknown };
}

const tools = [...SEED_TOOLS];

/** 36 extra definitions so the gateway scenario carries 40 tools, as gateways do on every request. */
function fortyTools(): unknown[] {
  const extra = Array.from({ length: 36 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Synthetic tool number ${i} with a few typed parameters.`,
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'A path.' }, limit: { type: 'integer' }, mode: { type: 'string', enum: ['a', 'b', 'c'] } },
      required: ['path'],
    },
  }));
  return [...SEED_TOOL_DEFS, ...extra];
}

function namesOf(result: { calls: { name: string }[] }): string {
  return result.calls.map((c) => c.name).join(',');
}

/** The library's whole answer for `text`, serialised as the service serialises it. */
function libraryJson(text: string, registry: unknown): string {
  return JSON.stringify(projectResult(parseToolCalls(text, { tools: registry })));
}

/** Null when `got` (a parsed service answer) equals the library's answer; else what differs. */
function compareWithLibrary(got: unknown, expectedJson: string): string | null {
  if (JSON.stringify(got) === expectedJson) return null;
  const calls = (got as { calls?: unknown } | null)?.calls;
  if (!Array.isArray(calls)) return 'the answer has no calls array';
  const want = namesOf(JSON.parse(expectedJson) as { calls: { name: string }[] });
  const have = namesOf(got as { calls: { name: string }[] });
  return have === want
    ? 'same call names as the library, but the answer differs (arguments, ids, prose or drops)'
    : `calls differ from the library: got [${have.slice(0, 80)}], want [${want.slice(0, 80)}]`;
}

function singleCheck(text: string, registry: unknown) {
  const expected = libraryJson(text, registry);
  return (status: number, json: unknown): string | null => (status !== 200 ? `status ${status}` : compareWithLibrary(json, expected));
}

function single(name: string, description: string, text: string, registry: unknown = tools): Scenario {
  const body = registry === undefined ? JSON.stringify({ text }) : JSON.stringify({ text, tools: registry });
  return { name, description, body, textChars: text.length, check: singleCheck(text, registry), single: { text, registry } };
}

export function buildScenarios(): Scenario[] {
  const typical = responseOfSize(8_000, 1);
  const batchTexts = Array.from({ length: 32 }, (_, i) => responseOfSize(8_000, 100 + i));
  const batchExpected = batchTexts.map((t) => libraryJson(t, tools));
  const transcriptMessages = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0 ? { role: 'user', content: `Step ${i}: continue with the task.` } : { role: 'assistant', content: responseOfSize(2_000, 200 + i) },
  );
  const assistantTexts = transcriptMessages.filter((m) => m.role === 'assistant').map((m) => m.content);
  const transcriptExpected = assistantTexts.map((t) => parseToolCalls(t, { tools }).calls.length).reduce((a, b) => a + b, 0);

  return [
    single('small', 'one response of about 1 KB', responseOfSize(1_000, 3)),
    single('typical', 'one response of about 8 KB', typical),
    single('seed-80k', 'the seed-shaped 80 KB response (250 calls, ~750 drops)', seedShapedResponse()),
    {
      name: 'batch-32',
      description: 'a batch of 32 typical responses',
      body: JSON.stringify({ responses: batchTexts.map((text, i) => ({ id: `r${i}`, text })), tools }),
      textChars: batchTexts.reduce((a, t) => a + t.length, 0),
      check(status, json) {
        if (status !== 200) return `status ${status}`;
        const results = (json as { results?: { id: unknown; result?: { calls?: { name: string }[] } }[] }).results ?? [];
        if (results.length !== 32) return `expected 32 results, got ${results.length}`;
        for (let i = 0; i < results.length; i++) {
          if (results[i]!.id !== `r${i}`) return `result ${i} carries id ${JSON.stringify(results[i]!.id)}, want "r${i}"`;
          const problem = compareWithLibrary(results[i]!.result, batchExpected[i]!);
          if (problem) return `result ${i}: ${problem}`;
        }
        return null;
      },
    },
    {
      name: 'transcript-20',
      description: 'a transcript of 20 messages (10 assistant turns of about 2 KB)',
      body: JSON.stringify({ messages: transcriptMessages, tools }),
      textChars: assistantTexts.reduce((a, t) => a + t.length, 0),
      check(status, json) {
        if (status !== 200) return `status ${status}`;
        const results = (json as { results?: { index: unknown; result?: { calls?: { id: string }[] } }[] }).results ?? [];
        if (results.length !== 10) return `expected 10 assistant results, got ${results.length}`;
        // Assistant turns sit at the odd positions of the transcript.
        const misplaced = results.findIndex((r, i) => r.index !== 2 * i + 1 || !Array.isArray(r.result?.calls));
        if (misplaced !== -1) return `result ${misplaced} has index ${String(results[misplaced]!.index)} or no calls, want index ${2 * misplaced + 1}`;
        const ids = results.flatMap((r) => r.result!.calls!.map((c) => c.id));
        if (ids.length !== transcriptExpected) return `expected ${transcriptExpected} calls, got ${ids.length}`;
        return new Set(ids).size === ids.length ? null : 'call ids repeat across the transcript';
      },
    },
    single('gateway-40-tools', 'a typical response with 40 tool definitions on every request', typical, fortyTools()),
    single('typical-no-tools', 'the same typical response with no tools (baseline for the tools cache)', typical, undefined),
  ];
}

/** Responses of growing size for the crossover and growth tables. */
export function sizedScenario(bytes: number): Scenario {
  return single(`size-${bytes}`, `one response of about ${bytes} bytes`, responseOfSize(bytes, 9));
}
