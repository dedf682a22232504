/**
 * Converts the reference vectors into conformance/reference/<group>.json.
 *
 *   npx tsx conformance/tools/import-vectors.ts <path of the shared folder>
 *
 * Run by hand when the vectors change; never by build or test (nothing in the project reads the
 * shared folder). Grouping follows the seed's fixture inventory; each check is classified as
 * structural or message (conformance/lib/classify.ts).
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyCheck } from '../lib/classify.js';
import type { Check } from '../lib/checks.js';
import type { CaseKind, ReferenceCase, ReferenceGroup } from '../lib/cases.js';
import { REFERENCE_DIR } from '../lib/cases.js';

interface RawVector {
  id: string;
  entry: string;
  kind: CaseKind;
  input: string;
  tools: unknown[] | null;
  options: Record<string, unknown>;
  checks: Check[];
  note: string;
}

/** Reference test file stem -> group (seed PORT_PLAN.md, "Fixture migration inventory"). */
const RUST_TEST_GROUPS: Readonly<Record<string, string>> = {
  heredoc_and_messages: 'heredoc',
  core_parser: 'core',
  implicit_call_paren_close: 'core',
  fenced_json_tests: 'fenced',
  corpus_conformance: 'corpus',
  function_markup: 'markup',
  reserved_token: 'reserved',
  entity_decode: 'entities',
  string_escape_fidelity: 'escapes',
  non_dialect: 'non_dialect',
  scan_tests: 'scan',
};

/** Harn fixture families: `tool_parse_<family>[_topic]` -> `harn_<family>`. Longest first. */
const HARN_FAMILIES = [
  'canonical_replay',
  'provider_dialects',
  'turn_unique_ids',
  'native_json',
  'violations',
  'entities',
  'reserved',
  'heredoc',
  'escapes',
  'markup',
  'fenced',
  'corpus',
  'tagged',
  'drops',
  'core',
];

/** validation_and_tagged splits into `violations` (tests about flagging the protocol) and `tagged`. */
const VIOLATION_TEST_NAME = /flags_|violation|stray|unknown_top_level|unclosed_user_response|empty_done/;

function groupOf(id: string): string {
  const [stem = '', test = ''] = id.split('::');
  const rust = RUST_TEST_GROUPS[stem];
  if (rust !== undefined) return rust;
  if (stem === 'validation_and_tagged') return VIOLATION_TEST_NAME.test(test) ? 'violations' : 'tagged';
  if (stem.startsWith('agent_')) return 'harn_agent';
  if (stem.startsWith('tool_parse_')) {
    const rest = stem.slice('tool_parse_'.length);
    const family = HARN_FAMILIES.find((name) => rest === name || rest.startsWith(`${name}_`));
    if (family !== undefined) return `harn_${family}`;
  }
  throw new Error(`no group for vector ${id}: add its stem to import-vectors.ts`);
}

function isInformational(vector: RawVector): boolean {
  return vector.kind === 'primitive' || vector.kind === 'native' || vector.entry === 'agent_loop (mock LLM)';
}

function toCase(vector: RawVector): ReferenceCase {
  return {
    id: vector.id,
    entry: vector.entry,
    kind: vector.kind,
    informational: isInformational(vector),
    input: vector.input,
    tools: vector.tools,
    options: vector.options,
    checks: vector.checks.map(classifyCheck),
    note: vector.note,
  };
}

function main(sharedDir: string | undefined): void {
  if (sharedDir === undefined) {
    process.stderr.write('usage: npx tsx conformance/tools/import-vectors.ts <shared folder>\n');
    process.exit(2);
  }
  const vectorDir = join(sharedDir, 'reference-vectors');
  const vectors: RawVector[] = readdirSync(vectorDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => JSON.parse(readFileSync(join(vectorDir, name), 'utf8')) as RawVector[]);

  const seen = new Set<string>();
  const groups = new Map<string, ReferenceGroup>();
  for (const vector of vectors) {
    if (seen.has(vector.id)) throw new Error(`duplicate vector id ${vector.id}`);
    seen.add(vector.id);
    const name = groupOf(vector.id);
    let group = groups.get(name);
    if (group === undefined) {
      group = { group: name, sources: [], cases: [] };
      groups.set(name, group);
    }
    const stem = vector.id.split('::')[0] ?? '';
    if (!group.sources.includes(stem)) group.sources.push(stem);
    group.cases.push(toCase(vector));
  }

  rmSync(REFERENCE_DIR, { recursive: true, force: true });
  mkdirSync(REFERENCE_DIR, { recursive: true });
  for (const group of groups.values()) {
    writeFileSync(join(REFERENCE_DIR, `${group.group}.json`), `${JSON.stringify(group, null, 2)}\n`);
  }
  const counts = [...groups.values()].map((group) => `${group.group} ${group.cases.length}`).join(', ');
  process.stdout.write(`wrote ${vectors.length} cases in ${groups.size} groups: ${counts}\n`);
}

main(process.argv[2]);
