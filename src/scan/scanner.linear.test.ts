/**
 * Linear work on adversarial input, measured with the scanner's work counter (characters
 * examined, including spans and heredocs handed to the lexer primitives), never a clock:
 * the work for 8n copies of a pattern stays within ~10x the work for n copies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { workRatio } from '../../test/support/string-work.js';
import type { ScanStats } from '../lex/spans.js';
import { stripThinkingTags } from '../lex/thinking.js';
import { tilingViolation } from './invariants.js';
import { scanUnits } from './scanner.js';
import { validateScanSpec } from './validate.js';

const spec = validateScanSpec(buildScanSpec(['look', 'edit', 'run']));

function workFor(text: string): number {
  const stats: ScanStats = { work: 0 };
  const result = scanUnits(text, spec, stats);
  expect(tilingViolation(result)).toBeNull();
  return stats.work;
}

/** Pattern builders: `n` repetitions of one adversarial shape (some with a prefix or suffix). */
const adversarial: Record<string, (n: number) => string> = {
  'unclosed call openers': (n) => '<tool_call>\nedit({ a: 1 })\n'.repeat(n),
  'unclosed call openers on one line': (n) => '<tool_call>'.repeat(n),
  'unclosed heredocs in prose': (n) => 'x <<EOF\nbody line\n'.repeat(n),
  'counted heredocs that never close': (n) => 'x <<E:99999\nbody\n'.repeat(n),
  'counted heredocs with a wrong close line': (n) => '<tool_call>\nrun({ a: <<E:2\nx\ny\nF\n'.repeat(n),
  'escaped heredocs that never close': (n) => 'x <<EOF\\nabc\\n\n'.repeat(n),
  'unclosed heredocs in a call body': (n) => '<tool_call>\nrun({ command: <<EOF\necho\n'.repeat(n),
  'lone < mid-line': (n) => 'a < b '.repeat(n),
  'lone < at line starts': (n) => '<\n'.repeat(n),
  'unknown tags without >': (n) => '<notes attr\n'.repeat(n),
  'unbalanced quotes inside a block': (n) => '<tool_call>\n"\n'.repeat(n),
  'apostrophes inside a block': (n) => `<tool_call>\nI'll look\n`.repeat(n),
  'deep brace nesting': (n) => `<tool_call>look(${'{ a: '.repeat(n)}1${' }'.repeat(n)})</tool_call>`,
  // The value parser stops at 512 levels, so each shape stays on one side of that limit at
  // both sizes (one crossing it would compare an angle call with a tag fragment).
  'deep brace nesting in angle calls within the depth limit': (n) => `<look(${'{ a: '.repeat(500)}1${' }'.repeat(500)})>\n`.repeat(n / 100),
  'deep brace nesting in an angle call past the depth limit': (n) => `<look(${'{ a: '.repeat(8 * n)}1${' }'.repeat(8 * n)})>`,
  'fence toggles': (n) => '```\n<tool_call>look({})</tool_call>\n'.repeat(n),
  'stray closes': (n) => '</tool_call>\n'.repeat(n),
  'unclosed thinking tags': (n) => '<think>thought\n'.repeat(n),
  'stray thinking closes': (n) => 'a</think>b\n'.repeat(n),
  'unclosed plain blocks': (n) => '<done>\n'.repeat(n),
  'unclosed markup': (n) => '<invoke name="x">\n'.repeat(n),
  'reserved stubs without close': (n) => '[[CALL]run({ a: "x" })\n'.repeat(n),
  'reserved stubs with open quotes': (n) => '[[CALL]run({ a: "x\n'.repeat(n),
  'harmony frames without a call marker': (n) => '<|start|>assistant '.repeat(n),
  'harmony frame prefixes without suffix': (n) => '<|start '.repeat(n),
  'harmony headers then newline': (n) => '<|channel|>analysis\n'.repeat(n),
  'message markers after a header prefix': (n) => 'tool_call to=x' + '<|message|>y'.repeat(n),
  'angle calls of known tools': (n) => '<look({ a: 1 })>\n'.repeat(n),
  'angle calls that fail to parse': (n) => '<look({ a: })>\n'.repeat(n),
  'adjacent blocks after long whitespace': (n) => '<tool_call>look({})</tool_call>' + ' '.repeat(n) + 'x <y\n'.repeat(n),
};

describe('scanUnits does linear work', () => {
  for (const [name, build] of Object.entries(adversarial)) {
    it(name, () => {
      const small = workFor(build(200));
      const large = workFor(build(1600));
      expect(small).toBeGreaterThan(0);
      expect(large / small).toBeLessThanOrEqual(10);
    });
  }
});

describe('angle calls that fail to parse do linear work, counting the call parser', () => {
  // Every character read through String.prototype counts, so the value parser's searches for a
  // missing close (string recoveries, comments, heredoc bodies) are included, not only the
  // scanner's own counter.
  const shapes: Record<string, (n: number) => string> = {
    'unterminated double quote': (n) => '<look({ a: "x\n'.repeat(n),
    'unterminated single quote': (n) => "<look({ a: 'x\n".repeat(n),
    'unterminated template': (n) => '<look({ a: `x\n'.repeat(n),
    'over-closed string': (n) => '<look({ a: "x"y", b: 1\n'.repeat(n),
    'unclosed block comment': (n) => '<look({ a: /* x\n'.repeat(n),
    'unclosed plain heredoc': (n) => '<look({ a: <<EOF\nx\n'.repeat(n),
    'unclosed escaped heredoc': (n) => '<look({ a: <<EOF\\nx\\n\n'.repeat(n),
    'unclosed template interpolation': (n) => '<look({ a: `${x\n'.repeat(n),
    'missing close paren': (n) => '<look({ a: 1 }\n'.repeat(n),
  };
  for (const [name, build] of Object.entries(shapes)) {
    it(name, () => {
      expect(workRatio(build, (text) => scanUnits(text, spec), 300)).toBeLessThanOrEqual(12);
    });
  }
});

describe('stripThinkingTags does linear work', () => {
  const shapes: Record<string, (n: number) => string> = {
    'unterminated quotes': (n) => `<think>x</think>${`it's "a\n`.repeat(n)}`,
    'unclosed think openers': (n) => '<think>'.repeat(n),
    'unterminated heredocs': (n) => `</think>${'<<EOF\nx\n'.repeat(n)}`,
  };
  for (const [name, build] of Object.entries(shapes)) {
    it(name, () => {
      const measure = (text: string): number => {
        const stats: ScanStats = { work: 0 };
        stripThinkingTags(text, stats);
        return stats.work;
      };
      const small = measure(build(200));
      expect(measure(build(1600)) / small).toBeLessThanOrEqual(10);
    });
  }
});

describe('random repeated patterns do linear work', () => {
  const pieces = [
    '<', '>', '/', '<tool_call>', '</tool_call>', '<toolcall>', '<tool_call >', '<tool_calls>', '<<EOF\n', '<<EOF\\n',
    '<<E:1\n', 'EOF', ' EOF })', '})', '"', "'", '`', '```', '\\', '\\n', '\n', ' ', '\t', '\u00a0', '<|', '|>',
    '<|message|>', '<|start|>', '<|channel|>', '<|end|>', 'tool_call to=', '<tool_call<|', '<assistant<|', '[[CALL]', ']',
    '<think>', '</think>', 'look({', '{', '}', '(', ')', '<done>', '</done>', '<assistant_prose>', '<function=',
    '</function>', '<invoke name=', '<function_calls>', '<notes>', 'x',
  ];
  it('work(800 copies) <= 12 x work(100 copies), with any prefix and suffix', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }), fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), (parts, prefix, suffix) => {
        const pattern = parts.join('');
        const small = workFor(prefix + pattern.repeat(100) + suffix);
        const large = workFor(prefix + pattern.repeat(800) + suffix);
        expect(large / small).toBeLessThanOrEqual(12);
      }),
      { numRuns: 400 },
    );
  });
});
