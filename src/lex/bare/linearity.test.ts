/**
 * The sniffer's own work is linear in the text: steps are counted by the work meter (no
 * clock), and calls into the lexer's call parsers are counted too: at most one per line, and
 * the text handed to parses that failed (each may read all of it) stays within a constant
 * multiple of the text.
 */
import { describe, expect, it, vi } from 'vitest';
import { normalizeTools } from '../../dialects/registry.js';
import { knownNamesOf } from './names.js';
import { sniff } from './sniff.js';

const parserCalls = vi.hoisted(() => ({ count: 0, failedChars: 0 }));

vi.mock('../call-expr.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../call-expr.js')>();
  return {
    ...actual,
    parseCallExpr: (text: string, name: string) => {
      parserCalls.count++;
      const parsed = actual.parseCallExpr(text, name);
      if (!parsed.ok) parserCalls.failedChars += text.length;
      return parsed;
    },
    parseObjectLiteral: (text: string, name: string) => {
      parserCalls.count++;
      const parsed = actual.parseObjectLiteral(text, name);
      if (!parsed.ok) parserCalls.failedChars += text.length;
      return parsed;
    },
  };
});

const KNOWN = knownNamesOf(normalizeTools([{ name: 'edit' }, { name: 'run' }]));

/** Steps per character allowed to any input; generous, but a constant. */
const STEPS_PER_CHAR = 40;

/** Text failed parses may be handed, per character (the sniffer's gate allows 16, plus slack). */
const FAILED_PARSE_CHARS_PER_CHAR = 17;

function measure(text: string): { steps: number; parses: number; failedChars: number; errors: string[] } {
  const meter = { steps: 0 };
  parserCalls.count = 0;
  parserCalls.failedChars = 0;
  const scan = sniff(text, KNOWN, meter, 0);
  return { steps: meter.steps, parses: parserCalls.count, failedChars: parserCalls.failedChars, errors: scan.errors };
}

const ADVERSARIAL: Record<string, (n: number) => string> = {
  'openers without a close on one line': (n) => 'edit({ a: '.repeat(n),
  'openers without a close, one per line': (n) => 'edit({ a: \n'.repeat(n),
  'unterminated strings, one per line': (n) => 'edit({ a: "\\\n'.repeat(n),
  'unterminated heredocs, one per line': (n) => 'edit({ a: <<EOF\n'.repeat(n),
  'unterminated templates, one per line': (n) => 'run{ a: `\\`\n'.repeat(n),
  'scalar-argument calls': (n) => 'run(\n'.repeat(n),
  'unknown names with objects': (n) => 'frobnicate({ a: 1 })\n'.repeat(n),
  'labelled calls': (n) => 'Hint: run(\n'.repeat(n),
  'backticks': (n) => '`'.repeat(n),
  'backtick pairs and names': (n) => '`run({` '.repeat(n),
  'fence lines': (n) => '```\n'.repeat(n),
  'nested exact fences': (n) => `${'```\n'.repeat(n)}x${'\n```'.repeat(n)}`,
  'indentation runs': (n) => `${' \t'.repeat(n)}x\n`.repeat(4),
  'unterminated quotes around wrappers': (n) => "<tool_call>'\\".repeat(n),
  'unterminated heredocs around wrappers': (n) => '<toolcall><<EOF\n'.repeat(n),
  'open JSON arrays': (n) => '[{"a":'.repeat(n),
  'JSON brackets inside strings': (n) => '{"a":"['.repeat(n),
  'deep JSON nesting': (n) => '['.repeat(n),
  'JSON-looking items without calls': (n) => '{"name": 1, "arguments": 2} '.repeat(n),
  'blank lines': (n) => 'x\n\n\n\n'.repeat(n),
};

describe('scanBareCalls work is linear', () => {
  for (const [label, make] of Object.entries(ADVERSARIAL)) {
    it(label, () => {
      const small = make(500);
      const large = make(4000);
      const a = measure(small);
      const b = measure(large);
      expect(b.steps).toBeLessThanOrEqual(STEPS_PER_CHAR * large.length + 4096);
      // 8x the text may cost at most ~8x the steps (plus a constant), never 64x.
      expect(b.steps).toBeLessThanOrEqual(9 * a.steps + 4096);
      const lines = large.split('\n').length;
      expect(b.parses).toBeLessThanOrEqual(lines + 1);
      expect(b.failedChars).toBeLessThanOrEqual(FAILED_PARSE_CHARS_PER_CHAR * large.length + (1 << 18));
    });
  }

  it('reads broken calls until the allowance is spent, then says so once', () => {
    const broken = measure('edit({ a: <<EOF\n'.repeat(20000));
    expect(broken.parses).toBeLessThan(20000);
    expect(broken.errors.filter((e) => e.startsWith('Too many malformed tool calls'))).toHaveLength(1);
    const few = measure(`${'edit({ a: <<EOF\n'.repeat(20)}run({ command: "ls" })\n`);
    expect(few.parses).toBe(21);
    expect(few.errors.some((e) => e.startsWith('Too many'))).toBe(false);
  });

  it('still finds calls in a long response', () => {
    const text = 'Some prose.\nrun({ command: "ls" })\n'.repeat(2000);
    const { steps, parses } = measure(text);
    expect(parses).toBe(2000);
    expect(steps).toBeLessThanOrEqual(STEPS_PER_CHAR * text.length);
  });
});
