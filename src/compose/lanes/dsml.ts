/**
 * DeepSeek DSML (docs/design.md, "Provider dialects"), `｜` being U+FF5C:
 *
 *   <｜DSML｜function_calls>
 *   <｜DSML｜invoke name="run">
 *   <｜DSML｜parameter name="command" string="false">["cargo", "test"]</｜DSML｜parameter>
 *   </｜DSML｜invoke>
 *   </｜DSML｜function_calls>
 *
 * Every complete invoke of a registered tool becomes a call `tc_dsml_<k>`. Parameter values are
 * raw text (entity-decoded, not trimmed) unless `string="false"` asks for JSON. Prose is the
 * text with complete DSML blocks removed, cut at the first DSML marker left. The scan is by
 * `indexOf` from a cursor that only moves forward, so a turn full of unclosed openers stays
 * linear (the reference patterns' lazy bodies would rescan to the end from every opener).
 */
import { DIALECTS } from '../../dialects/vocabulary.js';
import { Code, isAsciiSpace } from '../../lex/codes.js';
import { decodeEntities } from '../../lex/entities.js';
import { setOwn } from '../ladders/json.js';
import { strictJson } from './strict-json.js';
import type { ComposeContext } from '../context.js';
import type { DroppedFragment, LaneResult, ToolCall } from '../types.js';
import { laneMessages } from './messages.js';
import { providerResult } from './result.js';

const MARKER = DIALECTS.DSML_MARKER;
const INVOKE_OPEN = `${MARKER}invoke`;
const INVOKE_CLOSE = `</${MARKER.slice(1)}invoke>`;
const PARAM_OPEN = `${MARKER}parameter`;
const PARAM_CLOSE = `</${MARKER.slice(1)}parameter>`;
const BLOCKS = ['function_calls', 'tool_calls'].map((name) => ({ open: `${MARKER}${name}>`, close: `</${MARKER.slice(1)}${name}>` }));

/** Reads `name="VALUE"` at `pos`, after at least one space; the value and the offset after the quote. */
function attributeAt(text: string, pos: number, attr: string): { value: string; end: number } | null {
  let p = pos;
  if (!isAsciiSpace(text.charCodeAt(p))) return null;
  while (isAsciiSpace(text.charCodeAt(p))) p++;
  if (!text.startsWith(`${attr}="`, p)) return null;
  const valueAt = p + attr.length + 2;
  const quoteAt = text.indexOf('"', valueAt);
  if (quoteAt <= valueAt) return null;
  return { value: text.slice(valueAt, quoteAt), end: quoteAt + 1 };
}

/** Skips optional spaces and a `>`; the offset after it, or -1. */
function tagEnd(text: string, pos: number): number {
  let p = pos;
  while (isAsciiSpace(text.charCodeAt(p))) p++;
  return text.charCodeAt(p) === Code.GreaterThan ? p + 1 : -1;
}

interface Element {
  name: string;
  /** `string="..."` of a parameter, when present. */
  string: string | null;
  body: string;
  end: number;
}

/**
 * The next complete `<OPEN name="..."[ string="..."]>BODY</CLOSE>` at or after `from`, or null.
 * An opener whose header does not parse is skipped; no close after an opener means none after
 * any later opener either, so the search stops.
 */
function nextElement(text: string, from: number, open: string, close: string, withString: boolean): Element | null {
  let at = text.indexOf(open, from);
  while (at >= 0) {
    const name = attributeAt(text, at + open.length, 'name');
    if (name !== null) {
      let after = name.end;
      let string: string | null = null;
      const flag = withString ? attributeAt(text, after, 'string') : null;
      if (flag !== null && (flag.value === 'true' || flag.value === 'false')) {
        string = flag.value;
        after = flag.end;
      }
      const bodyAt = tagEnd(text, after);
      if (bodyAt >= 0) {
        const closeAt = text.indexOf(close, bodyAt);
        if (closeAt < 0) return null;
        return { name: name.value, string, body: text.slice(bodyAt, closeAt), end: closeAt + close.length };
      }
    }
    at = text.indexOf(open, at + 1);
  }
  return null;
}

/** The DSML result, or null when the text has no DSML marker. */
export function dsmlResult(text: string, ctx: ComposeContext): LaneResult | null {
  if (!text.includes(MARKER)) return null;
  const calls: ToolCall[] = [];
  const errors: string[] = [];
  let pos = 0;
  let lastEnd = 0;
  const unknown: DroppedFragment[] = [];
  for (let invoke = nextElement(text, pos, INVOKE_OPEN, INVOKE_CLOSE, false); invoke !== null; invoke = nextElement(text, pos, INVOKE_OPEN, INVOKE_CLOSE, false)) {
    pos = invoke.end;
    lastEnd = invoke.end;
    if (!ctx.known.has(invoke.name)) {
      errors.push(laneMessages.dsmlUnknown(invoke.name));
      // Gateway: a call refused for its name is on the ledger (the reference kept no record).
      if (ctx.profile === 'gateway') unknown.push({ text: `${invoke.name}: ${invoke.body.trim()}`, reason: 'unknown_tool' });
      continue;
    }
    calls.push({ id: `tc_dsml_${calls.length}`, name: invoke.name, arguments: readParameters(invoke, errors) });
  }
  const dropped: DroppedFragment[] = unknown;
  // The reference ignores an unfinished invoke silently; the port records the unread tail.
  const tailMarker = text.indexOf(MARKER, lastEnd);
  if (tailMarker >= 0) dropped.push({ text: text.slice(tailMarker).trim(), reason: 'salvaged_as_prose' });
  return { ...providerResult(calls, errors, dsmlProse(text), []), dropped };
}

function readParameters(invoke: Element, errors: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let pos = 0;
  for (let param = nextElement(invoke.body, pos, PARAM_OPEN, PARAM_CLOSE, true); param !== null; param = nextElement(invoke.body, pos, PARAM_OPEN, PARAM_CLOSE, true)) {
    pos = param.end;
    let value: unknown = decodeEntities(param.body, DIALECTS.HTML_ENTITIES);
    if (param.string === 'false') {
      const parsed = strictJson(param.body.trim());
      if (parsed.ok) value = parsed.value;
      else errors.push(laneMessages.dsmlParamInvalid(param.name, invoke.name, parsed.error));
    }
    setOwn(args, param.name, value);
  }
  return args;
}

/** The text without complete DSML blocks, cut at the first DSML marker left, trimmed. */
function dsmlProse(text: string): string {
  const kept: string[] = [];
  let pos = 0;
  // perf: each block kind caches its next complete span; an opener with no close after it
  // retires its kind (no later opener of that kind can close either).
  const next: ({ at: number; end: number } | null | undefined)[] = BLOCKS.map(() => undefined);
  const spanOf = (k: number): { at: number; end: number } | null => {
    const cached = next[k];
    if (cached === null || (cached !== undefined && cached.at >= pos)) return cached;
    const block = BLOCKS[k];
    if (block === undefined) return null;
    const at = text.indexOf(block.open, pos);
    const closeAt = at < 0 ? -1 : text.indexOf(block.close, at + block.open.length);
    const span = closeAt < 0 ? null : { at, end: closeAt + block.close.length };
    next[k] = span;
    return span;
  };
  for (;;) {
    let best: { at: number; end: number } | null = null;
    for (let k = 0; k < BLOCKS.length; k++) {
      const span = spanOf(k);
      if (span !== null && (best === null || span.at < best.at)) best = span;
    }
    if (best === null) break;
    kept.push(text.slice(pos, best.at));
    pos = best.end;
  }
  kept.push(text.slice(pos));
  const stripped = kept.join('');
  const cut = stripped.indexOf(MARKER);
  return (cut < 0 ? stripped : stripped.slice(0, cut)).trim();
}
