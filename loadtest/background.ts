/**
 * Small requests at a steady 50/s while 80 KB requests keep the service busy, per serving mode:
 * the pool with every body in a worker, the pool with small bodies parsed inline (the default
 * INLINE_BELOW_BYTES), and everything inline. The question: does the event loop stay free?
 */
import { table } from '../bench/harness.js';
import { load, warmUp } from './load.js';
import type { Scenario } from './scenarios.js';
import { startServer } from './server.js';

export const SERVING_MODES = {
  'piscina': { POOL: 'piscina', INLINE_BELOW_BYTES: '0' },
  'piscina+small-inline': { POOL: 'piscina' },
  'inline': { POOL: 'inline' },
} as const;

export interface BackgroundRow {
  mode: string;
  smallP50: number;
  smallP99: number;
  smallRps: number;
  bigRps: number;
  errors: number;
}

export async function underBackgroundLoad(opts: { threads: number; duration: number }, small: Scenario, big: Scenario, failures: string[], md: string[]) {
  const rows: BackgroundRow[] = [];
  for (const [mode, env] of Object.entries(SERVING_MODES)) {
    const server = await startServer({ ...env, THREADS: String(opts.threads) });
    try {
      await warmUp(server, big, 4);
      await warmUp(server, small, 2);
      const [fg, back] = await Promise.all([
        load(server, small, opts.duration, 2, { overallRate: 50 }),
        load(server, big, opts.duration, 4),
      ]);
      const errors = fg.errors + fg.timeouts + fg.non2xx + back.errors + back.timeouts + back.non2xx;
      if (errors) failures.push(`background/${mode}: ${errors} failed requests`);
      rows.push({ mode, smallP50: fg.latency.p50, smallP99: fg.latency.p99, smallRps: fg.requests.average, bigRps: back.requests.average, errors });
    } finally {
      await server.stop();
    }
  }
  md.push(`\n## Small requests (1 KB, 50/s) under background 80 KB load (4 connections), THREADS=${opts.threads}, ${opts.duration} s\n`);
  md.push(table([
    ['mode', 'small p50 ms', 'small p99 ms', 'small req/s', 'background 80 KB req/s', 'failed'],
    ...rows.map((r) => [r.mode, r.smallP50, r.smallP99, r.smallRps, r.bigRps, r.errors]),
  ]));
  return rows;
}
