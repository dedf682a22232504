/**
 * The service's options, in one place: every numeric option's range and default is stated once
 * here (`NUMERIC_OPTIONS`), and both the environment reader (`readConfig`, naming variables) and
 * `buildApp` (naming `options.*`) validate through `resolveNumeric`. Everything after this module
 * trusts the values.
 */
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { defaultThreads } from './cpu.js';

export type PoolKind = 'piscina' | 'inline';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;
export const DEFAULT_MAX_BATCH = 256;
export const DEFAULT_TASK_TIMEOUT_MS = 10_000;
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** A body must arrive within this long (a stalled upload is answered 408 and its bytes freed). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** The largest answer; a parse whose answer would be larger is a 422 (the library's bound makes it rare). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
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
/**
 * How long the sidecar waits for an upstream model server: for its answer's headers, and then
 * between any two pieces of its body (a generation streams for minutes, so not for the whole).
 */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 300_000;
/** Streams (`POST /parse/stream`) open at once; past it a new one gets 503 before its body is read. */
export const DEFAULT_MAX_STREAMS = 512;
/** A stream that sends no chunk for this long ends with an error event and its partial result. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 30_000;
/**
 * A stream whose text reaches this many characters has its final parse run in the pool; a
 * shorter one finishes on the HTTP thread. Chosen from the figures in docs/performance.md
 * ("Streaming"): below it the pool's round trip and the replay cost more than the parse.
 */
export const DEFAULT_STREAM_POOL_AT_CHARS = 16_384;
/** Queued tasks allowed per worker thread before new requests are shed with 503. */
export const QUEUE_PER_THREAD = 64;
/** Batches under this many characters of text are parsed in one task (see README.md). */
export const DEFAULT_SPLIT_MIN_CHARS = 2048;
/** The share of the container's memory that request bodies in flight may hold (README, "Memory"). */
export const INFLIGHT_SHARE_OF_MEMORY = 1 / 8;

/** The memory this process may use: the cgroup limit (v2, then v1) when there is one, else the machine's. */
export function memoryLimitBytes(read: (path: string) => string = (p) => readFileSync(p, 'utf8')): number {
  for (const path of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    try {
      const value = Number(read(path).trim());
      // v1 reports "no limit" as a huge number near 2^63.
      if (Number.isSafeInteger(value) && value > 0) return Math.min(value, totalmem());
    } catch {
      // not present: the next source
    }
  }
  return totalmem();
}

export function defaultInflightBytes(memory = memoryLimitBytes()): number {
  return Math.max(DEFAULT_BODY_LIMIT, Math.floor(memory * INFLIGHT_SHARE_OF_MEMORY));
}

export interface NumericOptions {
  threads: number;
  maxQueue: number;
  taskTimeoutMs: number;
  bodyLimit: number;
  bodyTimeoutMs: number;
  maxBatch: number;
  maxResponseBytes: number;
  maxInflightBytes: number;
  shutdownTimeoutMs: number;
  drainDelayMs: number;
  /** Request bodies under this many bytes parse on the HTTP thread (POOL=piscina only); 0 = always the pool. */
  inlineBelowBytes: number;
  /** Niceness of the parse worker threads (Linux); 0 leaves them at the HTTP thread's priority. */
  workerNice: number;
  /** Batches whose texts total at least this many characters are spread over the pool. */
  splitMinChars: number;
  /** The sidecar's wait for the upstream (headers, then each gap in its body). */
  upstreamTimeoutMs: number;
  /** Streams open at once (`MAX_STREAMS`). */
  maxStreams: number;
  /** No chunk for this long ends a stream (`STREAM_IDLE_TIMEOUT_MS`). */
  streamIdleTimeoutMs: number;
  /** Streams of at least this many characters run their final parse in the pool (POOL=piscina only). */
  streamPoolAtChars: number;
}

interface NumericOption {
  /** The environment variable; absent for options only `buildApp` takes. */
  env?: string;
  min: number;
  max: number;
  fallback: (resolved: Partial<NumericOptions>, context: DefaultContext) => number;
}

interface DefaultContext {
  pool: PoolKind;
  threadsDefault: () => number;
}

const GIB = 1024 * 1024 * 1024;
const HOUR_MS = 3_600_000;

/** Every numeric option: its variable, its range, its default. Order matters: defaults may use earlier values. */
export const NUMERIC_OPTIONS: { readonly [K in keyof NumericOptions]: NumericOption } = {
  threads: { env: 'THREADS', min: 1, max: 1024, fallback: (_, c) => (c.pool === 'piscina' ? c.threadsDefault() : 1) },
  maxQueue: { env: 'MAX_QUEUE', min: 1, max: 1_000_000, fallback: (o) => o.threads! * QUEUE_PER_THREAD },
  taskTimeoutMs: { env: 'TASK_TIMEOUT_MS', min: 1, max: HOUR_MS, fallback: () => DEFAULT_TASK_TIMEOUT_MS },
  bodyLimit: { env: 'BODY_LIMIT', min: 1, max: GIB, fallback: () => DEFAULT_BODY_LIMIT },
  bodyTimeoutMs: { env: 'BODY_TIMEOUT_MS', min: 1, max: HOUR_MS, fallback: () => DEFAULT_BODY_TIMEOUT_MS },
  maxBatch: { env: 'MAX_BATCH', min: 1, max: 100_000, fallback: () => DEFAULT_MAX_BATCH },
  maxResponseBytes: { env: 'MAX_RESPONSE_BYTES', min: 1024, max: 4 * GIB, fallback: () => DEFAULT_MAX_RESPONSE_BYTES },
  maxInflightBytes: { env: 'MAX_INFLIGHT_BYTES', min: 1, max: 1024 * GIB, fallback: () => defaultInflightBytes() },
  shutdownTimeoutMs: { env: 'SHUTDOWN_TIMEOUT_MS', min: 1, max: HOUR_MS, fallback: () => DEFAULT_SHUTDOWN_TIMEOUT_MS },
  drainDelayMs: { env: 'DRAIN_DELAY_MS', min: 0, max: HOUR_MS, fallback: () => 0 },
  inlineBelowBytes: { env: 'INLINE_BELOW_BYTES', min: 0, max: GIB, fallback: () => 0 },
  workerNice: { env: 'WORKER_NICE', min: 0, max: 19, fallback: () => 0 },
  splitMinChars: { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: () => DEFAULT_SPLIT_MIN_CHARS },
  upstreamTimeoutMs: { env: 'UPSTREAM_TIMEOUT_MS', min: 1, max: HOUR_MS, fallback: () => DEFAULT_UPSTREAM_TIMEOUT_MS },
  maxStreams: { env: 'MAX_STREAMS', min: 1, max: 1_000_000, fallback: () => DEFAULT_MAX_STREAMS },
  streamIdleTimeoutMs: { env: 'STREAM_IDLE_TIMEOUT_MS', min: 1, max: HOUR_MS, fallback: () => DEFAULT_STREAM_IDLE_TIMEOUT_MS },
  streamPoolAtChars: { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: () => DEFAULT_STREAM_POOL_AT_CHARS },
};

/**
 * The upstream's base URL as an OpenAI client takes it (`http://vllm:8000/v1`), without a
 * trailing slash; null when `raw` is not an http(s) URL without query, fragment or credentials.
 */
export function upstreamBaseUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return null;
  return url.href.replace(/\/+$/, '');
}

/**
 * Every numeric option from `given` (undefined = the default), checked against its range.
 * `nameOf` names an option in the problems (a variable, or `options.x`).
 */
export function resolveNumeric(
  given: Partial<Record<keyof NumericOptions, unknown>>,
  context: DefaultContext,
  nameOf: (key: keyof NumericOptions) => string,
  problems: string[],
): NumericOptions {
  const resolved: Partial<NumericOptions> = {};
  for (const key of Object.keys(NUMERIC_OPTIONS) as (keyof NumericOptions)[]) {
    const spec = NUMERIC_OPTIONS[key];
    const value = given[key];
    if (value === undefined) {
      resolved[key] = spec.fallback(resolved, context);
    } else if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < spec.min || value > spec.max) {
      problems.push(`${nameOf(key)} must be an integer from ${spec.min} to ${spec.max}; got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
      resolved[key] = spec.fallback(resolved, context);
    } else {
      resolved[key] = value;
    }
  }
  const out = resolved as NumericOptions;
  if (problems.length === 0 && out.drainDelayMs >= out.shutdownTimeoutMs) {
    problems.push(`${nameOf('drainDelayMs')} (${out.drainDelayMs}) must be less than ${nameOf('shutdownTimeoutMs')} (${out.shutdownTimeoutMs})`);
  }
  return out;
}

export interface ServiceConfig extends Omit<NumericOptions, 'splitMinChars' | 'streamPoolAtChars'> {
  port: number;
  host: string;
  logLevel: LogLevel;
  pool: PoolKind;
  /** The sidecar's upstream (UPSTREAM_URL); null serves the parse API only. */
  upstreamUrl: string | null;
  /** UPSTREAM_REASONING_STARTED: `reasoning_started` for the sidecar's parses; null: each text says. */
  upstreamReasoningStarted: boolean | null;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const POOL_KINDS: readonly PoolKind[] = ['piscina', 'inline'];

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

/** The service's environment defaults where they differ from `buildApp`'s (which suit tests). */
const ENV_DEFAULTS: Partial<Record<keyof NumericOptions, number>> = {
  inlineBelowBytes: DEFAULT_INLINE_BELOW_BYTES,
  workerNice: DEFAULT_WORKER_NICE,
};

/**
 * Reads `PORT`, `HOST`, `LOG_LEVEL`, `POOL`, `UPSTREAM_URL`, `UPSTREAM_REASONING_STARTED` and every variable of `NUMERIC_OPTIONS`. Unset or
 * empty means the default.
 */
export function readConfig(env: Env, threadsDefault: () => number = defaultThreads): ServiceConfig {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const value = text(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    problems.push(`${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(env[name])}`);
    return fallback;
  };

  const portText = text('PORT');
  const port = portText === undefined ? 8080 : /^\d+$/.test(portText) && Number(portText) <= 65535 ? Number(portText) : Number.NaN;
  if (Number.isNaN(port)) problems.push(`PORT must be an integer from 0 to 65535; got ${JSON.stringify(env.PORT)}`);
  const host = text('HOST') ?? '0.0.0.0';
  if (/\s/.test(host)) problems.push(`HOST must be a host name or address; got ${JSON.stringify(env.HOST)}`);
  const given: Partial<Record<keyof NumericOptions, unknown>> = {};
  for (const key of Object.keys(NUMERIC_OPTIONS) as (keyof NumericOptions)[]) {
    const name = NUMERIC_OPTIONS[key].env;
    const raw = name === undefined ? undefined : text(name);
    // Digits only: "1e3", "0x10" and "1.5" are not integers a person meant.
    given[key] = raw === undefined ? ENV_DEFAULTS[key] : /^\d+$/.test(raw) ? Number(raw) : env[name!];
  }
  const logLevel = oneOf('LOG_LEVEL', LOG_LEVELS, 'info');
  const pool = oneOf('POOL', POOL_KINDS, 'piscina');
  const upstreamText = text('UPSTREAM_URL');
  const upstreamUrl = upstreamText === undefined ? null : upstreamBaseUrl(upstreamText);
  if (upstreamText !== undefined && upstreamUrl === null) {
    // The value is not echoed: a URL with credentials in it must not reach a log.
    problems.push('UPSTREAM_URL must be an http or https URL without query, fragment or credentials');
  }
  const started = oneOf('UPSTREAM_REASONING_STARTED', ['true', 'false', 'auto'], 'auto');
  const upstreamReasoningStarted = started === 'auto' ? null : started === 'true';
  const numeric = resolveNumeric(given, { pool: 'piscina', threadsDefault }, (key) => NUMERIC_OPTIONS[key].env ?? key, problems);
  if (problems.length > 0) throw new ConfigError(sortByVariable(problems));
  const { splitMinChars: _split, streamPoolAtChars: _streamPool, ...rest } = numeric;
  return { port, host, ...rest, logLevel, pool, upstreamUrl, upstreamReasoningStarted };
}

/** Problems in the order the variables are documented: PORT, HOST, then the numeric table, then LOG_LEVEL, POOL and UPSTREAM_URL. */
function sortByVariable(problems: string[]): string[] {
  const order = ['PORT', 'HOST', ...Object.values(NUMERIC_OPTIONS).map((o) => o.env ?? ''), 'LOG_LEVEL', 'POOL', 'UPSTREAM_URL', 'UPSTREAM_REASONING_STARTED'];
  const rank = (p: string) => {
    const i = order.indexOf(p.split(' ')[0]!);
    return i < 0 ? order.length : i;
  };
  return [...problems].sort((a, b) => rank(a) - rank(b));
}
