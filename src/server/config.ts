/**
 * The service's configuration, read from the environment once at start and validated there.
 * Everything after this module trusts the values.
 */
import { defaultThreads } from './cpu.js';

export type PoolKind = 'piscina' | 'inline';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface ServiceConfig {
  port: number;
  host: string;
  threads: number;
  maxQueue: number;
  taskTimeoutMs: number;
  bodyLimit: number;
  maxBatch: number;
  logLevel: LogLevel;
  pool: PoolKind;
  shutdownTimeoutMs: number;
  drainDelayMs: number;
  /** Request bodies under this many bytes parse on the HTTP thread (POOL=piscina only); 0 = always the pool. */
  inlineBelowBytes: number;
  /** Niceness of the parse worker threads (Linux); 0 leaves them at the HTTP thread's priority. */
  workerNice: number;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const POOL_KINDS: readonly PoolKind[] = ['piscina', 'inline'];

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;
export const DEFAULT_MAX_BATCH = 256;
export const DEFAULT_TASK_TIMEOUT_MS = 10_000;
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * Bodies under this many bytes parse on the HTTP thread. Chosen from the crossover measured in
 * docs/performance.md ("Crossover"): below it the pool's round trip costs more than the parse.
 */
export const DEFAULT_INLINE_BELOW_BYTES = 2048;
/**
 * Parse workers run at this niceness so the HTTP thread (probes, intake, shedding) wins the CPU
 * when both want it; measured in docs/performance.md ("Overload").
 */
export const DEFAULT_WORKER_NICE = 10;
/** Queued tasks allowed per worker thread before new requests are shed with 503. */
export const QUEUE_PER_THREAD = 64;

/** Raised with every problem found, so one start attempt reports them all. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads `PORT`, `HOST`, `THREADS`, `MAX_QUEUE`, `TASK_TIMEOUT_MS`, `BODY_LIMIT`, `MAX_BATCH`,
 * `LOG_LEVEL`, `POOL`, `SHUTDOWN_TIMEOUT_MS`, `DRAIN_DELAY_MS`, `INLINE_BELOW_BYTES` and
 * `WORKER_NICE`. Unset or empty means the default.
 */
export function readConfig(env: Env, threadsDefault: () => number = defaultThreads): ServiceConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: () => number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback();
    const text = raw.trim();
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(raw)}`);
      return fallback();
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const text = raw.trim().toLowerCase();
    if ((allowed as readonly string[]).includes(text)) return text as T;
    problems.push(`${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(raw)}`);
    return fallback;
  };

  const port = int('PORT', () => 8080, 0, 65535);
  const hostRaw = env.HOST?.trim();
  const host = hostRaw === undefined || hostRaw === '' ? '0.0.0.0' : hostRaw;
  if (/\s/.test(host)) problems.push(`HOST must be a host name or address; got ${JSON.stringify(env.HOST)}`);
  const threads = int('THREADS', threadsDefault, 1, 1024);
  const maxQueue = int('MAX_QUEUE', () => threads * QUEUE_PER_THREAD, 1, 1_000_000);
  const taskTimeoutMs = int('TASK_TIMEOUT_MS', () => DEFAULT_TASK_TIMEOUT_MS, 1, 3_600_000);
  const bodyLimit = int('BODY_LIMIT', () => DEFAULT_BODY_LIMIT, 1, 1024 * 1024 * 1024);
  const maxBatch = int('MAX_BATCH', () => DEFAULT_MAX_BATCH, 1, 100_000);
  const logLevel = oneOf('LOG_LEVEL', LOG_LEVELS, 'info');
  const pool = oneOf('POOL', POOL_KINDS, 'piscina');
  const shutdownTimeoutMs = int('SHUTDOWN_TIMEOUT_MS', () => DEFAULT_SHUTDOWN_TIMEOUT_MS, 1, 3_600_000);
  const drainDelayMs = int('DRAIN_DELAY_MS', () => 0, 0, 3_600_000);
  const inlineBelowBytes = int('INLINE_BELOW_BYTES', () => DEFAULT_INLINE_BELOW_BYTES, 0, 1024 * 1024 * 1024);
  const workerNice = int('WORKER_NICE', () => DEFAULT_WORKER_NICE, 0, 19);
  if (problems.length === 0 && drainDelayMs >= shutdownTimeoutMs) {
    problems.push(`DRAIN_DELAY_MS (${drainDelayMs}) must be less than SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs})`);
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return { port, host, threads, maxQueue, taskTimeoutMs, bodyLimit, maxBatch, logLevel, pool, shutdownTimeoutMs, drainDelayMs, inlineBelowBytes, workerNice };
}
