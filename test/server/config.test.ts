/** Environment validation and the CPU-quota-aware default thread count. */
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultInflightBytes, memoryLimitBytes, readConfig } from '../../src/server/config.js';
import { cgroupCpuQuota, defaultThreads } from '../../src/server/cpu.js';

const fourThreads = () => 4;

describe('readConfig', () => {
  it('fills every default', () => {
    expect(readConfig({}, fourThreads)).toEqual({
      port: 8080, host: '0.0.0.0', threads: 4, maxQueue: 256, taskTimeoutMs: 10_000, bodyLimit: 10 * 1024 * 1024,
      maxBatch: 256, logLevel: 'info', pool: 'piscina', shutdownTimeoutMs: 10_000, drainDelayMs: 0,
      inlineBelowBytes: 2048, workerNice: 10, bodyTimeoutMs: 10_000, maxResponseBytes: 32 * 1024 * 1024,
      maxInflightBytes: defaultInflightBytes(), upstreamUrl: null, upstreamTimeoutMs: 300_000, maxStreams: 512, streamIdleTimeoutMs: 30_000,
      upstreamReasoningStarted: null,
    });
  });

  it('reads every variable', () => {
    const config = readConfig({
      PORT: '0', HOST: '127.0.0.1', THREADS: '3', MAX_QUEUE: '9', TASK_TIMEOUT_MS: '250', BODY_LIMIT: '2048',
      MAX_BATCH: '5', LOG_LEVEL: 'WARN', POOL: 'inline', SHUTDOWN_TIMEOUT_MS: '4000', DRAIN_DELAY_MS: '1000',
      INLINE_BELOW_BYTES: '0', WORKER_NICE: '0', BODY_TIMEOUT_MS: '3000', MAX_RESPONSE_BYTES: '65536', MAX_INFLIGHT_BYTES: '1000000',
      UPSTREAM_URL: 'http://vllm:8000/v1/', UPSTREAM_TIMEOUT_MS: '1500', MAX_STREAMS: '7', STREAM_IDLE_TIMEOUT_MS: '1500',
      UPSTREAM_REASONING_STARTED: 'False',
    }, fourThreads);
    expect(config).toEqual({
      port: 0, host: '127.0.0.1', threads: 3, maxQueue: 9, taskTimeoutMs: 250, bodyLimit: 2048, maxBatch: 5,
      logLevel: 'warn', pool: 'inline', shutdownTimeoutMs: 4000, drainDelayMs: 1000, inlineBelowBytes: 0,
      workerNice: 0, bodyTimeoutMs: 3000, maxResponseBytes: 65536, maxInflightBytes: 1_000_000,
      upstreamUrl: 'http://vllm:8000/v1', upstreamTimeoutMs: 1500, maxStreams: 7, streamIdleTimeoutMs: 1500,
      upstreamReasoningStarted: false,
    });
  });

  it('refuses an UPSTREAM_URL that is not a plain http(s) base URL, naming the variable', () => {
    for (const bad of ['vllm:8000', 'ftp://host/v1', 'http://user:secret@host/v1', 'http://host/v1?x=1', 'not a url']) {
      expect(() => readConfig({ UPSTREAM_URL: bad }, fourThreads), bad).toThrow(/UPSTREAM_URL must be an http or https URL/);
    }
    expect(readConfig({ UPSTREAM_URL: '  ' }, fourThreads).upstreamUrl).toBeNull();
    expect(() => readConfig({ UPSTREAM_TIMEOUT_MS: '0' }, fourThreads)).toThrow(/UPSTREAM_TIMEOUT_MS/);
  });

  it('reads UPSTREAM_REASONING_STARTED as true, false or auto (each text says: null), and refuses anything else', () => {
    expect(readConfig({}, fourThreads).upstreamReasoningStarted).toBeNull();
    expect(readConfig({ UPSTREAM_REASONING_STARTED: 'auto' }, fourThreads).upstreamReasoningStarted).toBeNull();
    expect(readConfig({ UPSTREAM_REASONING_STARTED: 'true' }, fourThreads).upstreamReasoningStarted).toBe(true);
    expect(() => readConfig({ UPSTREAM_REASONING_STARTED: 'yes' }, fourThreads)).toThrow(/UPSTREAM_REASONING_STARTED must be one of true, false, auto/);
  });

  it('sizes MAX_INFLIGHT_BYTES from the cgroup memory limit when there is one', () => {
    const files: Record<string, string> = { '/sys/fs/cgroup/memory.max': '1073741824\n' };
    const read = (path: string): string => {
      const content = files[path];
      if (content === undefined) throw new Error('ENOENT');
      return content;
    };
    expect(memoryLimitBytes(read)).toBe(1024 ** 3);
    expect(defaultInflightBytes(1024 ** 3)).toBe(128 * 1024 * 1024);
    // v2 "max" (no limit), then v1's "no limit" number: the machine's memory
    files['/sys/fs/cgroup/memory.max'] = 'max\n';
    files['/sys/fs/cgroup/memory/memory.limit_in_bytes'] = '9223372036854771712\n';
    expect(memoryLimitBytes(read)).toBeLessThanOrEqual(memoryLimitBytes(() => 'max'));
  });

  it('rejects an INLINE_BELOW_BYTES that is not a non-negative integer', () => {
    for (const bad of ['-1', '1.5', 'small', '2147483648']) {
      expect(() => readConfig({ INLINE_BELOW_BYTES: bad }, fourThreads)).toThrow(/INLINE_BELOW_BYTES/);
    }
    expect(readConfig({ INLINE_BELOW_BYTES: '65536' }, fourThreads).inlineBelowBytes).toBe(65536);
  });

  it('takes a WORKER_NICE from 0 to 19 and nothing else', () => {
    for (const bad of ['-1', '20', '5.5', 'low']) {
      expect(() => readConfig({ WORKER_NICE: bad }, fourThreads)).toThrow(/WORKER_NICE/);
    }
    expect(readConfig({ WORKER_NICE: '19' }, fourThreads).workerNice).toBe(19);
  });

  it('derives MAX_QUEUE from THREADS', () => {
    expect(readConfig({ THREADS: '2' }, fourThreads).maxQueue).toBe(128);
  });

  it('reports every bad value at once, naming the variable', () => {
    let caught: unknown;
    try {
      readConfig({ PORT: 'eighty', THREADS: '0', BODY_LIMIT: '1.5', POOL: 'forks', LOG_LEVEL: 'loud', MAX_QUEUE: '-3' }, fourThreads);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['PORT', 'THREADS', 'MAX_QUEUE', 'BODY_LIMIT', 'LOG_LEVEL', 'POOL']);
    expect(problems[0]).toBe('PORT must be an integer from 0 to 65535; got "eighty"');
    expect((caught as Error).message).toContain('POOL must be one of piscina, inline; got "forks"');
  });

  it('refuses a drain delay that does not fit in the shutdown timeout', () => {
    expect(() => readConfig({ DRAIN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: '5000' }, fourThreads)).toThrow(/DRAIN_DELAY_MS/);
  });

  it('treats empty values as unset', () => {
    expect(readConfig({ PORT: '', THREADS: ' ' }, fourThreads)).toMatchObject({ port: 8080, threads: 4 });
  });
});

describe('CPU quota', () => {
  const files = (entries: Record<string, string>) => (path: string) => entries[path] ?? null;

  it('reads a cgroup v2 quota', () => {
    expect(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' }))).toBe(1.5);
    expect(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' }))).toBeNull();
  });

  it('reads a cgroup v1 quota', () => {
    const v1 = files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '200000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' });
    expect(cgroupCpuQuota(v1)).toBe(2);
    expect(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000' }))).toBeNull();
  });

  it('caps the host parallelism by the quota, rounding down, at least one thread', () => {
    expect(defaultThreads(files({ '/sys/fs/cgroup/cpu.max': '200000 100000' }), 64)).toBe(2);
    expect(defaultThreads(files({ '/sys/fs/cgroup/cpu.max': '150000 100000' }), 64)).toBe(1);
    expect(defaultThreads(files({ '/sys/fs/cgroup/cpu.max': '50000 100000' }), 64)).toBe(1);
    expect(defaultThreads(files({ '/sys/fs/cgroup/cpu.max': '800000 100000' }), 4)).toBe(4);
    expect(defaultThreads(files({}), 6)).toBe(6);
  });
});
