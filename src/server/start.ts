/**
 * The service's entry: read and validate the environment once, build the app, listen, and
 * shut down gracefully.
 *
 * On SIGTERM/SIGINT: readiness turns false and new requests get 503, in-flight requests
 * finish, the pool closes, and the process exits 0; if that takes longer than
 * SHUTDOWN_TIMEOUT_MS it exits 1. A second signal exits at once.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.js';
import { ConfigError, readConfig, type ServiceConfig } from './config.js';

export interface StartedService {
  app: FastifyInstance;
  config: ServiceConfig;
  /** The address the server listens on, e.g. http://127.0.0.1:8080. */
  address: string;
}

/** Builds and starts the service from `env`; `overrides` exist for test fixtures only. */
export async function startService(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Pick<AppOptions, 'workerFile'> = {},
): Promise<StartedService> {
  const config = readConfig(env);
  const { port: _port, host: _host, ...options } = config;
  const app = await buildApp({ ...options, ...overrides });
  // close-with-grace shuts down on SIGUSR2 too; when SIGUSR2 means "collect", it must not.
  const gcOnSignal = listenForGcRequests();
  closeWithGrace({ delay: config.shutdownTimeoutMs, skip: gcOnSignal ? ['SIGUSR2'] : [] }, async ({ err, signal }) => {
    if (err !== undefined) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ threads: config.threads, pool: config.pool, address, upstream: config.upstreamUrl }, 'tool-parse listening');
  return { app, config, address };
}

/**
 * With `node --expose-gc`, SIGUSR2 runs a full garbage collection on the HTTP thread, so a soak
 * test can compare resident memory after a forced GC. Without the flag SIGUSR2 stays a graceful
 * shutdown signal, as close-with-grace makes it. Installed once per process; true when it is.
 */
let gcListenerInstalled = false;
function listenForGcRequests(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return false;
  if (!gcListenerInstalled) process.on('SIGUSR2', () => gc());
  gcListenerInstalled = true;
  return true;
}

/** Runs the service as the process's main purpose; a bad environment exits 1 with a message. */
export async function main(overrides: Pick<AppOptions, 'workerFile'> = {}): Promise<void> {
  try {
    await startService(process.env, overrides);
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `failed to start: ${describe(error)}`;
    process.stderr.write(`tool-parse: ${message}\n`);
    process.exit(1);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

function isEntry(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) void main();
