/**
 * Every conformance text as a stream test input: the field-grammar cases, the reasoning cases,
 * the composer examples and the reference vectors (compose cases), each with its options. The
 * stream invariant is checked under both profiles over all of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFieldCaseFiles } from '../../conformance/field/lib/load.js';
import type { ParseOptions } from '../../src/index.js';

export interface StreamCase {
  readonly id: string;
  readonly text: string;
  readonly options: ParseOptions;
}

const ROOT = fileURLToPath(new URL('../../conformance', import.meta.url));

function json<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function fieldCases(): StreamCase[] {
  return loadFieldCaseFiles().flatMap((file) =>
    file.cases.map((c) => {
      const options: Record<string, unknown> = { profile: 'gateway', ...(c.options ?? {}) };
      if (c.tools !== null) options.tools = c.tools;
      return { id: `field:${c.id}`, text: c.text, options: options as ParseOptions };
    }),
  );
}

function reasoningCases(): StreamCase[] {
  const file = json<{ tools: unknown[]; cases: { id: string; input: string; options?: Record<string, unknown>; tools?: null }[] }>(join(ROOT, 'reasoning/cases.json'));
  return file.cases.map((c) => {
    const options: Record<string, unknown> = { profile: 'gateway', ...(c.options ?? {}) };
    if (c.tools !== null) options.tools = file.tools;
    return { id: `reasoning:${c.id}`, text: c.input, options: options as ParseOptions };
  });
}

function composerCases(): StreamCase[] {
  const file = json<{ examples: { id: string; input: string; tools?: unknown[] }[] }>(join(ROOT, 'composer/examples.json'));
  return file.examples.map((c) => ({ id: c.id, text: c.input, options: c.tools === undefined ? {} : { tools: c.tools } }));
}

function referenceCases(): StreamCase[] {
  const dir = join(ROOT, 'reference');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => json<{ cases: { id: string; kind: string; input: string; tools: unknown[] | null; options: Record<string, unknown> }[] }>(join(dir, name)).cases)
    .filter((c) => c.kind === 'compose' && typeof c.input === 'string')
    .map((c) => {
      const options: Record<string, unknown> = {};
      if (typeof c.options.tool_format === 'string') options.tool_format = c.options.tool_format;
      if (c.tools !== null) options.tools = c.tools;
      return { id: c.id, text: c.input, options: options as ParseOptions };
    });
}

/**
 * Every case, once per profile for those that do not fix one, and once more under `gateway`
 * with `reasoning_started: false` for those that leave it unset (the stream then releases
 * prose and reference blocks before any field region).
 */
export function streamCorpus(): StreamCase[] {
  const base = [...fieldCases(), ...reasoningCases(), ...composerCases(), ...referenceCases()];
  const out: StreamCase[] = [];
  for (const c of base) {
    out.push(c);
    if (c.options.profile === undefined) out.push({ id: `${c.id} (harn)`, text: c.text, options: { ...c.options, profile: 'harn' } });
    if (c.options.profile !== 'harn' && c.options.reasoning_started === undefined) {
      out.push({ id: `${c.id} (reasoning_started: false)`, text: c.text, options: { ...c.options, reasoning_started: false } });
    }
  }
  return out;
}
