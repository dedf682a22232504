/**
 * The library the bench times. `npm run bench` builds first and sets `BENCH_LIBRARY=dist`, so
 * the figures are those of the compiled JavaScript a user runs (`dist/`, emitted by tsc). Left
 * unset (tests, `npx tsx bench/…` by hand) it is the TypeScript source as tsx loads it, which
 * is slower: tsx compiles with esbuild's `keepNames`, wrapping every function expression in a
 * naming call (up to 30 % of a parse on closure-heavy readers), which the build does not have.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Library from '../src/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function load(): Promise<{ lib: typeof Library; from: string }> {
  if (process.env.BENCH_LIBRARY !== 'dist') return { lib: await import('../src/index.js'), from: 'src/ (TypeScript through tsx)' };
  const entry = resolve(root, 'dist/src/index.js');
  if (!existsSync(entry)) throw new Error('BENCH_LIBRARY=dist but dist/src/index.js is missing: run `npm run build` first');
  return { lib: (await import(pathToFileURL(entry).href)) as typeof Library, from: 'dist/ (compiled by tsc)' };
}

const loaded = await load();
export const lib = loaded.lib;
/** Which build the figures are of, for the report's header. */
export const LIBRARY_FROM = loaded.from;
