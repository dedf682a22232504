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

/** Reference test file stem -> group (the reference's fixture inventory). */
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

/** Every `scan()` call of the reference asserts that the units tile the source (the scan notes say so). */
const TILING: Check = { path: '', op: 'invariant', value: 'scan_tiling' };

/**
 * Assertions the reference makes in code that its vectors state only in their notes, written
 * out as checks (stored with `origin: "note"`).
 */
const FROM_NOTES: Readonly<Record<string, readonly Check[]>> = {
  // "exactly one unit has kind fenced_line and its text is <tool_call>look({})</tool_call>"
  'scan_tests::fenced_content_is_consumed_a_line_at_a_time': [
    { path: 'units', op: 'where_count', value: { where: { kind: 'fenced_line' }, count: 1 } },
    { path: 'units', op: 'where_count', value: { where: { kind: 'fenced_line', text: '<tool_call>look({})</tool_call>' }, count: 1 } },
  ],
  // "no block/unclosed_block unit has reserved == true"
  'scan_tests::a_reserved_opener_inside_a_fence_is_an_example_not_an_action': [
    { path: 'units', op: 'where_count', value: { where: { kind: 'block', reserved: true }, count: 0 } },
    { path: 'units', op: 'where_count', value: { where: { kind: 'unclosed_block', reserved: true }, count: 0 } },
  ],
  'scan_tests::every_unit_ships_the_bytes_it_covers_pre_sliced': [{ path: '', op: 'invariant', value: 'scan_slices' }],
  // the pair's identical unit kinds are checked across the two cases by reference.test.ts
  'scan_tests::unit_count_tracks_structure_not_bytes-2': [
    // "its scanned source must be >100x the small one" (282 characters)
    { path: 'source.length', op: 'gte', value: 28201 },
  ],
  // the shape detector's findings surface as `unparsed_tool_syntax` violations in the result
  'agent_unparsed_tool_syntax_shape::fenced_rust_source': [
    { path: 'protocol_violations', op: 'where_count', value: { where: { kind: 'unparsed_tool_syntax' }, count: 0 } },
  ],
  'agent_unparsed_tool_syntax_shape::fenced_html_source': [
    { path: 'protocol_violations', op: 'where_count', value: { where: { kind: 'unparsed_tool_syntax' }, count: 0 } },
  ],
  'agent_unparsed_tool_syntax_shape::prose_about_protocol': [
    { path: 'protocol_violations', op: 'where_count', value: { where: { kind: 'unparsed_tool_syntax' }, count: 0 } },
  ],
};

/** Cases whose assertion cannot be put against one parse result. */
const NOT_EXPRESSIBLE: Readonly<Record<string, string>> = {
  'reserved_token::streaming_and_non_streaming_remap_parse_identically-1':
    'compares a streaming reassembly with the whole-text parse; tool-parse has no streaming entry',
  'reserved_token::streaming_and_non_streaming_remap_parse_identically-2':
    'compares a streaming reassembly with the whole-text parse; tool-parse has no streaming entry',
  'tool_parse_fenced_verbatim::literal_heredoc_opener_value_without_a_body': 'the reference fixture has no baseline block for it, so it states nothing',
  'tool_parse_violations::corrupted_response_tag_fragment': 'the reference fixture has no baseline block for it, so it states nothing',
};

function informationalReason(vector: RawVector): string | undefined {
  if (vector.kind === 'primitive') return `reference helper ${vector.entry}, not ported`;
  if (vector.kind === 'native') return `native tool channel (${vector.entry}), out of the port's scope`;
  if (vector.entry === 'agent_loop (mock LLM)') return 'asserts agent-loop behaviour, not parse fields';
  return NOT_EXPRESSIBLE[vector.id];
}

function toCase(vector: RawVector): ReferenceCase {
  const reason = informationalReason(vector);
  const fromNotes = [...(vector.entry === 'scan_units' ? [TILING] : []), ...(FROM_NOTES[vector.id] ?? [])];
  const c: ReferenceCase = {
    id: vector.id,
    entry: vector.entry,
    kind: vector.kind,
    informational: reason !== undefined,
    input: vector.input,
    tools: vector.tools,
    options: vector.options,
    checks: [...vector.checks.map(classifyCheck), ...fromNotes.map((check) => ({ ...classifyCheck(check), origin: 'note' as const }))],
    note: vector.note,
  };
  if (reason !== undefined) c.informational_reason = reason;
  return c;
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

  const known = new Set(vectors.map((vector) => vector.id));
  for (const id of [...Object.keys(FROM_NOTES), ...Object.keys(NOT_EXPRESSIBLE)]) {
    if (!known.has(id)) throw new Error(`import-vectors.ts names ${id}, which is no vector id`);
  }
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
