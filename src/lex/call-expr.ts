/**
 * `name(<object literal>)` and `name{...}` calls, read with the TS value parser.
 *
 *     look({ path: "a.rs" }) trailing prose
 *     ^ text starts at the name      ^ consumed = 22
 *
 * Offsets and `consumed` are UTF-16 indexes. Errors carry the `TOOL CALL PARSE ERROR` prefix
 * that downstream code matches on, plus a stable `code` so nobody has to read the message.
 */
import { Code } from './codes.js';
import { isPlainRecord } from './json-object.js';
import { previewStr } from './render.js';
import type { ScanMemo } from './scan-memo.js';
import { parseTsValue, skipWsAndComments, type TsValueErrorCode } from './ts-value.js';

/** Why a call expression failed: a value-parser code or one of the call-shape checks. */
export type CallExprErrorCode = TsValueErrorCode | 'missing-open-paren' | 'missing-close-paren' | 'not-an-object';

export type CallExprResult =
  | { ok: true; arguments: Record<string, unknown>; consumed: number }
  | { ok: false; error: string; code: CallExprErrorCode };

export type ObjectLiteralResult =
  | { ok: true; value: Record<string, unknown>; consumed: number }
  | { ok: false; error: string; code: CallExprErrorCode };

/** The machine-matched prefix of every argument parse failure. */
export const TOOL_CALL_PARSE_ERROR = 'TOOL CALL PARSE ERROR';

const PREVIEW_LIMIT = 200;

function requireStrings(label: string, text: unknown, name: unknown): void {
  if (typeof text !== 'string') throw new TypeError(`${label}: text must be a string`);
  if (typeof name !== 'string') throw new TypeError(`${label}: name must be a string`);
}

/**
 * Parse `name(...)` at the start of `text` (which is assumed to begin with `name`). The
 * argument must be one object literal; `name()` means `{}`. When the input ends right after a
 * complete object the `)` may be missing (a response cut just before it); `consumed` then runs
 * to the end of `text`. Text after the `)` is ignored.
 */
export function parseCallExpr(text: string, name: string): CallExprResult {
  requireStrings('parseCallExpr', text, name);
  return parseCallExprAt(text, 0, name, undefined);
}

/**
 * {@link parseCallExpr} of the call whose name starts at `start` of `text`, without copying the
 * text; `consumed` counts from `start`. Parses of many starts in one text share `memo`, which
 * keeps them linear together (the bare-call sniffer retries at every line start).
 */
export function parseCallExprAt(text: string, start: number, name: string, memo: ScanMemo | undefined): CallExprResult {
  const open = start + name.length;
  if (text.charCodeAt(open) !== Code.LeftParen) {
    return {
      ok: false,
      code: 'missing-open-paren',
      error: `${TOOL_CALL_PARSE_ERROR}: \`${name}\` must be followed directly by \`(\`, as in \`${name}({ key: value })\`.`,
    };
  }
  const argsStart = open + 1;
  let pos = skipWsAndComments(text, argsStart, memo);
  let value: unknown;
  if (text.charCodeAt(pos) === Code.RightParen) {
    value = {};
  } else {
    const parsed = parseTsValue(text, argsStart, memo);
    if (!parsed.ok) {
      return {
        ok: false,
        code: parsed.code,
        error:
          `${TOOL_CALL_PARSE_ERROR}: \`${name}(...)\`: ${parsed.error}. The argument must be one ` +
          `TypeScript object literal such as \`{ key: value }\`. Raw: ${previewStr(text.slice(argsStart), PREVIEW_LIMIT)}`,
      };
    }
    value = parsed.value;
    pos = skipWsAndComments(text, parsed.end, memo);
  }
  let consumed: number;
  if (text.charCodeAt(pos) === Code.RightParen) {
    consumed = pos + 1 - start;
  } else if (pos >= text.length && isPlainRecord(value)) {
    // repair: the response ended right after the object, before its `)`.
    consumed = pos - start;
  } else {
    return {
      ok: false,
      code: 'missing-close-paren',
      error: `${TOOL_CALL_PARSE_ERROR}: \`${name}(...)\`: the argument is not followed by \`)\`; write the call as one complete expression.`,
    };
  }
  if (!isPlainRecord(value)) {
    return {
      ok: false,
      code: 'not-an-object',
      error:
        `${TOOL_CALL_PARSE_ERROR}: \`${name}(...)\`: the argument \`${JSON.stringify(value)}\` is not an object literal; ` +
        `pass named fields instead: \`${name}({ key: value })\`.`,
    };
  }
  return { ok: true, arguments: value, consumed };
}

/**
 * A body opened by the head the scanner read, `name(` or `name{` (`sep`): the call expression,
 * or the object literal after the name. `consumed` counts from the start of `body`, the name
 * included, in both cases.
 */
export function parseHeadCall(body: string, name: string, sep: string): CallExprResult | ObjectLiteralResult {
  if (sep === '(') return parseCallExpr(body, name);
  const literal = parseObjectLiteral(body.slice(name.length), name);
  return literal.ok ? { ok: true, value: literal.value, consumed: name.length + literal.consumed } : literal;
}

/**
 * Parse the `{ ... }` of a `name{ ... }` call at the start of `text`. `consumed` counts any
 * leading whitespace and ends just past the closing `}`.
 */
export function parseObjectLiteral(text: string, name: string): ObjectLiteralResult {
  requireStrings('parseObjectLiteral', text, name);
  return parseObjectLiteralAt(text, 0, name, undefined);
}

/** {@link parseObjectLiteral} of the literal at `start` of `text`; `consumed` counts from `start`. */
export function parseObjectLiteralAt(text: string, start: number, name: string, memo: ScanMemo | undefined): ObjectLiteralResult {
  const parsed = parseTsValue(text, start, memo);
  if (!parsed.ok) {
    return {
      ok: false,
      code: parsed.code,
      error:
        `${TOOL_CALL_PARSE_ERROR}: \`${name}{...}\`: ${parsed.error}. The body must be one TypeScript ` +
        `object literal. Raw: ${previewStr(text.slice(start), PREVIEW_LIMIT)}`,
    };
  }
  if (!isPlainRecord(parsed.value)) {
    return {
      ok: false,
      code: 'not-an-object',
      error:
        `${TOOL_CALL_PARSE_ERROR}: \`${name}{...}\`: \`${JSON.stringify(parsed.value)}\` is not an object literal. ` +
        `Raw: ${previewStr(text.slice(start), PREVIEW_LIMIT)}`,
    };
  }
  return { ok: true, value: parsed.value, consumed: parsed.end - start };
}
