/**
 * The real entry (start.ts) as a child process: environment validation at start, and SIGTERM
 * with a request in flight (it finishes, the pool closes, the process exits 0 before
 * SHUTDOWN_TIMEOUT_MS, which would otherwise make it exit 1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CANONICAL_TEXT, postJson } from './helpers.js';

// Worker threads load the library through tsx here; a loaded CI machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVE = fileURLToPath(new URL('../fixtures/serve-misbehaving.ts', import.meta.url));
const START = fileURLToPath(new URL('../../src/server/start.ts', import.meta.url));

let child: ChildProcess | null = null;
afterEach(() => {
  if (child !== null && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = null;
});

interface Running {
  proc: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function run(script: string, env: Record<string, string>): Running {
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', THREADS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  const stdout: string[] = [];
  const stderr: string[] = [];
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, stdout, stderr, exited };
}

/** The address from the "tool-parse listening" log line, waiting at most `ms`. */
async function addressOf(running: Running, ms = 25_000): Promise<string> {
  for (let waited = 0; waited < ms; waited += 50) {
    for (const line of running.stdout.join('').split('\n')) {
      if (!line.includes('tool-parse listening')) continue;
      return (JSON.parse(line) as { address: string }).address;
    }
    if (running.proc.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`service did not start: ${running.stderr.join('')}`);
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);
}

describe('start', () => {
  it('exits 1 with a message naming a bad variable', async () => {
    const running = run(START, { PORT: 'eighty', POOL: 'threads' });
    expect(await within(running.exited, 20_000, 'exit')).toBe(1);
    const stderr = running.stderr.join('');
    expect(stderr).toContain('PORT must be an integer from 0 to 65535; got "eighty"');
    expect(stderr).toContain('POOL must be one of piscina, inline; got "threads"');
  });
});

describe('SIGTERM', () => {
  it('finishes the request in flight, closes the pool and exits 0', async () => {
    const running = run(SERVE, { SHUTDOWN_TIMEOUT_MS: '15000', LOG_LEVEL: 'info' });
    const base = await addressOf(running);
    expect((await postJson(base, '/parse', { text: CANONICAL_TEXT, tools: ['look'] })).status).toBe(200);
    const inFlight = postJson(base, '/parse', { text: `__sleep_2000__ ${CANONICAL_TEXT}`, tools: ['look'] });
    // the request is parsing for 2 s; give it time to arrive
    await new Promise((resolve) => setTimeout(resolve, 600));
    running.proc.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    const result = (await res.json()) as { calls: { name: string }[] };
    expect(Array.isArray(result.calls)).toBe(true);
    expect(await within(running.exited, 15_000, 'shutdown')).toBe(0);
    const log = running.stdout.join('');
    expect(log).toContain('"signal":"SIGTERM"');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    // one line per request at info
    expect(log.split('\n').filter((line) => line.includes('"url":"/parse"'))).toHaveLength(2);
  });

  it('writes a large answer to a slow reader to the end before exiting', async () => {
    const running = run(SERVE, { SHUTDOWN_TIMEOUT_MS: '15000', LOG_LEVEL: 'info' });
    const base = await addressOf(running);
    // About 13 MB of answer (prose comes back as prose and as canonical text): far more than
    // loopback socket buffers hold, so most of it is still in the service when SIGTERM lands.
    const body = JSON.stringify({ text: 'hello world. '.repeat(340_000) });
    const { declared, received, pauses } = await new Promise<{ declared: number; received: number; pauses: number }>((resolve, reject) => {
      const req = request(`${base}/parse`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let received = 0;
        let pauses = 0;
        let sinceResume = 0;
        const pauseFor = (ms: number) => {
          res.pause();
          pauses++;
          sinceResume = 0;
          setTimeout(() => res.resume(), ms);
        };
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          sinceResume += chunk.length;
          if (pauses === 0) {
            // Stop reading, signal the service, and only then read the rest, slowly.
            running.proc.kill('SIGTERM');
            pauseFor(800);
          } else if (sinceResume >= 2 * 1024 * 1024 && pauses < 12) {
            pauseFor(200);
          }
        });
        res.on('end', () => resolve({ declared: Number(res.headers['content-length']), received, pauses }));
        res.on('error', reject);
        res.on('aborted', () => reject(new Error(`answer cut off after ${received} of ${res.headers['content-length']} bytes`)));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(declared).toBeGreaterThan(12 * 1024 * 1024);
    expect(pauses).toBeGreaterThan(2);
    expect(received).toBe(declared);
    expect(await within(running.exited, 15_000, 'shutdown')).toBe(0);
  });
});
