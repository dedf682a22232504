/**
 * The sniffer's work is linear in the text, parses of broken calls included: steps are counted
 * by the work meter, every character the lexer reads is counted by `countStringWork` (no clock),
 * and calls into the lexer's call parsers are counted too (at most one per line start).
 */
import { describe, expect, it, vi } from 'vitest';
import { countStringWork } from '../../../test/support/string-work.js';
import { normalizeTools } from '../../dialects/registry.js';
import { knownNamesOf } from './names.js';
import { sniff } from './sniff.js';

const parserCalls = vi.hoisted(() => ({ count: 0 }));

vi.mock('../../lex/call-expr.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../lex/call-expr.js')>();
  return {
    ...actual,
    parseCallExprAt: (...args: Parameters<typeof actual.parseCallExprAt>) => {
      parserCalls.count++;
      return actual.parseCallExprAt(...args);
    },
    parseObjectLiteralAt: (...args: Parameters<typeof actual.parseObjectLiteralAt>) => {
      parserCalls.count++;
      return actual.parseObjectLiteralAt(...args);
    },
  };
});

const KNOWN = knownNamesOf(normalizeTools([{ name: 'edit' }, { name: 'run' }]));

/** Meter steps per character allowed to any input; generous, but a constant. */
const STEPS_PER_CHAR = 40;

/** Characters read (string work) per character of text; generous, but a constant. */
const READS_PER_CHAR = 100;

/** 8x the text may cost at most this many times the work (linear is 8, quadratic 64). */
const MAX_GROWTH = 10;

const TOO_MANY = 'Too many malformed tool calls';

function measure(text: string): { steps: number; reads: number; parses: number; errors: readonly string[] } {
  const meter = { steps: 0 };
  parserCalls.count = 0;
  let errors: readonly string[] = [];
  const reads = countStringWork(() => {
    errors = sniff(text, KNOWN, meter, 0).errors;
  });
  return { steps: meter.steps, reads, parses: parserCalls.count, errors };
}

const ADVERSARIAL: Record<string, (n: number) => string> = {
  'openers without a close on one line': (n) => 'edit({ a: '.repeat(n),
  'openers without a close, one per line': (n) => 'edit({ a: \n'.repeat(n),
  'unterminated strings, one per line': (n) => 'edit({ a: "\\\n'.repeat(n),
  'unterminated heredocs, one per line': (n) => 'edit({ a: <<EOF\n'.repeat(n),
  'heredocs all closed by the last line': (n) => `${'edit({ a: <<EOF\n'.repeat(n)}EOF x\n`,
  'heredocs before a long last line': (n) => `${'edit({ a: <<EOF\n'.repeat(n)}${'x'.repeat(8 * n)}`,
  'heredocs before a call-tail last line': (n) => `${'edit({ a: <<EOF\n'.repeat(n)}})\n`,
  'counted heredocs longer than the text, one per line': (n) => 'edit({ a: <<E:999999999\n'.repeat(n),
  'counted heredocs of one line, one per line': (n) => `${'edit({ a: <<E:1\n'.repeat(n)}E\n`,
  'escaped heredocs, one per line': (n) => 'edit({ a: <<EOF\\nx\n'.repeat(n),
  'escaped heredocs all closed at the end': (n) => `${'edit({ a: <<EOF\\nx\\\\\n'.repeat(n)}\\nEOF\\n x`,
  'heredocs before trailing whitespace': (n) => `${'edit({ a: <<EOF\n'.repeat(n)}x${' '.repeat(8 * n)}`,
  'quoted heredocs, one per line': (n) => 'edit({ a: "<<EOF\n'.repeat(n),
  'unclosed block comments, one per line': (n) => 'edit({ /*\n'.repeat(n),
  'block comments all closed by the last line': (n) => `${'edit({ /*\n'.repeat(n)}*/ x\n`,
  'over-closed strings recovered at the end': (n) => `${'edit({ a: "x" y "\n'.repeat(n)}"}x\n`,
  'over-closed strings never recovered': (n) => 'edit({ a: "x" y\n'.repeat(n),
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
      expect(b.steps).toBeLessThanOrEqual(MAX_GROWTH * a.steps + 4096);
      expect(b.reads).toBeLessThanOrEqual(READS_PER_CHAR * large.length);
      expect(b.reads).toBeLessThanOrEqual(MAX_GROWTH * a.reads);
      expect(b.parses).toBeLessThanOrEqual(large.split('\n').length + 1);
      // The shapes above are all shared by the memo: the safety net never closes on them.
      expect(b.errors.some((e) => e.startsWith(TOO_MANY))).toBe(false);
    });
  }

  it('reads every broken call of a long response and reports each one', () => {
    const broken = measure('edit({ a: <<EOF\n'.repeat(20000));
    expect(broken.parses).toBe(20000);
    expect(broken.errors).toHaveLength(20000);
    expect(broken.errors.every((e) => e.includes('heredoc <<EOF is never closed'))).toBe(true);
    const few = measure(`${'edit({ a: <<EOF\n'.repeat(20)}run({ command: "ls" })\n`);
    expect(few.parses).toBe(21);
    expect(few.errors).toHaveLength(20);
  });

  it('keeps a safety net for the searches the memo does not share, and says so once', () => {
    // A template interpolation that never closes is read to the end from every line start: the
    // one shape the memo leaves to the net.
    const interpolations = (n: number): string => 'edit({ a: `${\n'.repeat(n);
    const large = measure(interpolations(20000));
    expect(large.errors.filter((e) => e.startsWith(TOO_MANY))).toHaveLength(1);
    expect(large.parses).toBeLessThan(20000);
    expect(large.reads).toBeLessThanOrEqual(READS_PER_CHAR * interpolations(20000).length);
    const few = measure(interpolations(100));
    expect(few.parses).toBe(100);
    expect(few.errors.some((e) => e.startsWith(TOO_MANY))).toBe(false);
  });

  it('still finds calls in a long response', () => {
    const text = 'Some prose.\nrun({ command: "ls" })\n'.repeat(2000);
    const { steps, parses, errors } = measure(text);
    expect(parses).toBe(2000);
    expect(errors).toEqual([]);
    expect(steps).toBeLessThanOrEqual(STEPS_PER_CHAR * text.length);
  });
});
