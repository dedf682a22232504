/**
 * Outcome records of the composer's recovery ladders (docs/design.md, "Recovery ladders").
 *
 * Every ladder is an ordered list of rungs `(input) => outcome | undefined`; `undefined` means
 * "not this dialect, try the next rung". Outcomes name the rung that decided them (`rung`, a
 * stable kebab-case string) so callers and tests can tell how much was guessed.
 */
import type { CallExprResult, ObjectLiteralResult } from '../../lex/call-expr.js';
import type { ToolCall } from '../types.js';

/** The call head the scanner saw at the start of a block body: `name(` or `name{`. */
export interface BodyHead {
  name: string;
  sep: '(' | '{';
}

/**
 * The scanner's pre-parse of a block body (`direct` of `scanBareUnits`): the call-expression
 * parse for `name(`, the object-literal parse for `name{`. `consumed` counts from the start of
 * the trimmed body in both cases (the head name included).
 */
export type DirectParse = CallExprResult | ObjectLiteralResult;

/**
 * What a call-block body became.
 * - `ok: true` with a `call`: one call; `prose` holds narration peeled around it (in order).
 * - `ok: true` without a call: the body was narration only (`prose` non-empty).
 * - `ok: false`: a diagnostic for `tool_parse_errors`. `matched` is true when a dialect rung
 *   recognised the body and diagnosed it (markup, nested XML, narration wrapper); such messages
 *   are kept verbatim by the unclosed-block rewrite.
 */
export type BodyOutcome =
  | { ok: true; call?: ToolCall; prose?: string[]; rung: BodyRung }
  | { ok: false; error: string; matched?: boolean; rung: BodyRung };

/**
 * Rung names of the body ladder (docs/design.md, "Call-body ladder"), in ladder order, one line each. Outcomes carry
 * them in `rung`; they are stable (never renamed or reused).
 */
export const BODY_RUNG_NAMES = Object.freeze({
  'empty-body': 'The trimmed body was empty; an error naming the empty body.',
  'direct-head': "The scanner's head named a registered tool and the whole body parsed as its call.",
  'function-markup': 'Chat-template `<function=…>` / `<invoke name=…>` markup: a call, or a matched diagnosis.',
  'nested-xml': '`<name>{json}</name>`: a call, or a matched diagnosis.',
  'json-body': 'A JSON tool object, optionally under a name label line: a call, or an error.',
  'narration': 'Narration tags peeled (kept as prose) around a call, or a body that was only prose.',
  'bare-call': 'The bare-call sniffer: exactly one call, or its first diagnostic, or the "no call" error.',
  'truncated': 'An unclosed block whose body no dialect recognised: the `TOOL CALL TRUNCATED:` diagnostic.',
} as const);

export type BodyRung = keyof typeof BODY_RUNG_NAMES;

/** Result of `parseMarkup` (docs/design.md, "Markup"). */
export type MarkupOutcome =
  | { ok: true; matched: true; call: ToolCall; rung: 'function-markup' }
  | { ok: false; matched: true; error: string; rung: 'function-markup' }
  | { ok: false; matched: false };

/**
 * The unclosed-block outcome (docs/design.md, "Unclosed blocks"): the body ladder's outcome, where a non-matched
 * failure is rewritten to the `TOOL CALL TRUNCATED:` diagnostic (rung `truncated`), and a
 * recovered call carries the `recovered_dialect` violation the walk must append.
 */
export type UnclosedOutcome = BodyOutcome & { recoveredViolation?: import('../types.js').ProtocolViolation };
