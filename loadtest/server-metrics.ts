/**
 * Reads the service's `tool_parse_worker_parse_seconds` histogram from /metrics: the time each
 * task spent in the thread that ran it. Two reads bracket a phase; their difference is that
 * phase's count and total seconds.
 */
export interface WorkTotals {
  count: number;
  seconds: number;
}

export async function workTotals(base: string, thread: 'worker' | 'main'): Promise<WorkTotals> {
  const res = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const value = (series: string): number => {
    const prefix = `tool_parse_worker_parse_seconds_${series}{thread="${thread}"} `;
    const line = text.split('\n').find((l) => l.startsWith(prefix));
    return line === undefined ? 0 : Number(line.slice(prefix.length));
  };
  return { count: value('count'), seconds: value('sum') };
}

/** Mean milliseconds per task between two reads, or null when no task ran. */
export function meanMsBetween(before: WorkTotals, after: WorkTotals): number | null {
  const count = after.count - before.count;
  return count > 0 ? ((after.seconds - before.seconds) * 1000) / count : null;
}
