/**
 * The README's sidecar example, run as far as it can be offline: the model server of its first
 * line is a fake OpenAI-compatible server answering Hermes-style raw text (no vLLM here), the
 * second line is run as written (`tool-parse serve` with its UPSTREAM_URL, ports moved to free
 * ones), and the curl command is run as written against it. So is the client line, with the
 * official `openai` client.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { freePort } from '../loadtest/server.js';
import { parseToolCalls } from '../src/index.js';
import { startFakeUpstream } from './support/fake-upstream.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('### Sidecar: tool calls'), readme.indexOf('### Operations'));
const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
const lines = block.trimEnd().split('\n');
const BIN = fileURLToPath(new URL('../bin/tool-parse.ts', import.meta.url));
const TEXT = 'Reading it.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>';

const run = (command: string, env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('bash', ['-c', command], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, out });
    });
  });

describe('README sidecar example', () => {
  it('is five lines: the model server, the sidecar, a request', () => {
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^vllm serve \S+ --port 8000 &/);
    expect(lines[1]).toMatch(/^UPSTREAM_URL=http:\/\/127\.0\.0\.1:8000\/v1 npx tool-parse serve &/);
    expect(lines[2]).toMatch(/^curl -s localhost:8080\/v1\/chat\/completions/);
    expect(section).toContain("new OpenAI({ baseURL: 'http://127.0.0.1:8080/v1' })");
  });

  it('runs: the curl request and the openai client get the tool call parseToolCalls reads', async () => {
    const model = /^vllm serve (\S+)/.exec(lines[0]!)![1]!;
    const upstream = await startFakeUpstream({ answers: { [model]: { content: TEXT } } });
    const upstreamPort = new URL(upstream.url).port;
    const port = String(await freePort());
    // Line 2 as written, with its variable; `npx tool-parse` is the repository's bin (run from source here).
    const assignment = /^UPSTREAM_URL=(\S+) npx tool-parse serve/.exec(lines[1]!)![1]!;
    const sidecar = spawn(process.execPath, ['--import', 'tsx', BIN, 'serve'], {
      env: { ...process.env, UPSTREAM_URL: assignment.replace(':8000', `:${upstreamPort}`), PORT: port, HOST: '127.0.0.1', THREADS: '1', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    try {
      let ready = false;
      for (let i = 0; i < 300 && !ready; i++) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ready).toBe(true);
      const expected = parseToolCalls(TEXT, { tools: [{ type: 'function', function: { name: 'look', parameters: { type: 'object' } } }] }).calls.map((c) => [c.name, c.arguments]);
      expect(expected).toEqual([['look', { path: 'a.rs' }]]);

      const curl = await run(lines.slice(2).join('\n').replace('localhost:8080', `127.0.0.1:${port}`));
      expect(curl.code).toBe(0);
      const completion = JSON.parse(curl.out) as { choices: { message: { content: string; tool_calls: { function: { name: string; arguments: string } }[] } }[] };
      const message = completion.choices[0]!.message;
      expect(message.tool_calls.map((c) => [c.function.name, JSON.parse(c.function.arguments) as unknown])).toEqual(expected);
      expect(message.content).toBe('Reading it.');

      const baseURL = /baseURL: '([^']+)'/.exec(section)![1]!.replace(':8080', `:${port}`);
      const client = new OpenAI({ baseURL, apiKey: 'unused', maxRetries: 0 });
      const reply = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Read a.rs' }], tools: [{ type: 'function', function: { name: 'look', parameters: { type: 'object' } } }] });
      expect(reply.choices[0]!.message.tool_calls!.map((c) => ('function' in c ? [c.function.name, JSON.parse(c.function.arguments) as unknown] : null))).toEqual(expected);
    } finally {
      sidecar.kill('SIGTERM');
      await upstream.close();
    }
  }, 60_000);
});
