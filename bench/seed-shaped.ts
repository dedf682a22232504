/**
 * A deterministic response shaped like the payload the reference's timings were
 * measured on (docs/design.md, "Pipeline"): about 80 KB of mixed prose, markdown fences and tool calls, with 250 calls
 * and about 750 fragments the parser consumes without producing a call.
 *
 * Each chunk holds one canonical call and three droppable pieces: a text run (the previous
 * chunk's closing note, a prose paragraph and a fence opener), a fenced line holding a
 * comparison (`<` inside a fence), and the fence close. Shared by `bench/` and `loadtest/`.
 */

/** A small seeded PRNG (mulberry32) so every run parses the same bytes. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'the', 'loader', 'reads', 'config', 'values', 'before', 'it', 'opens', 'each', 'module', 'so', 'we',
  'check', 'parser', 'state', 'and', 'then', 'compare', 'results', 'against', 'expected', 'output',
  'while', 'keeping', 'track', 'of', 'edge', 'cases', 'in', 'retry', 'logic', 'cache', 'entries',
];

export function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

export const SEED_TOOLS = ['look', 'edit', 'run', 'search'] as const;

/** Tool definitions (JSON Schema form) matching the calls the generator emits. */
export const SEED_TOOL_DEFS = [
  { name: 'look', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' }, line: { type: 'integer' } }, required: ['path'] } },
  { name: 'edit', description: 'Edit a file.', parameters: { type: 'object', properties: { path: { type: 'string' }, action: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'action'] } },
  { name: 'run', description: 'Run a command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
  { name: 'search', description: 'Search the repo.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
];

function call(rand: () => number, i: number): string {
  switch (i % 4) {
    case 0:
      return `look({"path": "src/module_${i}.ts", "line": ${Math.floor(rand() * 400)}})`;
    case 1:
      return `edit({"path": "src/module_${i}.ts", "action": "create", "content": "export const v${i} = ${i};\\n"})`;
    case 2:
      return `run({"command": "npm test -- --grep case_${i}"})`;
    default:
      return `search({"query": "retry logic ${i}"})`;
  }
}

/** One chunk: prose opening a fence, a fenced comparison line, the fence close, a call, a closing note. */
function chunk(rand: () => number, i: number): string {
  return (
    `${sentence(rand, 12)} ${sentence(rand, 8)}\n` +
    '```ts\n' +
    `if (a${i} < b${i}) { return load(a${i}); }\n` +
    '```\n' +
    `<tool_call>\n${call(rand, i)}\n</tool_call>\n` +
    `Note: the bound x${i} stays below y${i} for ${sentence(rand, 6)}\n\n`
  );
}

/** The seed-shaped response: `calls` chunks (default 250, about 80 KB). */
export function seedShapedResponse(calls = 250, seed = 42): string {
  const rand = prng(seed);
  let out = '';
  for (let i = 0; i < calls; i++) out += chunk(rand, i);
  return out;
}

/** A response of about `bytes` characters built from whole chunks (at least one). */
export function responseOfSize(bytes: number, seed = 42): string {
  const perChunk = seedShapedResponse(4, seed).length / 4;
  return seedShapedResponse(Math.max(1, Math.round(bytes / perChunk)), seed);
}

/** A JSON document of about `bytes` characters (records of strings and numbers), for the JSON.parse baseline. */
export function jsonDocumentOfSize(bytes: number, seed = 7): string {
  const rand = prng(seed);
  const items: unknown[] = [];
  let size = 2;
  while (size < bytes) {
    const item = { id: items.length, name: sentence(rand, 4), path: `src/module_${items.length}.ts`, score: Math.round(rand() * 1e6) / 1e3, tags: ['a', 'b'] };
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return JSON.stringify(items);
}
