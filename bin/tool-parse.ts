#!/usr/bin/env node
/** The `tool-parse` executable: wires bin/cli.ts to the process. */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { runCli } from './cli.js';

const status = await runCli(process.argv.slice(2), {
  readText: (path) => readFile(path, 'utf8'),
  readStdin: () => text(process.stdin),
  stdout: (chunk) => void process.stdout.write(chunk),
  stderr: (chunk) => void process.stderr.write(chunk),
  serve: async () => {
    const { main } = await import('../src/server/start.js');
    await main();
  },
});
// `serve` keeps running on its listener; every other command is done.
if (process.argv[2] !== 'serve' || status !== 0) process.exitCode = status;
