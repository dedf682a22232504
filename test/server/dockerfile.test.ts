/**
 * The Dockerfile, checked without a container engine: parsed and validated (dockerfile-utils and
 * its parser dockerfile-ast), its properties asserted, and its production steps run outside a
 * container: build to dist, production-only install, start with the image's CMD, answer
 * /healthz and /parse, exit 0 on SIGTERM; and `npm start` passes SIGTERM through to the service.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerfileParser, type Copy, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../support/fake-upstream.js';
import { CANONICAL_TEXT } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEXT = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const dockerfile = DockerfileParser.parse(TEXT);

interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

/** Instructions grouped by the FROM that starts their stage. */
function stages(): Stage[] {
  const out: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const args = instruction.getArguments().map((a) => a.getValue());
      out.push({ name: args[2] ?? String(out.length), image: args[0]!, instructions: [] });
    } else if (out.length > 0) {
      out.at(-1)!.instructions.push(instruction);
    }
  }
  return out;
}

const all = stages();
const runtime = all.at(-1)!;
const of = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.getKeyword() === keyword);
const execForm = (instruction: Instruction): string[] => JSON.parse(instruction.getArgumentsContent()!) as string[];

/**
 * The runtime stage's command, started in `app` with the production environment (and `env`),
 * and the address it logs once listening (null if it never does within 30 s, or exits first).
 */
async function startImageCommand(app: string, env: Record<string, string>) {
  const cmd = execForm(of(runtime, 'CMD').at(-1)!);
  const proc = spawn(cmd[0] === 'node' ? process.execPath : cmd[0]!, cmd.slice(1), {
    cwd: app,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', THREADS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  proc.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  let address: string | null = null;
  for (let waited = 0; address === null && waited < 30_000 && proc.exitCode === null; waited += 50) {
    const line = out.split('\n').find((l) => l.includes('tool-parse listening'));
    if (line !== undefined) address = (JSON.parse(line) as { address: string }).address;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { proc, exited, address, err: () => err };
}

describe('Dockerfile', () => {
  it('validates without a diagnostic', () => {
    expect(validate(TEXT)).toEqual([]);
  });

  it('is a multi-stage build on a current Node LTS slim base', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    const nodeArg = dockerfile.getInitialARGs().map((a) => a.getArgumentsContent() ?? '').find((a) => a.startsWith('NODE_VERSION='));
    const major = Number(/^NODE_VERSION=(\d+)/.exec(nodeArg ?? '')?.[1]);
    expect(major).toBeGreaterThanOrEqual(22);
    expect(major % 2).toBe(0); // LTS lines are the even majors
    for (const stage of all) expect(stage.image).toMatch(/^node:\$\{NODE_VERSION\}-[a-z]+-slim$/);
  });

  it('installs production dependencies with npm ci --omit=dev and ships only them', () => {
    const deps = all.find((s) => of(s, 'RUN').some((r) => /\bnpm ci\b.*--omit=dev/.test(r.getArgumentsContent() ?? '')));
    expect(deps).toBeDefined();
    const copies = of(runtime, 'COPY') as Copy[];
    const fromDeps = copies.find((c) => c.getFromFlag()?.getValue() === deps!.name);
    expect(fromDeps?.getArgumentsContent()).toMatch(/node_modules/);
  });

  it('copies everything the build compiles', () => {
    const build = all.find((s) => of(s, 'RUN').some((r) => (r.getArgumentsContent() ?? '').includes('npm run build')))!;
    const copied = of(build, 'COPY').flatMap((c) => c.getArguments().slice(0, -1).map((a) => a.getValue()));
    const config = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[]; extends: string };
    for (const needed of [...config.include, 'tsconfig.build.json', config.extends.replace('./', ''), 'package-lock.json']) {
      expect(copied).toContain(needed);
    }
  });

  it('runs as a non-root user under an init process, in production mode', () => {
    const user = of(runtime, 'USER').at(-1)?.getArgumentsContent();
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user!.split(':')[0]);
    const entrypoint = execForm(of(runtime, 'ENTRYPOINT').at(-1)!);
    expect(entrypoint[0]).toMatch(/tini$/);
    expect(of(runtime, 'RUN').some((r) => /apt-get install[^&]*\btini\b/.test(r.getArgumentsContent() ?? ''))).toBe(true);
    const env = of(runtime, 'ENV').flatMap((e) => e.getArguments().map((a) => a.getValue()));
    expect(env).toContain('NODE_ENV=production');
  });

  it('exposes 8080 and checks /healthz', () => {
    expect(of(runtime, 'EXPOSE').flatMap((e) => e.getArguments().map((a) => a.getValue()))).toContain('8080');
    const healthcheck = of(runtime, 'HEALTHCHECK').at(-1)!.getArgumentsContent()!;
    expect(healthcheck).toMatch(/^CMD \[/);
    expect(healthcheck).toContain('/healthz');
  });

  it('starts node directly (exec form) on a file the build emits', () => {
    const cmd = execForm(of(runtime, 'CMD').at(-1)!);
    expect(cmd[0]).toBe('node');
    const script = cmd.at(-1)!;
    expect(script).toBe('dist/src/server/start.js');
    expect(existsSync(join(ROOT, script.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
  });
});

describe('.dockerignore', () => {
  it('keeps the context small without dropping build inputs', () => {
    const lines = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    for (const ignored of ['node_modules', 'dist', '.git']) expect(lines).toContain(ignored);
    for (const kept of ['src', 'workers', 'bin', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) {
      expect(lines).not.toContain(kept);
    }
  });
});

describe('the image steps outside a container', () => {
  const work = mkdtempSync(join(tmpdir(), 'tool-parse-image-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('the lock file lets npm ci install production dependencies (the deps stage)', () => {
    const probe = join(work, 'lock-probe');
    cpSync(join(ROOT, 'package.json'), join(probe, 'package.json'));
    cpSync(join(ROOT, 'package-lock.json'), join(probe, 'package-lock.json'));
    const run = spawnSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--offline', '--dry-run', '--no-audit', '--no-fund'], {
      cwd: probe, encoding: 'utf8', timeout: 120_000,
    });
    expect(run.stderr.split('\n').filter((l) => l.startsWith('npm error')).slice(0, 6).join('\n')).toBe('');
    expect(run.status).toBe(0);
  }, 150_000);

  /** The build and deps stages, once for the tests below: dist emitted, production dependencies installed. */
  let built: string | null = null;
  function productionTree(): string {
    if (built !== null) return built;
    const app = join(work, 'app');
    // build stage: tsc -p tsconfig.build.json, emit only (npm run typecheck checks types)
    spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'),
      '--outDir', join(app, 'dist'), '--declaration', 'false', '--sourceMap', 'false', '--noCheck'], { cwd: ROOT, timeout: 150_000 });
    expect(existsSync(join(app, 'dist/src/server/start.js'))).toBe(true);
    expect(existsSync(join(app, 'dist/workers/parse.js'))).toBe(true);
    cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
    cpSync(join(ROOT, 'package-lock.json'), join(app, 'package-lock.json'));
    // deps stage: npm ci --omit=dev from the local cache; if the lock refuses (see the test
    // above), the same production tree is copied from node_modules so the rest still runs.
    const install = spawnSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
      cwd: app, encoding: 'utf8', timeout: 120_000,
    });
    if (install.status !== 0) {
      const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8' });
      for (const dir of listed.split('\n').filter((d) => d.includes('node_modules'))) {
        cpSync(dir, join(app, relative(ROOT, dir)), { recursive: true });
      }
    }
    expect(existsSync(join(app, 'node_modules/fastify/package.json'))).toBe(true);
    expect(existsSync(join(app, 'node_modules/vitest'))).toBe(false);
    built = app;
    return app;
  }

  it('builds, installs for production, starts with the CMD, answers /healthz and /parse, exits 0 on SIGTERM', async () => {
    const app = productionTree();
    writeFileSync(join(app, 'tools.json'), '["look"]');

    const { proc, exited, address, err } = await startImageCommand(app, {});
    try {
      expect(address, err()).not.toBeNull();
      const health = await fetch(`${address}/healthz`);
      expect(health.status).toBe(200);
      const parsed = await fetch(`${address}/parse`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: CANONICAL_TEXT, tools: ['look'] }),
      });
      expect(parsed.status).toBe(200);
      const result = (await parsed.json()) as { calls: { name: string; arguments: unknown }[] };
      expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'a.rs' }]]);
      proc.kill('SIGTERM');
      expect(await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 15_000))])).toBe(0);
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
    }
  }, 240_000);

  it('as a sidecar: UPSTREAM_URL from the environment, readiness through the upstream, tool calls on /v1/chat/completions', async () => {
    const app = productionTree();
    const upstream = await startFakeUpstream({ answers: { m: { content: CANONICAL_TEXT } } });
    const { proc, exited, address, err } = await startImageCommand(app, { UPSTREAM_URL: upstream.url });
    try {
      expect(address, err()).not.toBeNull();
      expect((await fetch(`${address}/readyz`)).status).toBe(200);
      expect(upstream.modelRequests).toBeGreaterThanOrEqual(1);
      const res = await fetch(`${address}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools: [{ type: 'function', function: { name: 'look' } }] }),
      });
      expect(res.status).toBe(200);
      const completion = (await res.json()) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] };
      expect(completion.choices[0]!.message.tool_calls.map((c) => [c.function.name, JSON.parse(c.function.arguments) as unknown])).toEqual([['look', { path: 'a.rs' }]]);
      // With the upstream gone the pod leaves the endpoints, and stays alive.
      await upstream.close();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await fetch(`${address}/readyz`)).status).toBe(503);
      expect((await fetch(`${address}/healthz`)).status).toBe(200);
      proc.kill('SIGTERM');
      expect(await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 15_000))])).toBe(0);
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await upstream.close();
    }
  }, 240_000);

  it('npm start execs node, so SIGTERM sent to npm reaches the service, which drains and exits 0', async () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const cmd = execForm(of(runtime, 'CMD').at(-1)!);
    // The image's command, behind exec: the shell npm starts is replaced, not left as a parent.
    expect(scripts.start).toBe(`exec ${cmd.join(' ')}`);
    expect(scripts.prestart).toBe('npm run build');
    const app = productionTree();
    // --ignore-scripts skips only prestart (the build, done above); npm still runs start itself.
    const npm = spawn('npm', ['start', '--ignore-scripts'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', THREADS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    let servicePid: number | null = null;
    try {
      let out = '';
      let err = '';
      npm.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      npm.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      let address: string | null = null;
      for (let waited = 0; address === null && waited < 30_000 && npm.exitCode === null; waited += 50) {
        const line = out.split('\n').find((l) => l.includes('tool-parse listening'));
        if (line !== undefined) ({ address, pid: servicePid } = JSON.parse(line) as { address: string; pid: number });
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(address, err).not.toBeNull();
      expect(servicePid).not.toBe(npm.pid);
      if (process.platform === 'linux') {
        // Field 4 of /proc/<pid>/stat, after the parenthesised command name, is the parent's pid.
        const stat = readFileSync(`/proc/${servicePid}/stat`, 'utf8');
        expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])).toBe(npm.pid);
      }
      expect((await fetch(`${address}/healthz`)).status).toBe(200);
      npm.kill('SIGTERM');
      expect(await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 15_000))])).toBe(0);
      const shutdown = out.split('\n').filter((l) => l.includes('shutting down')).map((l) => JSON.parse(l) as { pid: number; signal: string });
      expect(shutdown).toEqual([expect.objectContaining({ pid: servicePid, signal: 'SIGTERM' })]);
      expect(() => process.kill(servicePid!, 0)).toThrow();
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
      if (servicePid !== null) {
        try {
          process.kill(servicePid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }, 240_000);
});
