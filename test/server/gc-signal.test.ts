/**
 * The soak test's forced GC: under `--expose-gc` the service answers SIGUSR2 with a collection
 * and keeps serving; without the flag SIGUSR2 stays a graceful shutdown signal (exit 0).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const START = fileURLToPath(new URL('../../src/server/start.ts', import.meta.url));

/** Starts the service on a free loopback port; resolves with its address once it listens. */
function startService(nodeFlags: string[]): { child: ChildProcess; address: Promise<string> } {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', START], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', THREADS: '1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const address = new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /"address":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}:\n${out}`)));
  });
  return { child, address };
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('SIGUSR2 forced GC', () => {
  let running: ChildProcess | null = null;
  afterEach(() => {
    if (running !== null && running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
    running = null;
  });

  it('collects and keeps serving under --expose-gc', async () => {
    const { child, address } = startService(['--expose-gc']);
    running = child;
    const base = await address;
    child.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 300));
    const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) });
    expect(health.status).toBe(200);
    expect(child.exitCode).toBeNull();
    child.kill('SIGTERM');
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('shuts down gracefully on SIGUSR2 without --expose-gc', async () => {
    const { child, address } = startService([]);
    running = child;
    await address;
    const exited = exitOf(child);
    child.kill('SIGUSR2');
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
