import { Code } from '../../lex/codes.js';
import { balancedJsonObjectLen } from '../../lex/json-balance.js';
import type { ComposeContext } from '../context.js';
import type { ToolCall } from '../types.js';
import { decodeArgumentEntities } from './entities.js';
import { isJsonObject, parseJson } from './json.js';
import { nestedXmlMessages as msg, nestedXmlMessagesFor } from './messages.js';

export type NestedXmlOutcome =
  | { matched: false }
  | { matched: true; ok: true; call: ToolCall }
  | { matched: true; ok: false; error: string };

const CALL_ID_PREFIX = 'tc_xml_';

const isTagStart = (c: number): boolean =>
  (c >= Code.LowerA && c <= Code.LowerZ) || (c >= Code.UpperA && c <= Code.UpperZ) || c === Code.Underscore;
const isTagPart = (c: number): boolean =>
  isTagStart(c) || (c >= Code.Digit0 && c <= Code.Digit9) || c === Code.Dot || c === Code.Dash;

/**
 * A body that wraps JSON arguments in a tag named after the tool
 * (docs/design.md, "Nested XML"):
 *
 *   <tool_call><edit>{"path": "a.ts", ...}</edit></tool_call>
 *              ^ body: a bare open tag (no attributes), then a JSON object
 *
 * Whatever follows the object (the inner close, a duplicate close, nothing) is ignored.
 */
export function nestedXml(body: string, ctx: ComposeContext): NestedXmlOutcome {
  const t = body.trim();
  if (t.charCodeAt(0) !== Code.LessThan || !isTagStart(t.charCodeAt(1))) return { matched: false };
  let end = 2;
  while (end < t.length && isTagPart(t.charCodeAt(end))) end++;
  if (t.charCodeAt(end) !== Code.GreaterThan) return { matched: false };
  const name = t.slice(1, end);
  const json = t.slice(end + 1).trim();
  if (json.charCodeAt(0) !== Code.LeftBrace) return { matched: false };

  if (!ctx.known.has(name)) return { matched: true, ok: false, error: msg.unknownTool(name, ctx.knownList) };
  const length = balancedJsonObjectLen(json);
  if (length === 0) return { matched: true, ok: false, error: nestedXmlMessagesFor(ctx.profile).incomplete(name) };
  const parsed = parseJson(json.slice(0, length));
  if (!parsed.ok) return { matched: true, ok: false, error: nestedXmlMessagesFor(ctx.profile).invalid(name, parsed.error) };
  if (!isJsonObject(parsed.value)) return { matched: true, ok: false, error: msg.notObject(name, parsed.value) };
  return {
    matched: true,
    ok: true,
    call: { id: CALL_ID_PREFIX + name, name, arguments: decodeArgumentEntities(parsed.value) },
  };
}
