import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanHeredoc } from './heredoc.js';
import { findCloseTag, findOpenerAfter, findSpanEnd, matchBlock, matchToolCallBlock, SpanWalker } from './spans.js';

const bounds = ['<tool_call', '</tool_call', '<toolcall', '</toolcall'];
const close = '</tool_call>';

describe('findSpanEnd', () => {
  it('closes at the first close outside strings and heredocs', () => {
    const src = '<tool_call>run({ command: "echo </tool_call>" })</tool_call>';
    expect(findSpanEnd(src, 11, close, bounds)).toEqual({ kind: 'closed', at: 48 });
    const heredoc = '<tool_call>edit({ content: <<EOF\n</tool_call>\nEOF })</tool_call>';
    expect(findSpanEnd(heredoc, 11, close, bounds)).toEqual({ kind: 'closed', at: heredoc.lastIndexOf(close) });
  });

  it('stops at a line-leading opener, even an indented one, but not at a mid-line one', () => {
    const src = '<tool_call>\nedit({})\n  \u00a0<tool_calls>\n</tool_call>';
    expect(findSpanEnd(src, 11, close, bounds)).toEqual({ kind: 'opener', at: src.indexOf('<tool_calls>') });
    expect(findSpanEnd('<tool_call>x <tool_call> y', 11, close, bounds)).toEqual({ kind: 'not_found' });
  });

  it('truncates on an unterminated quote or heredoc, and not on `1 << 2`', () => {
    expect(findSpanEnd("<tool_call>\nI'll look\n</tool_call>", 11, close, bounds)).toEqual({ kind: 'truncated' });
    expect(findSpanEnd('<tool_call>look({ a: x<<2 })</tool_call>', 11, close, bounds)).toEqual({ kind: 'truncated' });
    expect(findSpanEnd('<tool_call>look({ a: 1 << 2 })</tool_call>', 11, close, bounds)).toEqual({ kind: 'closed', at: 30 });
  });
});

describe('findOpenerAfter', () => {
  it('finds the first line-leading opener on raw characters', () => {
    const src = 'a "\n<tool_call>\n" b\n</toolcall>';
    expect(findOpenerAfter(src, 0, bounds)).toBe(4);
    expect(findOpenerAfter(src, 5, bounds)).toBe(src.indexOf('</toolcall>'));
    expect(findOpenerAfter('x <tool_call>', 0, bounds)).toBe(-1);
  });
});

describe('plain and legacy matchers', () => {
  it('matchBlock takes the first close, unaware of strings', () => {
    expect(matchBlock('<done>"</done>"</done>', 0, 'done')).toEqual({ body: '"', end: 14 });
    expect(matchBlock('<done>x', 0, 'done')).toBeNull();
  });

  it('findCloseTag asks for more input on an unterminated string', () => {
    expect(findCloseTag('look({ a: "x', 0, close)).toEqual({ kind: 'need_more' });
    expect(matchToolCallBlock('<tool_call>a("</tool_call>")</tool_call>', 0, 'tool_call')).toEqual({ body: 'a("</tool_call>")', end: 40 });
  });
});

/** Text over the characters that matter to a span walk. */
const walkText = fc
  .array(fc.constantFrom('<tool_call>', '</tool_call>', '<toolcall', '\n', ' ', '"', "'", '`', '\\', '<<EOF\n', '<<EOF\\n', 'EOF', '})', 'x', '<<', '<<E:1\n', '\u00a0'), { maxLength: 40 })
  .map((parts) => parts.join(''));

describe('SpanWalker memos give the same answers as fresh walks', () => {
  it('findSpanEnd from increasing and arbitrary starts', () => {
    fc.assert(
      fc.property(walkText, fc.array(fc.nat(), { maxLength: 12 }), (src, picks) => {
        const shared = new SpanWalker(src);
        for (const pick of picks) {
          const from = src.length === 0 ? 0 : pick % (src.length + 1);
          expect(shared.findSpanEnd(from, close, bounds)).toEqual(findSpanEnd(src, from, close, bounds));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('findOpenerAfter and heredoc answers', () => {
    fc.assert(
      fc.property(walkText, fc.array(fc.nat(), { maxLength: 12 }), (src, picks) => {
        const shared = new SpanWalker(src);
        for (const pick of picks) {
          const from = src.length === 0 ? 0 : pick % (src.length + 1);
          expect(shared.findOpenerAfter(from, bounds)).toBe(findOpenerAfter(src, from, bounds));
          const heredoc = src.indexOf('<<', from);
          if (heredoc !== -1) expect(shared.heredocStep(heredoc)).toBe(new SpanWalker(src).heredocStep(heredoc));
        }
      }),
      { numRuns: 3000 },
    );
  });
});

/** Text dense in heredoc openers of every form, with lines that may or may not close them. */
const heredocText = fc
  .array(
    fc.constantFrom('<<EOF\n', '<<E:1\n', '<<E:2\n', '<<E:0\n', "<<'E':1\r\n", '<<E:3\\n', '<<EOF\\n', '<<E\n', 'E\n', '  E\r\n', 'EOF\n', 'EOF })', '\\nEOF', '})\n', 'x\n', '\n', ' ', '\r', 'E', '<<', ':'),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('SpanWalker heredoc memos agree with scanHeredoc', () => {
  it('for every opener, queried in any order', () => {
    fc.assert(
      fc.property(heredocText, fc.array(fc.nat(), { maxLength: 20 }), (src, picks) => {
        const starts: number[] = [];
        for (let at = src.indexOf('<<'); at !== -1; at = src.indexOf('<<', at + 1)) starts.push(at);
        if (starts.length === 0) return;
        const shared = new SpanWalker(src);
        for (const pick of picks) {
          const start = starts[pick % starts.length]!;
          const scan = scanHeredoc(src, start);
          const expected = scan === null ? -1 : scan.ok ? scan.end : scan.reason === 'InvalidCount' ? -1 : -2;
          expect(shared.heredocStep(start)).toBe(expected);
        }
      }),
      { numRuns: 5000 },
    );
  });
});
