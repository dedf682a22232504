/**
 * CPU time of the calling thread, in seconds, where Linux exposes it.
 *
 * Node 20 has no per-thread CPU clock (`process.threadCpuUsage` arrived in Node 23.9), and wall
 * time inside a worker counts the moments the OS runs another thread instead: on a busy 2-core
 * machine that doubles a parse's apparent cost. `/proc/thread-self/schedstat` starts with the
 * thread's time on a CPU in nanoseconds; one positioned read of an open descriptor costs a few
 * microseconds. Elsewhere (no /proc) the clock falls back to wall time and says so.
 */
import { openSync, readSync } from 'node:fs';

export interface ThreadClock {
  /** Seconds on this clock; only differences mean anything. */
  now(): number;
  /** `cpu` when the clock counts only this thread's time on a CPU, `wall` otherwise. */
  readonly kind: 'cpu' | 'wall';
}

const SPACE = 0x20;

/** A clock for the calling thread; call it on the thread that will be measured. */
export function threadClock(): ThreadClock {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return { kind: 'wall', now: () => performance.now() / 1000 };
  }
  const buf = Buffer.alloc(96);
  const now = (): number => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    // "<ns on cpu> <ns waiting> <slices>\n": digits up to the first space.
    let ns = 0;
    for (let i = 0; i < n; i++) {
      const c = buf[i]!;
      if (c === SPACE) break;
      ns = ns * 10 + (c - 0x30);
    }
    return ns / 1e9;
  };
  return { kind: 'cpu', now };
}
