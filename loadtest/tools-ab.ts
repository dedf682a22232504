/**
 * The tools-cache target as an A/B on one running pool: the gateway scenario (40 tool
 * definitions on every request) and the same response without tools, alternated in short
 * rounds so drift on the machine (other load, CPU frequency) falls on both alike. Single
 * back-to-back runs of 8 s each differed by up to 1.5x between identical runs here.
 */
import { median } from '../bench/harness.js';
import { load } from './load.js';
import type { Scenario } from './scenarios.js';
import type { RunningServer } from './server.js';

export interface ToolsAB {
  rounds: number;
  seconds: number;
  withTools: number[];
  withoutTools: number[];
  /** Median req/s without tools over median req/s with them: the cost factor of the tools. */
  factor: number;
}


export async function toolsAB(server: RunningServer, withTools: Scenario, withoutTools: Scenario, opts: { rounds: number; seconds: number; connections: number }): Promise<ToolsAB> {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    // The order flips every round, so neither side always runs first.
    const order = round % 2 === 0 ? [withTools, withoutTools] : [withoutTools, withTools];
    for (const scenario of order) {
      const r = await load(server, scenario, opts.seconds, opts.connections);
      if (r.errors || r.timeouts || r.non2xx) throw new Error(`tools A/B: ${scenario.name} had ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
      (scenario === withTools ? a : b).push(r.requests.average);
    }
  }
  return { rounds: opts.rounds, seconds: opts.seconds, withTools: a, withoutTools: b, factor: median(b) / median(a) };
}
