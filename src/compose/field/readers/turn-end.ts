/**
 * The `turn-end` reader: one end-of-turn special token, consumed where it stands and recorded
 * on the drop ledger (it carries no content, so it is neither prose nor a violation); the same
 * for an assistant turn's header and, at the response's start only, the sequence's first token;
 * and another role's turn, which takes the rest of the text.
 *
 *     The answer is 4.<|eot_id|>       region: the token
 *     The <s>old</s> price             `</s>` is a trailing token: not at the end, so -1
 *
 * A trailing token counts only in the text's tail: the run at its end of whitespace and turn
 * ends; and a close tag (`</s>`) not at all when its HTML open (`<s>`) stands before the tail,
 * where it closes that. The tail, and each open's last place, are found once per parse, so
 * deciding costs O(1) per token however many stand in the text.
 */
import type { TurnEndGrammar } from '../../../dialects/field/index.js';
import { HARMONY_ENDS } from '../../../dialects/field/harmony.js';
import { HARMONY_FOREIGN_STARTS, TURN_FOREIGN } from '../../../dialects/field/turn-end.js';
import { isJsonSpace, skipJsonSpace } from '../../../lex/codes.js';
import { matchAt } from '../cursor.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';
import { fieldMessages } from '../messages.js';

const TAIL = new WeakMap<FieldScan, number>();
const OPENS_BEFORE_TAIL = new WeakMap<FieldScan, Map<string, boolean>>();

/**
 * Where the run of whitespace and turn-end tokens at the end of the response begins: of the
 * text, or before another role's turn (`…</s>[INST]…`), where the response ended.
 */
function tailStart(scan: FieldScan, grammar: TurnEndGrammar): number {
  let tail = TAIL.get(scan);
  if (tail !== undefined) return tail;
  const text = scan.text;
  const foreign = scan.earliest(TURN_FOREIGN.tokens, 0);
  tail = foreign < 0 ? text.length : foreign;
  for (;;) {
    while (tail > 0 && isJsonSpace(text.charCodeAt(tail - 1))) tail--;
    const token = endingAt(text, tail, grammar);
    if (token === null) break;
    tail -= token.length;
  }
  TAIL.set(scan, tail);
  return tail;
}

function endingAt(text: string, end: number, grammar: TurnEndGrammar): string | null {
  for (const list of [grammar.tokens, grammar.trailingTokens]) {
    for (const token of list) if (end >= token.length && text.startsWith(token, end - token.length)) return token;
  }
  return null;
}

/** `</s>` -> `<s>`: the HTML open a close tag would close; null for a token that is no close tag. */
function htmlOpenOf(token: string): string | null {
  return token.startsWith('</') ? `<${token.slice(2)}` : null;
}

/** Whether the HTML open of `token` stands anywhere before the tail (memoised per parse). */
function closesHtml(scan: FieldScan, token: string, tail: number): boolean {
  const open = htmlOpenOf(token);
  if (open === null) return false;
  let seen = OPENS_BEFORE_TAIL.get(scan);
  if (seen === undefined) OPENS_BEFORE_TAIL.set(scan, (seen = new Map()));
  let found = seen.get(open);
  // An open as the response's first text is the sequence's first token (`<s>[TOOL_CALLS]…</s>`).
  if (found === undefined) seen.set(open, (found = tail > 0 && scan.text.lastIndexOf(open, tail - 1) > skipJsonSpace(scan.text, 0)));
  return found;
}

/**
 * True when nothing but whitespace and end-of-turn tokens follows `at`: a value ending there
 * ends the response (a whole-response look-alike, `{…}<|eom_id|>`).
 */
export function endsResponse(scan: FieldScan, at: number, grammar: TurnEndGrammar): boolean {
  return at >= tailStart(scan, grammar);
}

export function readTurnEnd(scan: FieldScan, at: number, grammar: TurnEndGrammar, sink: RegionSink): number {
  const text = scan.text;
  if (grammar.role === 'foreign') return readForeignTurn(text, at, grammar, sink);
  let token = matchAt(text, at, grammar.tokens);
  if (token === null) {
    token = matchAt(text, at, grammar.trailingTokens);
    if (token === null) return -1;
    const tail = tailStart(scan, grammar);
    if (at < tail || closesHtml(scan, token, tail)) return -1;
  }
  const end = at + token.length;
  sink.drop(at, end, grammar.role === 'header' ? 'turn_header_token' : 'end_of_turn_token');
  return end;
}

/**
 * Another role's turn: the response ended before it, so the rest of the text, whatever it
 * holds (a tool result the model made up, calls resting on it), is neither prose nor calls.
 */
function readForeignTurn(text: string, at: number, grammar: TurnEndGrammar, sink: RegionSink): number {
  const token = matchAt(text, at, grammar.tokens);
  if (token === null) return -1;
  // A Harmony message by another author only after a message's end (the harmony region before
  // it is never released while a marker may follow, so a stream sees that end too).
  if (HARMONY_FOREIGN_STARTS.includes(token) && !afterHarmonyEnd(text, at)) return -1;
  // The next turn's opener as the last thing written: the model's stop (Gemma 4 stops at
  // `<|tool_response>`), which carries no content, as a turn's end.
  if (skipJsonSpace(text, at + token.length) >= text.length) {
    sink.drop(at, text.length, 'end_of_turn_token');
    return text.length;
  }
  sink.drop(at, text.length, 'foreign_turn');
  sink.violation('foreign_turn', fieldMessages.foreignTurn(token), token);
  return text.length;
}

/** Whether a Harmony message's end marker stands right before `at` (blanks between). */
function afterHarmonyEnd(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && isJsonSpace(text.charCodeAt(i - 1))) i--;
  return HARMONY_ENDS.some((end) => i >= end.length && text.startsWith(end, i - end.length));
}
