/**
 * CPU profile summary of one bench row: `node --import tsx bench/profile.ts "<row name>" [ms]`
 * runs the row's parse in a loop under the V8 profiler for `ms` milliseconds (default 3000) and
 * prints the functions with the most self time, as shares of the profile.
 */
import { Session } from 'node:inspector/promises';
import { benchRows } from './rows.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export async function profileSummary(run: () => unknown, ms: number, top = 12): Promise<{ fn: string; share: number }[]> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  for (let i = 0; i < 50; i++) run();
  await session.post('Profiler.start');
  const until = performance.now() + ms;
  while (performance.now() < until) run();
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
  session.disconnect();
  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const file = node.callFrame.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/');
    const key = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + hits);
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, hits]) => ({ fn, share: hits / total }));
}

if (process.argv[1]?.endsWith('profile.ts')) {
  const wanted = process.argv[2] ?? '';
  const ms = Number(process.argv[3] ?? 3000);
  for (const row of benchRows().filter((r) => r.name.includes(wanted))) {
    console.log(`\n## ${row.name}\n`);
    for (const { fn, share } of await profileSummary(row.run, ms)) console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${fn}`);
  }
}
