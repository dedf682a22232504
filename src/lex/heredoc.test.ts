import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countStringWork, workRatio } from '../../test/support/string-work.js';
import {
  heredocContent,
  scanHeredoc,
  skipHeredocBody,
  unescapeHeredocBody,
  unwrapFullyWrappingHeredoc,
  type HeredocScan,
} from './heredoc.js';

type Expected = { content: string; end: number; escaped?: boolean } | { fail: string; tag: string } | null;

/** The reference's heredoc table, `start = 0`. */
const examples: [string, Expected][] = [
  ['<<EOF\na\nb\nEOF', { content: 'a\nb', end: 13 }],
  ['<<EOF\na\nEOF })', { content: 'a', end: 11 }],
  ["<<'EOF'\nx\nEOF", { content: 'x', end: 13 }],
  ['<<"EOF"\nx\n  EOF,', { content: 'x', end: 15 }],
  ["<<'EOF\nx\nEOF", { content: 'x', end: 12 }],
  ['<<EOF\r\na\r\nEOF\r\n', { content: 'a', end: 13 }],
  ['<<EOF\nEOFX\nEOF_2\nEOF-x', { content: 'EOFX\nEOF_2', end: 20 }],
  ['<<EOF\nEOF', { content: '', end: 9 }],
  ['<<12\nx\n12', { content: 'x', end: 9 }],
  ['<<EOF \nx\nEOF', { fail: 'MissingNewline', tag: 'EOF' }],
  ['<< EOF\nx\nEOF', null],
  ['<<EOF', { fail: 'MissingNewline', tag: 'EOF' }],
  ['<<EOF\nbody\n})', { content: 'body', end: 11 }],
  ['<<EOF\nbody\n  }) ,\n\n', { content: 'body', end: 11 }],
  ['<<EOF\nbody\n}', { fail: 'Unterminated', tag: 'EOF' }],
  ['<<EOF\nbody', { fail: 'Unterminated', tag: 'EOF' }],
  ['<<E:3\na\nb\nc\nE', { content: 'a\nb\nc\n', end: 13 }],
  ['<<E:3\na\nE\nc\nE', { content: 'a\nE\nc\n', end: 13 }],
  ['<<E:0\nE', { content: '', end: 7 }],
  ['<<E:2\na\r\nb\r\nE', { content: 'a\r\nb\r\n', end: 13 }],
  ['<<E:1\r\na\r\n  E\r\n', { content: 'a\r\n', end: 13 }],
  ['<<E:1\na\nE trailing', { fail: 'Unterminated', tag: 'E' }],
  ['<<E:5\na\nb\nE', { fail: 'Unterminated', tag: 'E' }],
  ['<<E:1\na\nb\nc\nE', { fail: 'Unterminated', tag: 'E' }],
  ['<<E:184467440737095516160\na\nE', { fail: 'InvalidCount', tag: 'E' }],
  ['<<E:\na\nE', { fail: 'MissingNewline', tag: 'E' }],
  ['<<EOF\\nline1\\nline2\\nEOF })', { content: 'line1\nline2', end: 24, escaped: true }],
  ['<<EOF\\nsay \\"hi\\"\\n  EOF\\n})', { content: 'say "hi"', end: 26, escaped: true }],
  ['<<EOF\\nx\\\\nEOF', { fail: 'Unterminated', tag: 'EOF' }],
];

function summarize(src: string, scan: HeredocScan | null): Expected {
  if (scan === null) return null;
  if (!scan.ok) return { fail: scan.reason, tag: scan.tag };
  const content = heredocContent(src, scan);
  return scan.escaped ? { content, end: scan.end, escaped: true } : { content, end: scan.end };
}

describe('scanHeredoc', () => {
  it.each(examples)('%j', (src, expected) => {
    expect(summarize(src, scanHeredoc(src, 0))).toEqual(expected);
  });

  it('keeps the raw escaped body and its bounds', () => {
    const src = '<<EOF\\nline1\\nline2\\nEOF })';
    const scan = scanHeredoc(src, 0);
    expect(scan).toMatchObject({ ok: true, escaped: true, contentStart: 7, contentEnd: 19 });
    expect(src.slice(7, 19)).toBe('line1\\nline2');
  });

  it('scans from an offset inside a larger source', () => {
    const src = 'edit({ content: <<EOF\nx\nEOF })';
    const start = src.indexOf('<<');
    expect(summarize(src, scanHeredoc(src, start))).toEqual({ content: 'x', end: src.indexOf(' })') });
  });

  it('rejects `<<-` and `1 << 2` and a lone `<`', () => {
    expect(scanHeredoc('<<-EOF\nx\nEOF', 0)).toBeNull();
    expect(scanHeredoc('1 << 2', 2)).toBeNull();
    expect(scanHeredoc('<a', 0)).toBeNull();
  });

  it('fails with a mismatched closing quote on the opener', () => {
    expect(scanHeredoc('<<"EOF\'\nx\nEOF', 0)).toEqual({ ok: false, tag: 'EOF', reason: 'MissingNewline' });
  });

  it('accepts the largest u64 count (then fails as unterminated) and leading zeros', () => {
    expect(scanHeredoc('<<E:18446744073709551615\na\nE', 0)).toMatchObject({ ok: false, reason: 'Unterminated' });
    expect(summarize('<<E:0001\na\nE', scanHeredoc('<<E:0001\na\nE', 0))).toEqual({ content: 'a\n', end: 12 });
  });

  it('ignores a declared count in the escaped form', () => {
    expect(summarize('<<E:5\\na\\nE', scanHeredoc('<<E:5\\na\\nE', 0))).toEqual({ content: 'a', end: 11, escaped: true });
  });

  it('does not treat later non-tail text as an implicit close', () => {
    expect(scanHeredoc('<<EOF\nbody\n})\nmore prose', 0)).toMatchObject({ ok: false, reason: 'Unterminated' });
  });

  it('skipHeredocBody returns the end or -1', () => {
    expect(skipHeredocBody('<<EOF\na\nEOF })', 0)).toBe(11);
    expect(skipHeredocBody('<<EOF\na', 0)).toBe(-1);
    expect(skipHeredocBody('< <', 0)).toBe(-1);
  });

  it('never throws and keeps offsets within the source', () => {
    const alphabet = fc.constantFrom('<', '<<', 'E', 'EOF', ':', '1', '\n', '\r', '\\n', '\\', ' ', '}', ')', ',', "'", '"', 'x');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join('')), (body) => {
        const src = `<<${body}`;
        const scan = scanHeredoc(src, 0);
        if (scan !== null && scan.ok) {
          expect(scan.contentStart).toBeGreaterThan(2);
          expect(scan.contentEnd).toBeGreaterThanOrEqual(scan.contentStart);
          expect(scan.end).toBeGreaterThanOrEqual(scan.contentEnd);
          expect(scan.end).toBeLessThanOrEqual(src.length);
        }
      }),
    );
  });

  it('never throws on arbitrary text at any start', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat(45), (text, start) => {
        const src = `<<${text}`;
        const scan = scanHeredoc(src, start);
        if (scan !== null && scan.ok) {
          expect(scan.end).toBeLessThanOrEqual(src.length);
          expect(typeof heredocContent(src, scan)).toBe('string');
        }
        expect(typeof unescapeHeredocBody(text)).toBe('string');
      }),
      { numRuns: 500 },
    );
  });

  it('does linear work on unclosed and adversarial bodies', () => {
    const unclosed = (n: number) => `<<EOF\n${'line EO EOFX\n'.repeat(n)}`;
    const escaped = (n: number) => `<<EOF\\n${'a\\\\n EO\\n'.repeat(n)}`;
    const counted = (n: number) => `<<E:${n * 3}\n${'a\n'.repeat(n)}`;
    const blankTail = (n: number) => `<<EOF\nx\n${'   \n'.repeat(n)}`;
    for (const build of [unclosed, escaped, counted, blankTail]) {
      expect(workRatio(build, (src) => scanHeredoc(src, 0))).toBeLessThan(12);
    }
    expect(countStringWork(() => scanHeredoc(`<<E:${'9'.repeat(100_000)}\n`, 0))).toBeLessThan(300_000);
  });
});

describe('unescapeHeredocBody', () => {
  it('decodes exactly \\n \\t \\r \\" \\\\ and keeps everything else', () => {
    expect(unescapeHeredocBody('a\\nb\\tc\\rd\\"e\\\\f')).toBe('a\nb\tc\rd"e\\f');
    expect(unescapeHeredocBody('\\d+ \\u0041 \\x')).toBe('\\d+ \\u0041 \\x');
    expect(unescapeHeredocBody('ends with \\')).toBe('ends with \\');
    expect(unescapeHeredocBody('\\\\n')).toBe('\\n');
    expect(unescapeHeredocBody('plain')).toBe('plain');
  });
});

describe('unwrapFullyWrappingHeredoc', () => {
  it('returns the body only when the heredoc is the whole value', () => {
    expect(unwrapFullyWrappingHeredoc('  <<EOF\nbody\nEOF\n  ')).toBe('body');
    expect(unwrapFullyWrappingHeredoc('<<EOF\\nbody\\tx\\nEOF')).toBe('body\tx');
    expect(unwrapFullyWrappingHeredoc('<<EOF\nbody\nEOF trailing')).toBeNull();
    expect(unwrapFullyWrappingHeredoc('text <<EOF\nbody\nEOF')).toBeNull();
    expect(unwrapFullyWrappingHeredoc('<<EOF\nbody')).toBeNull();
  });
});
