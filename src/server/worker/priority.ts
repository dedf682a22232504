/**
 * Lowers the calling thread's scheduling priority. The HTTP thread is the latency-critical one:
 * it answers health probes, takes in bodies and sheds load. Parse workers are throughput work, so
 * they take a higher niceness and the kernel lets the HTTP thread run first when the CPUs are
 * busy (docs/performance.md, "Overload"). Niceness is relative within the cgroup, so in a
 * container it orders the service's own threads and nothing else.
 *
 * Linux only (a thread id is a valid target for setpriority there); elsewhere, or when the call
 * is refused, the thread keeps its priority and the answer says so.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Raises this thread's niceness to `nice` (never lowers it). True when the thread now has at least `nice`. */
export function lowerThreadPriority(nice: number): boolean {
  if (nice <= 0) return true;
  if (process.platform !== 'linux') return false;
  try {
    // /proc/thread-self is a link to /proc/<pid>/task/<tid>.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(tid) || tid <= 0) return false;
    if (getPriority(tid) < nice) setPriority(tid, nice);
    return getPriority(tid) >= nice;
  } catch {
    return false;
  }
}
