/**
 * A shared ScanMemo changes how much is read, never what a parse returns: parsing every call
 * start of a text in place with one memo gives exactly what parsing a copy from each start
 * without one gives, in text order (the sniffer's order) and in any other order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countStringWork } from '../../test/support/string-work.js';
import { parseCallExpr, parseCallExprAt, parseObjectLiteral, parseObjectLiteralAt } from './call-expr.js';
import { ForwardSearch, ScanMemo } from './scan-memo.js';

/** Pieces that open, close or break the memoised searches. */
const PIECES = [
  'edit(', 'edit({ a: ', 'edit{ a: ', '<<EOF\n', '<<EOF', 'EOF\n', '  EOF })\n', '<<E:1\n', '<<E:2\n', 'E\n',
  '"', "'", '\\', '\\"', '\\n', '\\u{41}', '\\ud800', 'x', ' y ', '"x" y "', '"}', '},', ', ', '})\n', '})',
  '/*', '*/', '//c\n', '`', '${', '}', '\n', ' ', 'b: 1', '[', ']', '"<<EOF\n', '\\nEOF', '\\nEOF\\n', '\\\\',
];

const OPENERS = ['edit({ a: <<EOF\\n', 'edit({ a: <<EOF\\n\\\\', 'edit({ a: ', 'edit({ a: "x" y ', 'edit{ a: ', 'edit({ /*', 'edit({ a: <<EOF\n', 'edit({ a: "', 'EOF', ''];

/** Lines that mostly start with a call, so later parses start inside what earlier ones read. */
const lineArb = fc
  .tuple(fc.constantFrom(...OPENERS), fc.array(fc.constantFrom(...PIECES), { maxLength: 5 }))
  .map(([opener, parts]) => `${opener}${parts.join('')}\n`);

const textArb = fc.array(lineArb, { maxLength: 12 }).map((lines) => lines.join(''));

function callStarts(text: string): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf('edit'); at >= 0; at = text.indexOf('edit', at + 1)) starts.push(at);
  return starts;
}

function parsedWithoutMemo(text: string, at: number): unknown {
  const rest = text.slice(at);
  return rest.charCodeAt(4) === 0x7b ? parseObjectLiteral(rest.slice(4), 'edit') : parseCallExpr(rest, 'edit');
}

function parsedWithMemo(text: string, at: number, memo: ScanMemo): unknown {
  if (text.charCodeAt(at + 4) !== 0x7b) return parseCallExprAt(text, at, 'edit', memo);
  const literal = parseObjectLiteralAt(text, at + 4, 'edit', memo);
  return literal;
}

describe('ScanMemo', () => {
  it('leaves every parse result unchanged, in text order and in shuffled order', () => {
    fc.assert(
      fc.property(textArb, fc.infiniteStream(fc.nat()), (text, randoms) => {
        const starts = callStarts(text);
        const expected = starts.map((at) => parsedWithoutMemo(text, at));
        const inOrder = new ScanMemo(text);
        expect(starts.map((at) => parsedWithMemo(text, at, inOrder))).toEqual(expected);
        const shuffled = starts.map((at, i) => ({ at, i, key: randoms.next().value as number })).sort((a, b) => a.key - b.key);
        const anyOrder = new ScanMemo(text);
        for (const { at, i } of shuffled) expect(parsedWithMemo(text, at, anyOrder)).toEqual(expected[i]);
      }),
      { numRuns: 3000 },
    );
  });

  it('makes repeated parses of one broken text linear where copies are quadratic', () => {
    const text = 'edit({ a: <<EOF\n'.repeat(4000);
    const starts = callStarts(text);
    const shared = countStringWork(() => {
      const memo = new ScanMemo(text);
      for (const at of starts) parseCallExprAt(text, at, 'edit', memo);
    });
    const alone = countStringWork(() => {
      for (const at of starts.slice(0, 400)) parseCallExprAt(text, at, 'edit', undefined);
    });
    // A tenth of the starts without the memo already reads far more than all of them with it.
    expect(shared).toBeLessThan(20 * text.length);
    expect(alone).toBeGreaterThan(10 * shared);
  });

  it('answers forward searches from the last one while a start stays inside it', () => {
    const text = 'a*/bc*/d';
    const searched: number[] = [];
    const closes = new ForwardSearch();
    const find = (start: number): number =>
      closes.find(start, (from) => {
        searched.push(from);
        return text.indexOf('*/', from);
      });
    expect([find(0), find(1), find(2), find(3), find(5), find(6)]).toEqual([1, 1, 5, 5, 5, -1]);
    expect(searched).toEqual([0, 2, 6]);
  });

  it('finds the n-th line feed after an offset', () => {
    const memo = new ScanMemo('a\nb\nc\n');
    expect([memo.nthLineFeed(0, 0), memo.nthLineFeed(0, 2), memo.nthLineFeed(2, 0), memo.nthLineFeed(2, 2)]).toEqual([1, 5, 3, -1]);
  });
});
