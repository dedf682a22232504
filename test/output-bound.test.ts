/**
 * Output proportional to input, by construction (docs/diagnostics.md, "Coalescing"; README,
 * "Output bound"): over the adversarial families, tag floods, deep nesting and random mixes, the
 * result's JSON is at most RESULT_BYTES_PER_TEXT_BYTE times the text's bytes plus
 * RESULT_BYTES_OVERHEAD. Sizes are counted in bytes of the serialised result, never timed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL } from '../bench/adversarial.js';
import { COALESCE_AFTER } from '../src/compose/coalesce.js';
import { parseToolCalls } from '../src/compose/parse.js';
import { renderCanonicalCall } from '../src/lex/render.js';

export const RESULT_BYTES_PER_TEXT_BYTE = 16;
export const RESULT_BYTES_OVERHEAD = 64 * 1024;

const TOOLS = [
  { name: 'look', parameters: { type: 'object', properties: { a: {}, path: { type: 'string' } } } },
  { name: 'run', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
  { name: 'edit', parameters: { type: 'object', properties: { content: { type: 'string' } } } },
  { name: 'l', parameters: { type: 'object', properties: {} } },
];

const nest = (open: string, close: string, depth: number, inner = ''): string => open.repeat(depth) + inner + close.repeat(depth);

/** Each builder: n repetitions (or n levels) of a shape that yields diagnostics or nesting. */
const FAMILIES: Readonly<Record<string, (n: number) => string>> = {
  ...ADVERSARIAL,
  'unknown tag flood': (n) => '<b>\n'.repeat(n),
  'numbered tag flood': (n) => Array.from({ length: n }, (_, i) => `<t${i}>\n`).join(''),
  'close tag flood': (n) => '</b>\n'.repeat(n),
  'stray fragment flood': (n) => '_call> x\n'.repeat(n),
  'unclosed known openers': (n) => '<tool_call>run(\n'.repeat(n),
  'empty call blocks': (n) => '<tool_call></tool_call>\n'.repeat(n),
  'empty required calls': (n) => '<tool_call>run({})</tool_call>\n'.repeat(n),
  'broken JSON blocks': (n) => '<tool_call>{"name":"look","arguments":{</tool_call>\n'.repeat(n),
  'unparsed markup': (n) => '<function=nope>\n<parameter=x>\n1\n</parameter>\n</function>\n'.repeat(n),
  'tiny calls': (n) => '<tool_call>l()</tool_call>'.repeat(n),
  'bare calls': (n) => 'look({a:1})\n'.repeat(n),
  'deep JSON arguments': (n) => `<tool_call>{"name":"look","arguments":{"a":${nest('[', ']', n)}}}</tool_call>`,
  'deep JSON arguments at the limit': (n) => `<tool_call>{"name":"look","arguments":{"a":${nest('[', ']', 120)}}}</tool_call>\n`.repeat(1 + (n >> 7)),
  'deep call-expression arguments': (n) => `<tool_call>look({a: ${nest('{a:', '}', Math.min(n, 120), '1')}})</tool_call>\n`.repeat(1 + (n >> 7)),
  'deep tag body': (n) => `<look>{"a":${nest('[', ']', n)}}</look>`,
  'deep body after a name line': (n) => `<tool_call>look\n{"a":${nest('[', ']', n)}}\n</tool_call>`,
  'deep fenced JSON': (n) => '```tool\n{"name":"look","args":{"a":' + nest('[', ']', n) + '}}\n```',
};

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

function resultBytes(text: string, toolFormat: string): number {
  return bytes(JSON.stringify(parseToolCalls(text, { tools: TOOLS, tool_format: toolFormat })));
}

describe('output bound', () => {
  it('every family stays under k x text bytes + c, in both lanes (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(FAMILIES)), fc.integer({ min: 1, max: 2500 }), fc.constantFrom('text', 'json'), (family, n, format) => {
        const text = FAMILIES[family]!(n);
        expect(resultBytes(text, format)).toBeLessThanOrEqual(RESULT_BYTES_PER_TEXT_BYTE * bytes(text) + RESULT_BYTES_OVERHEAD);
      }),
      { numRuns: 150 },
    );
  });

  it('holds at full size for every family (one run each at 4000 repetitions)', () => {
    for (const [family, build] of Object.entries(FAMILIES)) {
      const text = build(4000);
      for (const format of ['text', 'json']) {
        const size = resultBytes(text, format);
        if (size > RESULT_BYTES_PER_TEXT_BYTE * bytes(text) + RESULT_BYTES_OVERHEAD) throw new Error(`${family} (${format}): ${size} bytes for ${bytes(text)}`);
      }
    }
  });
});

describe('coalescing at the result boundary', () => {
  it('a flood of one tag gives at most COALESCE_AFTER + 1 entries per kind, the last counting the rest', () => {
    const lines = 5000;
    const r = parseToolCalls('<b>\n'.repeat(lines), { tools: TOOLS });
    const byKind = new Map<string, { entries: number; total: number }>();
    for (const v of r.protocol_violations) {
      const seen = byKind.get(v.kind) ?? { entries: 0, total: 0 };
      byKind.set(v.kind, { entries: seen.entries + 1, total: seen.total + (v.count ?? 1) });
    }
    expect(byKind.get('unknown_tag')).toEqual({ entries: COALESCE_AFTER + 1, total: lines });
    const drops = r.dropped.filter((d) => d.reason === 'salvaged_as_prose');
    expect(drops).toHaveLength(COALESCE_AFTER + 1);
    expect(drops.reduce((sum, d) => sum + (d.count ?? 1), 0)).toBe(lines);
    expect(drops.slice(0, COALESCE_AFTER).every((d) => d.count === undefined)).toBe(true);
    expect(drops[COALESCE_AFTER]!.count).toBe(lines - COALESCE_AFTER);
  });

  it('identical errors fold into one carrying the repeat count, prefix kept', () => {
    const r = parseToolCalls('<tool_call>run(\n'.repeat(1000), { tools: TOOLS });
    expect(r.tool_parse_errors).toHaveLength(COALESCE_AFTER + 1);
    const last = r.tool_parse_errors[COALESCE_AFTER]!;
    expect(last.startsWith('TOOL CALL TRUNCATED:')).toBe(true);
    expect(last.endsWith(`(repeated ${1000 - COALESCE_AFTER} more times)`)).toBe(true);
  });

  it('a few entries of a kind are returned as they are', () => {
    const r = parseToolCalls('<b>\n<c>\n<d>\n', { tools: TOOLS });
    expect(r.protocol_violations.length).toBeGreaterThan(0);
    expect(r.protocol_violations.every((v) => v.count === undefined)).toBe(true);
  });
});

describe('canonical text is linear in the arguments', () => {
  it('deep arguments render in space linear in the depth, without recursion', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = [value];
    const text = renderCanonicalCall('look', { a: value });
    // Past the pretty-printing bound each level costs two brackets.
    expect(text.length).toBeLessThan(2 * 100_000 + 4096);
    expect(text.startsWith('look({\n  "a": [\n')).toBe(true);
  });

  it('canonical_text of a call nested at the reader limit stays within a constant factor of its text', () => {
    const text = `<tool_call>look({a: ${nest('[', ']', 120, '1')}})</tool_call>`;
    const r = parseToolCalls(text, { tools: TOOLS });
    expect(r.calls).toHaveLength(1);
    expect(r.canonical_text.length).toBeLessThan(4 * text.length + 2048);
  });
});
