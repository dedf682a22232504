/**
 * Starts the built service as a child process on 127.0.0.1 with a chosen environment, waits until
 * `/readyz` answers 200, and stops it (SIGTERM, then SIGKILL after a bound). Loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface RunningServer {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  stop(): Promise<number | null>;
}

const START = fileURLToPath(new URL('../dist/src/server/start.js', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function startServer(env: Record<string, string>, { readyTimeoutMs = 30_000, exposeGc = true } = {}): Promise<RunningServer> {
  const port = await freePort();
  const args = exposeGc ? ['--expose-gc', START] : [START];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode} before it was ready:\n${stderr}`);
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service not ready within ${readyTimeoutMs} ms:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', (code) => {
          clearTimeout(kill);
          resolve(code);
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Asks the service to collect garbage (SIGUSR2 handler in start.ts when run with --expose-gc). */
export async function forceGc(server: RunningServer): Promise<void> {
  server.child.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 300));
}
