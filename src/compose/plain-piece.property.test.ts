import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { normalizeTools } from '../dialects/registry.js';
import { ALTERNATE_ENVELOPE_OPENERS, DIALECTS, ENVELOPE_OPENERS, TAG_LITERALS } from '../dialects/vocabulary.js';
import { scanUnits, validateScanSpec } from '../scan/index.js';
import { composeContext, type Profile } from './context.js';
import type { TraceEntry } from './funnel.js';
import { markerStarts, plainScan } from './plain-piece.js';
import { taggedLadder, taggedLane } from './tagged-lane.js';

// Pieces without a marker character that, joined at random, reach every ending of a stray text:
// line calls and native payloads the sniffer runs, canonical tool fences held for fenced
// recovery, protocol fragments (`_call>`, `user_response>`), blanks the scanner and `trim` see
// differently, and plain prose.
const PLAIN = [
  'look', 'run', 'edit', 'frobnicate', 'I will read it', 'Hint:', 'call:', 'return ', 'x', '1', ',', ':', '.', ' ', '\t', '\n',
  '\r', '\f', '\v', '\u00a0', '\u2028', '\ufeff', '(', ')', '{', '}', ']', '"', "'", '`', '```', '```tool\n', '~~~tool\n',
  '```json\n', '```\n', '>', '_call>', 'user_response>', '/done>', 'tool_call', '"name"', '"arguments"', '"path"', ': ',
  '{"name": "look", "arguments": {"path": "a"}}', 'look({"path": "a"})', 'run(command="ls")', 'TOOL_CALLS]', '|', 'EOF',
];
// A few markers, so texts the shortcut must refuse are generated too.
const MARKED = ['<', '[', '<tool_call>', '</tool_call>', '[TOOL_CALLS]', '[[CALL]', '<think>', '<user_response>'];

const tools = normalizeTools(['look', 'run', 'edit']);
const CONTEXTS = (['gateway', 'harn'] as Profile[]).flatMap((profile) => [null, tools].map((registry) => ({ profile, registry })));

describe('plainScan: the tagged lane of a piece without a marker character', () => {
  it('names the first character of every marker of the entry ladder and of the scan spec', () => {
    const spec = validateScanSpec(buildScanSpec(tools));
    const starts = markerStarts(spec);
    const markers = [DIALECTS.MISTRAL_CALL_MARKER, DIALECTS.DSML_MARKER, TAG_LITERALS.tool_call_open, ...ALTERNATE_ENVELOPE_OPENERS, ...ENVELOPE_OPENERS.map((o) => o.open), ...spec.reserved_openers];
    for (const marker of markers) expect(starts).toContain(marker.charAt(0));
    expect(starts).toContain('<');
  });

  it('is the scanner\'s scan where it applies, and the lane reads every text as the whole ladder does', () => {
    const seen = { plain: 0, marked: 0, calls: 0, held: 0, fragments: 0, prose: 0 };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PLAIN), { maxLength: 24 }),
        fc.array(fc.constantFrom(...MARKED), { maxLength: 2 }),
        fc.nat(),
        fc.constantFrom(...CONTEXTS.keys()),
        fc.boolean(),
        (plain, marked, at, which, traced) => {
          const pieces = [...plain];
          for (const marker of marked) pieces.splice(at % (pieces.length + 1), 0, marker);
          const text = pieces.join('');
          const { profile, registry } = CONTEXTS[which]!;
          const spec = validateScanSpec(buildScanSpec(registry));
          const scan = plainScan(text, markerStarts(spec));
          if (scan !== null) {
            seen.plain++;
            expect(scan).toEqual(scanUnits(text, spec));
          } else seen.marked++;
          const lane: TraceEntry[] | null = traced ? [] : null;
          const ladder: TraceEntry[] | null = traced ? [] : null;
          const got = taggedLane(text, composeContext(registry, 'text', lane, profile));
          const want = taggedLadder(text, composeContext(registry, 'text', ladder, profile));
          expect(got).toEqual(want);
          expect(lane).toEqual(ladder);
          if (scan === null) return;
          if (got.calls.length > 0) seen.calls++;
          if (got.dropped.some((d) => d.reason === 'fenced_narration') || got.protocol_violations.some((v) => v.kind === 'recovered_dialect')) seen.held++;
          if (got.protocol_violations.some((v) => v.kind === 'stray_text')) seen.fragments++;
          if (got.prose !== '' && got.calls.length === 0) seen.prose++;
        },
      ),
      { numRuns: 6000 },
    );
    // Not vacuous: the shortcut is taken for most texts, refused for some, and its texts reach
    // every ending of the walk.
    expect(seen.plain).toBeGreaterThan(1500);
    expect(seen.marked).toBeGreaterThan(1500);
    for (const count of [seen.calls, seen.held, seen.fragments, seen.prose]) expect(count).toBeGreaterThan(50);
  });
});
