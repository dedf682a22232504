/**
 * How many CPUs this process may really use.
 *
 * On Node 20 (libuv 1.46) `os.availableParallelism()` ignores the cgroup CPU quota, so a pod
 * limited to 2 CPUs on a 64-core node would start 64 workers. The quota is read from the
 * cgroup files once at start (v2 `cpu.max`, then v1 `cpu.cfs_quota_us`/`cpu.cfs_period_us`)
 * and caps the host's parallelism.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export type ReadText = (path: string) => string | null;

const readIfPresent: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** The CPU quota in CPUs (fractional), or null when none is set or it cannot be read. */
export function cgroupCpuQuota(read: ReadText = readIfPresent): number | null {
  // v2: "<quota> <period>" or "max <period>"
  const v2 = read('/sys/fs/cgroup/cpu.max');
  if (v2 !== null) {
    const [quota, period] = v2.trim().split(/\s+/);
    return quotaOf(quota, period);
  }
  const quota = read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us');
  const period = read('/sys/fs/cgroup/cpu/cpu.cfs_period_us');
  if (quota === null || period === null) return null;
  return quotaOf(quota.trim(), period.trim());
}

function quotaOf(quota: string | undefined, period: string | undefined): number | null {
  if (quota === undefined || period === undefined || quota === 'max') return null;
  const q = Number(quota);
  const p = Number(period);
  if (!Number.isFinite(q) || !Number.isFinite(p) || q <= 0 || p <= 0) return null;
  return q / p;
}

/**
 * Worker threads to start by default: the host's parallelism capped by the container quota,
 * rounded down (a 1.5-CPU limit leaves the half CPU to the main thread), at least one.
 */
export function defaultThreads(read: ReadText = readIfPresent, host: number = availableParallelism()): number {
  const quota = cgroupCpuQuota(read);
  const limit = quota === null ? host : Math.min(host, Math.floor(quota));
  return Math.max(1, limit);
}
