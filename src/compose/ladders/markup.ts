import { DIALECTS, TAG_LITERALS } from '../../dialects/vocabulary.js';
import { balancedJsonObjectLen } from '../../lex/json-balance.js';
import { Code } from '../../lex/codes.js';
import type { ComposeContext } from '../context.js';
import { decodeArgumentEntities } from './entities.js';
import { isJsonObject, parseJson, setOwn } from './json.js';
import { scanParameters, unframe } from './markup-params.js';
import { markupMessages as msg, markupMessagesFor } from './messages.js';
import type { MarkupOutcome } from './types.js';

type MarkupDialect = (typeof DIALECTS.MARKUP_DIALECTS)[number];

const CALL_ID_PREFIX = 'tc_fnmarkup_';
const PARAMETER_OPEN = TAG_LITERALS.parameter_open;
/** `^[A-Za-z0-9_.-]+$`: anything else (`<function=a tool of your choice>`) is prose. */
const MARKUP_NAME = /^[A-Za-z0-9_.-]+$/;

const notMatched: MarkupOutcome = { ok: false, matched: false };
const failed = (error: string): MarkupOutcome => ({ ok: false, matched: true, error, rung: 'function-markup' });

/** "a `<function=`" / "an `<invoke name=`" — the subject of the open-tag diagnostic. */
function openerSubject(opener: string): string {
  const first = opener.charCodeAt(1) | 0x20; // the letter after '<', lowercased
  const vowel = first === 0x61 || first === 0x65 || first === 0x69 || first === 0x6f || first === 0x75; // a e i o u
  return `${vowel ? 'an' : 'a'} \`${opener}\``;
}

/** `"run"` → `run`; trimmed first so `<invoke name="run" >` still names `run`. */
function markupName(raw: string): string {
  let name = raw.trim();
  if (name.charCodeAt(0) === Code.Quote) name = name.slice(1);
  if (name.charCodeAt(name.length - 1) === Code.Quote) name = name.slice(0, -1);
  return name.trim();
}

/** The registry's declared type of one parameter, or null when undeclared. */
function parameterType(ctx: ComposeContext, tool: string, key: string): string | null {
  return ctx.registry?.byName.get(tool)?.paramsByName.get(key)?.type ?? null;
}

/**
 * A `<parameter>` value typed by the registry: string-typed or undeclared parameters keep the
 * text verbatim (no trimming, no entity decoding, heredoc markers literal); any other type is
 * read as JSON when it parses, else kept as text.
 */
function typedValue(raw: string, type: string | null): unknown {
  const value = unframe(raw);
  if (type === null || type === 'string') return value;
  const parsed = parseJson(value.trim());
  return parsed.ok ? parsed.value : value;
}

/**
 * Chat-template function markup (docs/design.md, "Markup"):
 *
 *   <function=edit>                      <invoke name="look">
 *   <parameter=path>                     <parameter name="file" string="true">a.zig</parameter>
 *   a.rs                                 </invoke>
 *   </parameter>
 *   </function>
 *
 * or a trailing JSON object after the open tag (`<function=echo>{"value": 1}`). Returns
 * `matched: false` when `text` is not markup at all, a matched diagnosis when it is markup but
 * broken, and the call otherwise. A missing outer close tag is tolerated.
 */
export function parseMarkup(text: string, ctx: ComposeContext): MarkupOutcome {
  if (typeof text !== 'string') throw new TypeError(`parseMarkup: text must be a string; got ${typeof text}`);
  const t = text.trim();
  const dialect = DIALECTS.MARKUP_DIALECTS.find((d) => t.startsWith(d.opener));
  if (dialect === undefined) return notMatched;

  const rest = t.slice(dialect.opener.length);
  const gt = rest.indexOf('>');
  // <function=edit
  //               ^ no `>` before the end: the output stopped inside the open tag
  if (gt < 0) return failed(msg.openTagUnclosed(openerSubject(dialect.opener)));

  const name = markupName(rest.slice(0, gt));
  if (!MARKUP_NAME.test(name)) return notMatched;
  if (!ctx.known.has(name)) return failed(msg.unknownTool(name, dialect.label, ctx.knownList));

  const after = rest.slice(gt + 1);
  const closeAt = after.indexOf(dialect.close);
  const inner = closeAt >= 0 ? after.slice(0, closeAt) : after;
  return markupArguments(inner, name, dialect, ctx);
}

function markupArguments(inner: string, name: string, dialect: MarkupDialect, ctx: ComposeContext): MarkupOutcome {
  const { params, leftover } = scanParameters(inner);
  let args: Record<string, unknown> = {};
  for (const param of params) setOwn(args, param.key, typedValue(param.raw, parameterType(ctx, name, param.key)));

  if (leftover.includes(PARAMETER_OPEN)) return failed(msg.parameterUnclosed(dialect.label, name));
  if (DIALECTS.MARKUP_DIALECTS.some((d) => leftover.includes(d.opener))) {
    return failed(markupMessagesFor(ctx.profile).severalCalls(dialect.label, name));
  }

  const trailing = leftover.trim();
  if (params.length === 0 && trailing.charCodeAt(0) === Code.LeftBrace) {
    // repair: JSON arguments after the open tag (seen in: Qwen-style `<function=name>{...}`; case: Ex36)
    const length = balancedJsonObjectLen(trailing);
    if (length === 0) return failed(msg.jsonUnclosed(dialect.label, name));
    const parsed = parseJson(trailing.slice(0, length));
    if (!parsed.ok) return failed(msg.jsonInvalid(dialect.label, name, parsed.error));
    if (!isJsonObject(parsed.value)) return failed(msg.jsonNotObject(dialect.label, name, parsed.value));
    args = decodeArgumentEntities(parsed.value);
  }
  return { ok: true, matched: true, call: { id: CALL_ID_PREFIX + name, name, arguments: args }, rung: 'function-markup' };
}
