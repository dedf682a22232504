/**
 * How the library's cost grows with response size, in this process: 1 KB to 1 MB in steps of
 * 4x, ms per parse, MB/s, and the log-log slope between neighbours (1 = linear).
 */
import { measure, table } from '../bench/harness.js';
import { responseOfSize, SEED_TOOLS } from '../bench/seed-shaped.js';
import { parseToolCalls } from '../src/compose/index.js';

export const GROWTH_SIZES = [1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576];

export interface GrowthRow {
  bytes: number;
  chars: number;
  ms: number;
  mbps: number;
  /** d log(ms) / d log(chars) from the previous row; null for the first. */
  slope: number | null;
}

export function growth(sizes: readonly number[], md: string[]): GrowthRow[] {
  const tools = [...SEED_TOOLS];
  const rows: GrowthRow[] = [];
  for (const bytes of sizes) {
    const text = responseOfSize(bytes, 9);
    const t = measure(() => parseToolCalls(text, { tools }), { warmup: 5, minSamples: 7, budgetMs: 400 });
    const prev = rows.at(-1);
    const slope = prev ? Math.log(t.ms / prev.ms) / Math.log(text.length / prev.chars) : null;
    rows.push({ bytes, chars: text.length, ms: t.ms, mbps: text.length / 1e6 / (t.ms / 1e3), slope });
  }
  md.push('\n## Cost by response size, library in-process (log-log; slope 1 = linear)\n');
  md.push(table([
    ['bytes', 'ms per parse (median)', 'MB/s', 'slope vs previous'],
    ...rows.map((r) => [r.bytes, r.ms, r.mbps, r.slope === null ? '-' : r.slope]),
  ]));
  return rows;
}
