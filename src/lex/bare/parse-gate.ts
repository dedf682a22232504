/**
 * The lexer's call parsers over one text, parsing in place from each start with one shared
 * {@link ScanMemo}. A failed parse may read to the end of the text (an unterminated heredoc, an
 * unclosed comment, a string recovery that finds no close) and the sniffer tries again at every
 * later line start; the memo answers those repeated searches without re-reading, so all the
 * parses of one text together stay linear (`linearity.test.ts`).
 *
 * Safety net: the few searches the memo does not share (counted and escaped heredoc bodies,
 * template interpolations, successful string recoveries) add what they read to
 * `memo.unsharedReads`. Past a generous multiple of the text the gate stops parsing and says so
 * once. No realistic response and none of the adversarial inputs in the tests come near it.
 */
import { parseCallExprAt, parseObjectLiteralAt, type CallExprResult, type ObjectLiteralResult } from '../call-expr.js';
import { ScanMemo } from '../scan-memo.js';

/** Characters unshared searches may read, per character of text, before the gate closes. */
const UNSHARED_READS_PER_CHAR = 16;
const UNSHARED_READS_SLACK = 1 << 18;

export class ParseGate {
  private readonly memo: ScanMemo;
  private readonly allowance: number;
  private closedReported = false;

  constructor(text: string) {
    this.memo = new ScanMemo(text);
    this.allowance = UNSHARED_READS_PER_CHAR * text.length + UNSHARED_READS_SLACK;
  }

  /** The parse of `name(...)` at `k`, or null once the gate is closed. */
  callExpr(k: number, name: string, errors: string[]): CallExprResult | null {
    if (!this.open(errors)) return null;
    return parseCallExprAt(this.memo.text, k, name, this.memo);
  }

  /** The parse of the object literal at `at` (after `name`), or null once the gate is closed. */
  objectLiteral(at: number, name: string, errors: string[]): ObjectLiteralResult | null {
    if (!this.open(errors)) return null;
    return parseObjectLiteralAt(this.memo.text, at, name, this.memo);
  }

  private open(errors: string[]): boolean {
    if (this.memo.unsharedReads <= this.allowance) return true;
    if (!this.closedReported) {
      this.closedReported = true;
      errors.push(
        'Too many malformed tool calls in one response: the remaining `name({ ... })` lines were not read. ' +
          'Re-emit each call complete, one per line.',
      );
    }
    return false;
  }
}
