/**
 * The lexer's call parsers behind a budget. A failed parse may have read everything up to the
 * end of the text (an unterminated heredoc or string), and every line start may try again, so
 * failures draw on an allowance proportional to the text. Only adversarial text spends it
 * (thousands of broken calls); the rest of the line starts are then reported once, not parsed.
 */
import { parseCallExpr, parseObjectLiteral, type CallExprResult, type ObjectLiteralResult } from '../call-expr.js';

/** Characters failed parses may read, per character of text, before the gate closes. */
const FAILED_PARSE_CHARS_PER_CHAR = 16;
const FAILED_PARSE_SLACK = 1 << 18;

export class ParseGate {
  private remaining: number;
  private closedReported = false;

  constructor(private readonly text: string) {
    this.remaining = FAILED_PARSE_CHARS_PER_CHAR * text.length + FAILED_PARSE_SLACK;
  }

  /** The parse of `name(...)` at `k`, or null when the allowance is spent. */
  callExpr(k: number, name: string, errors: string[]): CallExprResult | null {
    if (!this.open(errors)) return null;
    const parsed = parseCallExpr(this.text.slice(k), name);
    if (!parsed.ok) this.remaining -= this.text.length - k;
    return parsed;
  }

  /** The parse of the object literal at `at` (after `name`), or null when the allowance is spent. */
  objectLiteral(at: number, name: string, errors: string[]): ObjectLiteralResult | null {
    if (!this.open(errors)) return null;
    const parsed = parseObjectLiteral(this.text.slice(at), name);
    if (!parsed.ok) this.remaining -= this.text.length - at;
    return parsed;
  }

  private open(errors: string[]): boolean {
    if (this.remaining > 0) return true;
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
