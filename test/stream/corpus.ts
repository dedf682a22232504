/**
 * Every conformance text as a stream test input: the field-grammar cases, the reasoning cases,
 * the composer examples and the reference vectors (compose cases), each with its options, and
 * agent answers with code and call look-alikes after a region, under several registries. The
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

const CALL = '<tool_call>{"name": "look", "arguments": {"path": "a.py"}}</tool_call>\n';
const FIX = '```python\nprint(x)\nresult = get_data(a=1)\nitems.sort(key=len)\n```\n';

/**
 * Agent answers after a region: code and call look-alikes whose names the registry may or may
 * not hold (the gateway's plain lines depend on it), with what may follow them in their piece.
 */
function lookAlikeCases(): StreamCase[] {
  const texts: [string, string][] = [
    ['fix', `${CALL}Here is the fix:\n${FIX}Done.\n`],
    ['fix then call', `${CALL}Here is the fix:\n${FIX}look({"path": "b.py"})\nDone.\n`],
    ['fix then answer', `${CALL}Here is the fix:\n${FIX}<user_response>Fixed.</user_response>`],
    ['fix then region', `${CALL}Here is the fix:\n${FIX}${CALL}Done.`],
    ['bare look-alikes', `${CALL}Try:\nprint(x)\nfrob{ a: 1 }\nfrob({ a: 1 })\nSure: [frob(a=1), look(path="c")]\nNote: look(x)\n\`print(x)\`\nDone.`],
    ['unclosed fix', `${CALL}Here is the fix:\n\`\`\`python\nprint(x)\n`],
    ['tool fence', `${CALL}Then:\n\`\`\`tool\nprint(x)\n\`\`\`\n`],
    ['no region', `Here is the fix:\n${FIX}Done.\n`],
  ];
  const registries: [string, unknown[] | undefined][] = [['look', ['look']], ['look+print', ['look', 'print']], ['look+frob', ['look', 'frob']], ['none', undefined]];
  return texts.flatMap(([id, text]) =>
    registries.map(([names, tools]) => ({ id: `look-alike:${id} [${names}]`, text, options: (tools === undefined ? {} : { tools }) as ParseOptions })),
  );
}

/**
 * Every case, once per profile for those that do not fix one, and once more under `gateway`
 * with `reasoning_started: false` for those that leave it unset (the stream then releases
 * prose and reference blocks before any field region).
 */
export function streamCorpus(): StreamCase[] {
  const base = [...fieldCases(), ...reasoningCases(), ...composerCases(), ...referenceCases(), ...lookAlikeCases()];
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
