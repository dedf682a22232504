/**
 * CPU profile summary of bench rows: `node --import tsx bench/profile.ts "<part of a row name>"
 * [ms] [--total] [--markdown]` runs each matching row's parse in a loop under the V8 profiler
 * for `ms` milliseconds (default 3000) and prints the functions with the most self time, with
 * their inclusive share, as shares of the profile; `--total` adds the list by inclusive share,
 * `--markdown` prints one table line per row (the top five, as docs/performance.md shows them).
 */
import { Session } from 'node:inspector/promises';
import { benchRows } from './rows.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface ProfileLine {
  readonly fn: string;
  /** Share of the samples in the function itself. */
  readonly share: number;
  /** Share of the samples in the function and what it called (recursion counted once). */
  readonly total: number;
}

function keyOf(node: ProfileNode): string {
  const file = node.callFrame.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/').replace(/^file:\/\/.*\//, '');
  return `${node.callFrame.functionName || '(anonymous)'} ${file}`;
}

/** Self and inclusive samples per function over the profile's call tree. */
function tally(nodes: readonly ProfileNode[]): { self: Map<string, number>; inclusive: Map<string, number>; total: number } {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  const subtree = new Map<number, number>();
  const sizeOf = (node: ProfileNode): number => {
    let hits = node.hitCount ?? 0;
    for (const child of node.children ?? []) hits += sizeOf(byId.get(child)!);
    subtree.set(node.id, hits);
    return hits;
  };
  const childIds = new Set(nodes.flatMap((n) => n.children ?? []));
  for (const root of nodes.filter((n) => !childIds.has(n.id))) total += sizeOf(root);
  const walk = (node: ProfileNode, open: ReadonlySet<string>): void => {
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + (node.hitCount ?? 0));
    if (!open.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + subtree.get(node.id)!);
    const inner = open.has(key) ? open : new Set([...open, key]);
    for (const child of node.children ?? []) walk(byId.get(child)!, inner);
  };
  for (const root of nodes.filter((n) => !childIds.has(n.id))) walk(root, new Set());
  return { self, inclusive, total };
}

export async function profileSummary(run: () => unknown, ms: number, top = 14): Promise<{ bySelf: ProfileLine[]; byTotal: ProfileLine[] }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  // Warm-up (as bench/harness.ts does): the JIT's first passes are not the profile of a warm parser.
  const warm = performance.now();
  for (let i = 0; i < 100 || performance.now() - warm < 1000; i++) run();
  await session.post('Profiler.start');
  const until = performance.now() + ms;
  while (performance.now() < until) run();
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
  session.disconnect();
  const { self, inclusive, total } = tally(profile.nodes);
  const line = (fn: string): ProfileLine => ({ fn, share: (self.get(fn) ?? 0) / total, total: (inclusive.get(fn) ?? 0) / total });
  const bySelf = [...self.keys()].map(line).sort((a, b) => b.share - a.share).slice(0, top);
  const byTotal = [...inclusive.keys()].filter((fn) => fn.includes('src/')).map(line).sort((a, b) => b.total - a.total).slice(0, top * 2);
  return { bySelf, byTotal };
}

if (process.argv[1]?.endsWith('profile.ts')) {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const wanted = args[0] ?? '';
  const ms = Number(args[1] ?? 3000) || 3000;
  const markdown = process.argv.includes('--markdown');
  if (markdown) console.log('| row | top functions by self time (share of the profile) |\n| --- | --- |');
  for (const row of benchRows().filter((r) => r.name.includes(wanted))) {
    const { bySelf, byTotal } = await profileSummary(row.run, ms);
    if (markdown) {
      const top = bySelf.filter((l) => l.fn.includes('src/')).slice(0, 5).map((l) => `${l.fn.split(' ')[0]} ${(l.share * 100).toFixed(0)} %`);
      const gc = bySelf.find((l) => l.fn.startsWith('(garbage collector)'));
      console.log(`| ${row.name} | ${top.join(', ')}${gc ? `; GC ${(gc.share * 100).toFixed(0)} %` : ''} |`);
      continue;
    }
    console.log(`\n## ${row.name}\n`);
    console.log('self   total');
    for (const { fn, share, total } of bySelf) console.log(`${(share * 100).toFixed(1).padStart(5)}% ${(total * 100).toFixed(1).padStart(5)}%  ${fn}`);
    if (process.argv.includes('--total')) {
      console.log('\nby total');
      for (const { fn, share, total } of byTotal) console.log(`${(share * 100).toFixed(1).padStart(5)}% ${(total * 100).toFixed(1).padStart(5)}%  ${fn}`);
    }
  }
}
