/**
 * A drop-heavy response for `npm run bench`: about 82 KB of agent text where most of what the
 * parser consumes is not a call: prose with inline tags (`<path>…</path>`, `<b>…</b>`), example
 * fences holding code with comparisons and call-like expressions, and a few real calls. Every
 * fragment lands on the drop ledger, so the tool-shape findings run over a large ledger.
 * Deterministic; shares the seed-shaped generator's PRNG and word list.
 */
import { prng, sentence } from './seed-shaped.js';

function chunk(rand: () => number, i: number): string {
  const call = i % 5 === 0 ? `<tool_call>\nlook({"path": "src/module_${i}.ts"})\n</tool_call>\n` : '';
  return (
    `${sentence(rand, 18)} ${sentence(rand, 14)} See <path>src/module_${i}.ts</path> for ${sentence(rand, 10)}\n` +
    '```ts\n' +
    `if (a${i} < b${i}) { load(a${i}, {"path": "x${i}"}); }\n` +
    '```\n' +
    call +
    `${sentence(rand, 12)}\n\n`
  );
}

/** The drop-heavy response: whole chunks up to about `bytes` characters (default 82 KB). */
export function dropHeavyResponse(bytes = 82_000, seed = 11): string {
  const rand = prng(seed);
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += chunk(rand, i);
  return out;
}
