/**
 * Pins processes (all their threads) to one CPU for a measurement, and puts them back. On this
 * 2-vCPU machine one vCPU is at times about 1.7x slower than the other (the same loop measured
 * 0.14 and 0.25 ms depending on where it ran), so two figures taken on different CPUs compare the
 * CPUs, not the code. Uses util-linux `taskset`; where it is missing, nothing is pinned and the
 * caller says so.
 */
import { execFileSync } from 'node:child_process';

function affinityList(pid: number): string {
  const out = execFileSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const list = out.slice(out.lastIndexOf(':') + 1).trim();
  if (!/^[\d,-]+$/.test(list)) throw new Error(`unexpected taskset output: ${out.trim()}`);
  return list;
}

function setAffinity(pid: number, list: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
}

/** Pins every thread of `pids` to `cpu`; returns the undo, or null when pinning is not possible. */
export function pinTo(cpu: number, pids: number[]): (() => void) | null {
  const pinned: [number, string][] = [];
  try {
    for (const pid of pids) {
      const before = affinityList(pid);
      setAffinity(pid, String(cpu));
      pinned.push([pid, before]);
    }
  } catch {
    for (const [pid, list] of pinned) setAffinity(pid, list);
    return null;
  }
  return () => {
    for (const [pid, list] of pinned) {
      try {
        setAffinity(pid, list);
      } catch {
        // The process may have exited already.
      }
    }
  };
}
