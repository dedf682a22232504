/**
 * A call opened by a grammar's special token or own tag whose body none of the grammars sharing
 * it reads (`<|tool_call_start|>oops<|tool_call_end|>`, `[TOOL_CALLS] not json at all`,
 * `<minimax:tool_call>nothing</minimax:tool_call>`):
 * the model meant a call and wrote one that cannot be read. It is an error and a dropped block
 * (the rule: a call in a known grammar that cannot be read is never prose, and a marker
 * is never prose), as a token section's own reader treats text inside it that is not a call.
 *
 * The block runs to the first close of its grammars, when one comes before any other opener;
 * for grammars written with no close at all (Mistral's `[TOOL_CALLS]`), to the opener's line
 * end. A tag the reference grammar reads (`<tool_call>`, `<tool_calls>`) is not one: a body
 * there that no field grammar reads is the reference's to read. An opener that a close should end but none does is left to the rungs after this one.
 * A token named in a sentence (`The [TOOL_CALLS] token marks a call.`) was read as a mention
 * before this rung runs.
 */
import type { FieldGrammar } from '../../dialects/field/index.js';
import { LLAMA3_BUILTIN } from '../../dialects/field/value-grammars.js';
import type { ComposeContext } from '../context.js';
import type { OpenerHit } from './detect.js';
import { fieldMessages } from './messages.js';
import { isReferenceTag } from './reference-tags.js';
import { RegionSink, type FieldRegion } from './region.js';
import type { FieldScan } from './scan.js';

const NEWLINE: readonly string[] = ['\n'];

/** Per grammar, the markers that end a block it opens (one array each, so `FieldScan` memoises the search); null for a family this rung leaves alone. */
const CLOSES = new Map<FieldGrammar, readonly string[] | null>();

function closesOf(grammar: FieldGrammar): readonly string[] | null {
  let closes = CLOSES.get(grammar);
  if (closes !== undefined) return closes;
  if (grammar.family === 'token-section') closes = [...grammar.sectionClose, ...grammar.callClose];
  else if (grammar.family === 'call-objects' || grammar.family === 'value-grammar') closes = grammar.close;
  else if (grammar.family === 'param-markup') closes = grammar.section?.close ?? (grammar.call.kind === 'tag' ? grammar.call.tag.close : grammar.call.close);
  else closes = null;
  CLOSES.set(grammar, closes);
  return closes;
}

/**
 * A special token: `<|name|>`, `<｜name｜>`, Gemma 4's `<|tool_call>` (a bar on one side), or a
 * bracketed upper-case token (`[TOOL_CALLS]`).
 */
function isSpecialToken(opener: string): boolean {
  const second = opener.charCodeAt(1);
  if (opener.charCodeAt(0) === 0x3c) return second === 0x7c || second === 0xff5c;
  return opener.charCodeAt(0) === 0x5b && opener.charCodeAt(opener.length - 1) === 0x5d && second >= 0x41 && second <= 0x5a;
}

/** A grammar's own tag (`<tool_calls>`, `<function_calls>`), not one the reference grammar also writes. */
function isOwnTag(opener: string): boolean {
  return opener.charCodeAt(0) === 0x3c && opener.charCodeAt(opener.length - 1) === 0x3e && !isReferenceTag(opener);
}

/**
 * Openers whose body may be other text by design: Llama 3's `<|python_tag|>` opens code for the
 * code interpreter as well as a built-in tool's call.
 */
const OPEN_BODIES: ReadonlySet<string> = new Set(LLAMA3_BUILTIN.openers);

/** Whether only blanks stand between `at` and its line's start, or `floor` (the end of the last region). */
function beginsLine(text: string, at: number, floor: number): boolean {
  for (let i = at - 1; i >= floor; i--) {
    const code = text.charCodeAt(i);
    if (code === 0x0a) return true;
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d) return false;
  }
  return true;
}

/** The unreadable call at `hit` (the last region ended at `floor`), or null. `nextOpenerAt` finds the next opener of any grammar at or after an index (-1: none). */
export function unreadableTokenCall(text: string, hit: OpenerHit, floor: number, ctx: ComposeContext, scan: FieldScan, nextOpenerAt: (from: number) => number): FieldRegion | null {
  const token = isSpecialToken(hit.opener);
  if ((!token && !isOwnTag(hit.opener)) || OPEN_BODIES.has(hit.opener)) return null;
  const after = hit.index + hit.opener.length;
  const next = nextOpenerAt(after);
  const limit = next < 0 ? text.length : next;
  let bodyEnd = -1;
  let end = -1;
  let closable = false;
  for (const grammar of hit.grammars) {
    const closes = closesOf(grammar);
    // A grammar whose body decides whether its opener opened a call (Inkling's messages) has no unreadable call.
    if (closes === null || ((grammar.family === 'token-section' || grammar.family === 'call-objects') && grammar.bodyDecides === true)) return null;
    if (closes.length === 0) continue;
    closable = true;
    const at = scan.earliest(closes, after);
    if (at < 0 || at >= limit || (bodyEnd >= 0 && at >= bodyEnd)) continue;
    bodyEnd = at;
    end = at + (closes.find((close) => text.startsWith(close, at))?.length ?? 0);
  }
  if (bodyEnd < 0) {
    // With no close, only an opener that begins its line (`[TOOL_CALLS] not json`) opens a call:
    // mid-line, words after it are a sentence about the token.
    // A tag always has a close to end it here.
    if (closable || !token || !beginsLine(text, hit.index, floor)) return null;
    const newline = scan.earliest(NEWLINE, after);
    bodyEnd = end = Math.min(newline < 0 ? text.length : newline, limit);
  }
  if (text.slice(after, bodyEnd).trim() === '') return null;
  const grammar = hit.grammars[0]!;
  const sink = new RegionSink(text, grammar, ctx.registry, ctx.marks, scan);
  sink.fail(fieldMessages.unreadable(grammar.id, 'a body that is not a call of this grammar'), hit.index, end);
  return sink.region(hit.index, end);
}
