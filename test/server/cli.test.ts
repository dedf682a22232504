/** The tool-parse command line, in-process with fake streams, plus one real run of the bin. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, USAGE, type CliIo } from '../../bin/cli.js';
import { assertResultShape, CANONICAL_TEXT } from './helpers.js';

interface Captured {
  io: CliIo;
  out: string[];
  err: string[];
  served: number;
}

function fakeIo(files: Record<string, string>, stdin = ''): Captured {
  const captured: Captured = { out: [], err: [], served: 0, io: null as unknown as CliIo };
  captured.io = {
    readText: async (path) => {
      const content = files[path];
      if (content === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return content;
    },
    readStdin: async () => stdin,
    stdout: (t) => void captured.out.push(t),
    stderr: (t) => void captured.err.push(t),
    serve: async () => {
      captured.served += 1;
    },
  };
  return captured;
}

describe('tool-parse parse', () => {
  it('parses a file with a tool registry and prints the result JSON', async () => {
    const c = fakeIo({ 'reply.txt': CANONICAL_TEXT, 'tools.json': '["look"]' });
    expect(await runCli(['parse', 'reply.txt', '--tools', 'tools.json'], c.io)).toBe(0);
    const result: unknown = JSON.parse(c.out.join(''));
    assertResultShape(result);
    expect(result.calls.map((call) => [call.name, call.arguments])).toEqual([['look', { path: 'a.rs' }]]);
  });

  it('reads stdin for - or no FILE, and passes --format and --call-id-start', async () => {
    for (const args of [['parse', '-', '--format=text', '--call-id-start', '3', '--tools=t.json'], ['parse', '--tools', 't.json', '--call-id-start=3']]) {
      const c = fakeIo({ 't.json': '{"tools": [{"name": "look"}]}' }, CANONICAL_TEXT);
      expect(await runCli(args, c.io)).toBe(0);
      const result: unknown = JSON.parse(c.out.join(''));
      assertResultShape(result);
      expect(result.calls[0]!.id).toBe('tc_3');
    }
  });

  it('passes --profile: harn keeps the implicit tools, the gateway default does not', async () => {
    const text = '<tool_call>ledger({"note": "x"})</tool_call>';
    const run = async (extra: string[]) => {
      const c = fakeIo({ 't.json': '["look"]' }, text);
      expect(await runCli(['parse', '--tools', 't.json', ...extra], c.io)).toBe(0);
      return JSON.parse(c.out.join('')) as { calls: { name: string }[]; dropped: { reason: string }[] };
    };
    expect((await run(['--profile', 'harn'])).calls.map((call) => call.name)).toEqual(['ledger']);
    const gateway = await run([]);
    expect(gateway.calls).toEqual([]);
    expect(gateway.dropped.map((d) => d.reason)).toEqual(['unknown_tool']);
  });

  it('passes --validate, --shape and --include', async () => {
    const tools = JSON.stringify([{ name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }]);
    const run = async (extra: string[]) => {
      const c = fakeIo({ 't.json': tools }, '<tool_call>look({"path": 3})</tool_call>');
      expect(await runCli(['parse', '--tools', 't.json', ...extra], c.io)).toBe(0);
      return JSON.parse(c.out.join('')) as Record<string, unknown>;
    };
    expect(await run(['--validate=reject', '--include', 'calls,tool_parse_errors'])).toEqual({
      calls: [],
      tool_parse_errors: ["Tool 'look' was called with arguments that do not match its schema, so the call did not run: /path must be string."],
    });
    const openai = await run(['--shape', 'openai', '--include=protocol_violations']);
    expect(openai.finish_reason).toBe('tool_calls');
    expect(Object.keys(openai.diagnostics as object)).toEqual(['protocol_violations']);
    expect((await run(['--validate', 'off', '--shape=anthropic'])).stop_reason).toBe('tool_use');
  });

  it('the help says what the default format is and names every new flag', () => {
    expect(USAGE).not.toContain('text (default)');
    expect(USAGE).toContain('Default: none given ("")');
    for (const flag of ['--profile', '--validate', '--shape', '--include']) expect(USAGE).toContain(flag);
  });

  const failures: [string, string[], Record<string, string>, number, string][] = [
    ['an unknown profile', ['parse', 'r.txt', '--profile', 'strict'], { 'r.txt': 'x' }, 2, '--profile must be one of gateway, harn'],
    ['an unknown validate mode', ['parse', 'r.txt', '--validate=warn'], { 'r.txt': 'x' }, 2, '--validate must be one of report, reject, off'],
    ['an unknown shape', ['parse', 'r.txt', '--shape', 'xml'], { 'r.txt': 'x' }, 2, '--shape must be one of tool-parse, openai, anthropic'],
    ['an unknown include field', ['parse', 'r.txt', '--include', 'calls,text'], { 'r.txt': 'x' }, 2, '--include: "text" is not a result field'],
    ['a missing file', ['parse', 'nope.txt'], {}, 1, 'cannot read nope.txt (ENOENT)'],
    ['a tools file that is not JSON', ['parse', 'r.txt', '--tools', 't.json'], { 'r.txt': 'x', 't.json': '[look' }, 1, 't.json is not valid JSON'],
    ['an invalid registry', ['parse', 'r.txt', '--tools', 't.json'], { 'r.txt': 'x', 't.json': '[{"name": 5}]' }, 1, 't.json: tools[0].name must be a string'],
    ['an unknown format', ['parse', 'r.txt', '--format', 'yaml'], { 'r.txt': 'x' }, 2, '--format must be one of'],
    ['a flag without its value', ['parse', 'r.txt', '--tools'], { 'r.txt': 'x' }, 2, '--tools needs a value'],
    ['an unknown option', ['parse', '--colour'], {}, 2, 'unknown option --colour'],
    ['two files', ['parse', 'a', 'b'], {}, 2, 'only one FILE'],
    ['a bad call id start', ['parse', 'a', '--call-id-start', '-1'], {}, 2, '--call-id-start must be a non-negative integer'],
    ['an unknown command', ['lint'], {}, 2, 'unknown command "lint"'],
    ['serve with arguments', ['serve', '--port', '1'], {}, 2, 'serve takes no arguments'],
  ];
  for (const [name, args, files, status, message] of failures) {
    it(`exits ${status} with a message for ${name}`, async () => {
      const c = fakeIo(files);
      expect(await runCli(args, c.io)).toBe(status);
      expect(c.err.join('')).toContain(message);
      expect(c.out).toEqual([]);
    });
  }
});

describe('help and serve', () => {
  it('prints help on --help and usage with status 2 without a command', async () => {
    const help = fakeIo({});
    expect(await runCli(['--help'], help.io)).toBe(0);
    expect(help.out.join('')).toBe(USAGE);
    const sub = fakeIo({});
    expect(await runCli(['parse', '--help'], sub.io)).toBe(0);
    expect(sub.out.join('')).toContain('--tools FILE');
    const none = fakeIo({});
    expect(await runCli([], none.io)).toBe(2);
    expect(none.err.join('')).toContain('Usage: tool-parse');
  });

  it('serve starts the service', async () => {
    const c = fakeIo({});
    expect(await runCli(['serve'], c.io)).toBe(0);
    expect(c.served).toBe(1);
  });
});

describe('the bin', () => {
  it('parses stdin end to end as a real process', () => {
    const bin = fileURLToPath(new URL('../../bin/tool-parse.ts', import.meta.url));
    const tools = join(mkdtempSync(join(tmpdir(), 'tool-parse-cli-')), 'tools.json');
    writeFileSync(tools, '["look"]');
    const run = spawnSync(process.execPath, ['--import', 'tsx', bin, 'parse', '-', '--tools', tools], {
      input: CANONICAL_TEXT,
      encoding: 'utf8',
      timeout: 30_000,
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    expect(run.status).toBe(0);
    const result: unknown = JSON.parse(run.stdout);
    assertResultShape(result);
    expect(result.calls.map((c) => c.name)).toEqual(['look']);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', bin, 'parse', '--format', 'xml'], { encoding: 'utf8', timeout: 30_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--format must be one of');
  });
});
