/**
 * The lexer's call parsers over one text, parsing in place from each start with one shared
 * {@link ScanMemo}. A failed parse may read to the end of the text (an unterminated heredoc, an
 * unclosed comment, a string recovery that finds no close) and the sniffer tries again at every
 * later line start; the memo answers those repeated searches without re-reading, so all the
 * parses of one text together stay linear (`linearity.test.ts`).
 *
 * Safety net: the one search the memo does not share (a template's `${` interpolation, whose
 * brace depth depends on where it starts) adds what it reads to `memo.unsharedReads`. Past a
 * generous multiple of the text the gate stops parsing and says so once. No realistic response
 * comes near it, nor does any memoised adversarial shape in `linearity.test.ts`.
 */
import { parseCallExprAt, parseObjectLiteralAt, type CallExprResult, type ObjectLiteralResult } from '../../lex/call-expr.js';
import { ScanMemo } from '../../lex/scan-memo.js';

/** Characters unshared searches may read, per character of text, before the gate closes. */
const UNSHARED_READS_PER_CHAR = 16;
const UNSHARED_READS_SLACK = 1 << 18;

export class ParseGate {
  /** Created on the first parse: most texts the sniffer sees hold no call at all. */
  private memo: ScanMemo | undefined;
  private closedReported = false;

  constructor(private readonly text: string) {}

  /** The parse of `name(...)` at `k`, or null once the gate is closed. */
  callExpr(k: number, name: string, errors: string[]): CallExprResult | null {
    const memo = this.open(errors);
    return memo === null ? null : parseCallExprAt(this.text, k, name, memo);
  }

  /** The parse of the object literal at `at` (after `name`), or null once the gate is closed. */
  objectLiteral(at: number, name: string, errors: string[]): ObjectLiteralResult | null {
    const memo = this.open(errors);
    return memo === null ? null : parseObjectLiteralAt(this.text, at, name, memo);
  }

  /** The memo to parse with, or null (reported once) when the unshared reads are spent. */
  private open(errors: string[]): ScanMemo | null {
    const memo = (this.memo ??= new ScanMemo(this.text));
    if (memo.unsharedReads <= UNSHARED_READS_PER_CHAR * this.text.length + UNSHARED_READS_SLACK) return memo;
    if (!this.closedReported) {
      this.closedReported = true;
      errors.push(
        'Too many malformed tool calls in one response: the remaining `name({ ... })` lines were not read. ' +
          'Re-emit each call complete, one per line.',
      );
    }
    return null;
  }
}
