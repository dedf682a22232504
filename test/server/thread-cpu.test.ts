/** The per-thread CPU clock behind tool_parse_worker_parse_seconds. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { threadClock } from '../../src/server/worker/thread-cpu.js';

describe('threadClock', () => {
  it('counts CPU time only where /proc exposes it, wall time elsewhere', () => {
    expect(threadClock().kind).toBe(existsSync('/proc/thread-self/schedstat') ? 'cpu' : 'wall');
  });

  it.runIf(existsSync('/proc/thread-self/schedstat'))('does not advance while the thread sleeps, and advances while it works', () => {
    const clock = threadClock();
    const beforeSleep = clock.now();
    // Blocks this thread for 200 ms without using a CPU.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    const slept = clock.now() - beforeSleep;
    expect(slept).toBeGreaterThanOrEqual(0);
    expect(slept).toBeLessThan(0.1);

    const beforeWork = clock.now();
    let acc = 0;
    for (let i = 0; i < 5e6; i++) acc = (acc + i * 7) % 1_000_003;
    expect(acc).toBeGreaterThanOrEqual(0);
    expect(clock.now() - beforeWork).toBeGreaterThan(0);
  });
});
