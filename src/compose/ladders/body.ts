/**
 * The call-block body ladder, `call_from_body` (docs/design.md, "Call-body ladder"). Rungs, in the
 * reference's order (not the older Rust order):
 *
 *   direct-head → function-markup → nested-xml → json-body → narration → bare-call
 *
 * Each rung is `(input) => step | undefined` and never throws; `undefined` passes the body to
 * the next rung. Narration that wraps a call peels its tags and sends the rest down the ladder
 * again (a loop, not recursion, so deeply stacked narration cannot exhaust the stack).
 */
import { parseHeadCall } from '../../lex/call-expr.js';
import { isBlankFrom } from '../ascii-fold.js';
import type { ComposeContext } from '../context.js';
import { isJsonObject } from './json.js';
import { jsonCallFromBody } from './json-body.js';
import { labelBody } from './label.js';
import { parseMarkup } from './markup.js';
import { bodyMessages as msg } from './messages.js';
import { narration } from './narration.js';
import { nestedXml } from './nested-xml.js';
import { shapeInText } from '../tool-shape.js';
import { lazySniff, type Sniffed } from './sniff.js';
import type { BodyHead, BodyOutcome, DirectParse } from './types.js';

/** Provisional id of a call read straight from the block head (the boundary restamps ids). */
const DIRECT_CALL_ID = 'tc_0';

interface BodyInput {
  /** The trimmed body (never empty). */
  t: string;
  ctx: ComposeContext;
  head: BodyHead | undefined;
  direct: DirectParse | null | undefined;
  sniff: () => Sniffed;
}

/** A rung's verdict, or a narration peel that sends `rest` down the ladder again. */
type BodyStep = BodyOutcome | { peeled: string[]; rest: string };
type BodyRungFn = (input: BodyInput) => BodyStep | undefined;

// The canonical `name({...})` under a registered head: no repair. A failed or partial parse
// falls through silently; later rungs own the diagnosis.
const directHead: BodyRungFn = ({ t, ctx, head, direct }) => {
  if (head === undefined || !ctx.known.has(head.name)) return undefined;
  const parsed = direct ?? parseHeadCall(t, head.name, head.sep);
  if (!parsed.ok) return undefined;
  const args = 'arguments' in parsed ? parsed.arguments : parsed.value;
  // A non-object argument (`run("ls")`) is not a call here; the sniffer explains why.
  if (!isJsonObject(args) || !isBlankFrom(t, parsed.consumed)) return undefined;
  return { ok: true, call: { id: DIRECT_CALL_ID, name: head.name, arguments: args }, rung: 'direct-head' };
};

// repair: chat-template markup inside the block (seen in: Qwen3-Coder, Claude-style invoke; case: Ex32)
const functionMarkup: BodyRungFn = ({ t, ctx }) => {
  const m = parseMarkup(t, ctx);
  if (!m.matched) return undefined;
  return m.ok ? { ok: true, call: m.call, rung: 'function-markup' } : { ok: false, error: m.error, matched: true, rung: 'function-markup' };
};

// repair: `<name>{json}</name>` bodies (seen in: XML-trained models; case: Ex41)
const nestedXmlRung: BodyRungFn = ({ t, ctx }) => {
  const x = nestedXml(t, ctx);
  if (!x.matched) return undefined;
  return x.ok ? { ok: true, call: x.call, rung: 'nested-xml' } : { ok: false, error: x.error, matched: true, rung: 'nested-xml' };
};

// repair: a JSON tool object, optionally under a name label line (seen in: JSON-trained models; case: Ex42, Ex43)
const jsonBody: BodyRungFn = ({ t, ctx }) => {
  const labelled = labelBody(t);
  if (!labelled.ok) return undefined;
  const r = jsonCallFromBody(labelled.body, ctx, labelled.nameHint);
  return r.ok ? { ok: true, call: r.call, rung: 'json-body' } : { ok: false, error: r.error, rung: 'json-body' };
};

// repair: narration tags around (or instead of) the call (seen in: reasoning models; case: Ex44, Ex45)
const narrationRung: BodyRungFn = ({ t, ctx, sniff }) => {
  const found = narration(t, sniff);
  if (found === null) return undefined;
  if (found.kind === 'plain') {
    // Under `gateway` a body that begins with a registered tool's name, then arguments of some
    // other form (`<tool_call>multiply a=2 b=3</tool_call>`, `<tool_call>f</arg_value>`), was a
    // call that failed: reported, where the reference lets it pass as prose unremarked.
    const attempted = ctx.profile === 'gateway' ? attemptedCall(found.prose, ctx) : null;
    if (attempted !== null) return headCallOf(found.prose, attempted) ?? { ok: false, error: msg.unreadCall(attempted, t), matched: true, rung: 'narration' };
    // Nor is a body shaped as a call (`\n<function=f>\n<parameter=city>…`) narration, or a
    // call object typed with full-width or curly punctuation (`｛“name”：…｝`, as models write
    // it among CJK text): its tags would go unremarked while the call never ran.
    if (ctx.profile === 'gateway' && (TYPOGRAPHIC_JSON_OPEN.test(found.prose) || shapeInText(found.prose, '', true) !== null)) {
      return { ok: false, error: msg.unreadSyntax(t), matched: true, rung: 'narration' };
    }
    return { ok: true, prose: [found.prose], rung: 'narration' };
  }
  return { peeled: found.prose, rest: found.rest };
};

/**
 * The registered tool a body's first word names, where what follows it is no sentence: nothing,
 * markup (`f</arg_value>`), arguments the sniffer's ASCII identifiers left unread (`météo(…)`),
 * or a `key=`/`key:` argument (`multiply a=2`); else null.
 */
function attemptedCall(body: string, ctx: ComposeContext): string | null {
  const registry = ctx.registry;
  if (registry === null) return null;
  let end = 0;
  while (end < body.length && !FIRST_WORD_ENDS.has(body.charCodeAt(end))) end++;
  const name = body.slice(0, end);
  if (end === 0) return null;
  // The first argument's key glued to the name, its open lost (`send_commandcommand</arg_key>`, GLM-4.7).
  if (!registry.byName.has(name)) return body.charCodeAt(end) === 0x3c ? (registry.tools.find((tool) => name.startsWith(tool.name))?.name ?? null) : null;
  const next = body.charCodeAt(end);
  return end === body.length || next === 0x3c || next === 0x28 || next === 0x7b || KEYED_ARGUMENT.test(body.slice(end)) || MARKED_ARGUMENT.test(body.slice(end)) ? name : null;
}

/**
 * A registered name the scanner's ASCII identifiers could not head (`查询天气({"城市": "大理"})`,
 * `météo({…})`: Python and JavaScript both take such names), read as the direct rung reads
 * one; null when the arguments do not read as one object (the caller then reports the attempt).
 */
function headCallOf(body: string, name: string): BodyOutcome | null {
  const sep = body.charCodeAt(name.length);
  if (sep !== 0x28 && sep !== 0x7b) return null;
  const parsed = parseHeadCall(body, name, sep === 0x28 ? '(' : '{');
  if (!parsed.ok) return null;
  const args = 'arguments' in parsed ? parsed.arguments : parsed.value;
  if (!isJsonObject(args) || !isBlankFrom(body, parsed.consumed)) return null;
  return { ok: true, call: { id: DIRECT_CALL_ID, name, arguments: args }, rung: 'direct-head' };
}

/** A body that opens as JSON in full-width or curly punctuation: `｛`, `［`, or a curly-quoted key. */
const TYPOGRAPHIC_JSON_OPEN = /^(?:[｛［]|[“”][^“”\n]{1,64}[“”]\s*[:：])/u;

const FIRST_WORD_ENDS: ReadonlySet<number> = new Set([0x20, 0x09, 0x0a, 0x0d, 0x3c, 0x28, 0x7b, 0x3a]);
/** A first argument written `key=value` or `key: value` after the name. */
const KEYED_ARGUMENT = /^\s+[A-Za-z_][\w-]*\s*[=:]/;
/** A word then markup after the name (`browser_action task</arg_key>`: GLM's pairs with their first open lost). */
const MARKED_ARGUMENT = /^\s+[A-Za-z_][\w-]*<\/?[A-Za-z_]+>/;

// The last rung always decides: exactly one sniffed call, or a diagnostic. Under `gateway` the
// words beside the call in the block (`Sure: {"name": …}`) are prose, where the reference lets
// them go unrecorded.
const bareCall: BodyRungFn = ({ t, ctx, sniff }) => {
  const { calls, errors, prose } = sniff();
  if (errors.length > 0) return { ok: false, error: errors[0] as string, rung: 'bare-call' };
  if (calls.length === 1) {
    const words = ctx.profile === 'gateway' ? prose.trim() : '';
    return words === '' ? { ok: true, call: calls[0], rung: 'bare-call' } : { ok: true, call: calls[0], prose: [words], rung: 'bare-call' };
  }
  if (calls.length > 1) return { ok: false, error: msg.severalCalls(calls.length), rung: 'bare-call' };
  return { ok: false, error: msg.noCallExpression(t), rung: 'bare-call' };
};

/** The ladder, in order. */
export const BODY_RUNGS: readonly BodyRungFn[] = [directHead, functionMarkup, nestedXmlRung, jsonBody, narrationRung, bareCall];

function climb(input: BodyInput): BodyStep {
  for (const rung of BODY_RUNGS) {
    const step = rung(input);
    if (step !== undefined) return step;
  }
  // Unreachable: `bareCall` always answers.
  return { ok: false, error: msg.noCallExpression(input.t), rung: 'bare-call' };
}

/**
 * Reads one call-block body. `head` and `direct` are the scanner's view of the block head;
 * without them (envelope bodies, text after narration) the direct rung is skipped.
 *
 * Narration peeled on the way is kept in order in `prose`, including narration peeled at a
 * deeper level (the reference kept only the outermost level's; see DIFFERENCES.md).
 */
export function callFromBody(body: string, ctx: ComposeContext, head?: BodyHead, direct?: DirectParse | null): BodyOutcome {
  if (typeof body !== 'string') throw new TypeError(`callFromBody: body must be a string; got ${typeof body}`);
  let t = body.trim();
  if (t === '') return { ok: false, error: msg.noCallExpression(''), rung: 'empty-body' };

  let input: BodyInput = { t, ctx, head, direct, sniff: lazySniff(t, ctx) };
  let wrapped = false;
  const prose: string[] = [];
  for (;;) {
    const step = climb(input);
    if ('peeled' in step) {
      // <thinking>…</thinking> rest
      //                        ^ t moves here; `rest` is strictly shorter, so the loop ends
      wrapped = true;
      prose.push(...step.peeled);
      if (step.rest === '') return { ok: true, prose, rung: 'narration' };
      t = step.rest;
      input = { t, ctx, head: undefined, direct: undefined, sniff: lazySniff(t, ctx) };
      continue;
    }
    if (!wrapped) return step;
    if (!step.ok) return { ok: false, error: step.error || msg.defaultFailure, matched: true, rung: 'narration' };
    const outcome: BodyOutcome = { ok: true, prose: [...prose, ...(step.prose ?? [])], rung: 'narration' };
    if (step.call !== undefined) outcome.call = step.call;
    return outcome;
  }
}
