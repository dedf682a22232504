/**
 * In-process A/B of two checkouts of tool-parse on the same inputs: `parseToolCalls` of each,
 * loaded side by side in one process, timed in alternating rounds (the order flips every
 * round), so machine load drifts onto both alike. Prints the median per parse of each and
 * their ratio.
 *
 *   git worktree add --detach /tmp/a <commit>; ln -s "$PWD/node_modules" /tmp/a/node_modules
 *   npx tsx bench/ab.ts /tmp/a /tmp/b [name filter]
 *
 * The inputs are the bench's own: seed-shaped at 80 KB, 8 KB and 1 KB and drop-heavy (with the
 * seed tools, options every checkout understands, so old commits compare too), and the rows of
 * `npm run bench` (`row: …`, with their own options).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dropHeavyResponse } from './drop-heavy.js';
import { responseOfSize, SEED_TOOLS, seedShapedResponse } from './seed-shaped.js';
import { benchRows } from './rows.js';

type Parse = (text: string, options: unknown) => { calls: unknown[] };

const ROUNDS = 31;
/** Characters parsed per timed batch: long enough to dwarf the timer, short enough to alternate often. */
const BATCH_CHARS = 6_000_000;

async function load(dir: string): Promise<Parse> {
  const module = (await import(pathToFileURL(resolve(dir, 'src/index.ts')).href)) as { parseToolCalls: Parse };
  return module.parseToolCalls;
}

function perParse(parse: Parse, text: string, options: unknown, n: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) parse(text, options);
  return Number(process.hrtime.bigint() - start) / n;
}

function median(values: readonly number[]): number {
  return [...values].sort((p, q) => p - q)[values.length >> 1]!;
}

async function main(): Promise<void> {
  const [dirA, dirB, filter = ''] = process.argv.slice(2);
  if (dirA === undefined || dirB === undefined) throw new Error('usage: npx tsx bench/ab.ts <checkout A> <checkout B> [name filter]');
  const a = await load(dirA);
  const b = await load(dirB);
  const seedOptions = { tools: [...SEED_TOOLS] };
  const inputs: [string, string, unknown][] = [
    ['80 KB seed-shaped', seedShapedResponse(), seedOptions],
    ['8 KB seed-shaped', responseOfSize(8_000), seedOptions],
    ['1 KB seed-shaped', responseOfSize(1_000), seedOptions],
    ['82 KB drop-heavy', dropHeavyResponse(), seedOptions],
    // The bench's rows (field grammars, families, reasoning), named as `npm run bench` names them.
    ...benchRows().map((r): [string, string, unknown] => [`row: ${r.name}`, r.text, r.options]),
  ];
  for (const [name, text, options] of inputs.filter(([n]) => n.includes(filter))) {
    const same = JSON.stringify(a(text, options).calls) === JSON.stringify(b(text, options).calls);
    const n = Math.max(5, Math.round(BATCH_CHARS / text.length));
    for (let warm = 0; warm < 3; warm++) {
      perParse(a, text, options, n);
      perParse(b, text, options, n);
    }
    const ta: number[] = [];
    const tb: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        ta.push(perParse(a, text, options, n));
        tb.push(perParse(b, text, options, n));
      } else {
        tb.push(perParse(b, text, options, n));
        ta.push(perParse(a, text, options, n));
      }
    }
    const [ma, mb] = [median(ta), median(tb)];
    console.log(`${name}: A ${(ma / 1000).toFixed(1)} µs, B ${(mb / 1000).toFixed(1)} µs, B/A ${(mb / ma).toFixed(3)}${same ? '' : ' (the calls differ)'}`);
  }
}

await main();
