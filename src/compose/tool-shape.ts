/**
 * Tool-shape findings (composer spec section 6.6): is the text the turn dropped shaped like a
 * tool call that never ran? One finding at most per turn, reported as `unparsed_tool_syntax`.
 *
 * Runs once per parse over the rejoined drop ledger, so regular expressions are fine here; each
 * one is applied with a single global sweep so the whole check stays linear in the ledger size.
 */
import { DIAGNOSED_DROP_REASONS } from './diagnostics.js';
import { messages } from './messages.js';
import type { DroppedFragment, ProtocolViolation } from './types.js';

export type ToolShape = 'call_markup' | 'tagged_call_body' | 'json_name_arguments';

export interface ToolShapeFinding {
  readonly shape: ToolShape;
  readonly dropped_reason: string;
  readonly excerpt: string;
}

const PROTOCOL_TAGS: ReadonlySet<string> = new Set(['tool_call', 'toolcall', 'assistant_prose', 'assistantprose', 'user_response', 'userresponse', 'done']);
export const EXCERPT_LIMIT = 240;
const ELLIPSIS = '\u2026';

const CALL_MARKUP_NAMED = /<(?:function|invoke|tool)\s*[=\s][^>]*>/i;
const CALL_MARKUP_FRAMED = /\[TOOL_CALLS\]|<\|recipient\|>|<\|channel\|>/i;
const TAG_OPEN = /<([A-Za-z_][A-Za-z0-9_.:-]*)\b[^>]*>/gs;
const CLOSE_TAG = /<\/([A-Za-z_][A-Za-z0-9_.:-]*)>/g;
const BODY_CALL_EXPR = /[A-Za-z_][A-Za-z0-9_]*\s*\(/g;
const BODY_OBJECT_KEY = /\{[^{}]*"?[A-Za-z_][A-Za-z0-9_]*"?\s*:/g;
const JSON_NAME_KEY = /"(?:name|tool|tool_name|recipient)"\s*:/i;
const JSON_ARGS_KEY = /"(?:arguments|args|parameters|input|params)"\s*:/i;

interface Run {
  readonly text: string;
  readonly reason: string;
}

/** All drops that carry no diagnostic of their own, rejoined in ledger order. */
export function rejoinSilentDrops(dropped: readonly DroppedFragment[]): Run | null {
  const kept = dropped.filter((d) => d.text.trim() !== '' && !(DIAGNOSED_DROP_REASONS as readonly string[]).includes(d.reason));
  if (kept.length === 0) return null;
  return { text: kept.map((d) => d.text).join('\n'), reason: kept[0]!.reason };
}

/** Match spans of a global regex, in order (leftmost, non-overlapping). */
function matchSpans(pattern: RegExp, text: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    spans.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) pattern.lastIndex++;
  }
  return spans;
}

/** True when some span starts at or after `from` and ends by `to` (spans sorted by start). */
function spanWithin(spans: ReadonlyArray<readonly [number, number]>, from: number, to: number): boolean {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans[mid]![0] < from) lo = mid + 1;
    else hi = mid;
  }
  // Leftmost non-overlapping spans also have increasing ends, so the first candidate decides.
  return lo < spans.length && spans[lo]![1] <= to;
}

/** First index in sorted `positions` at or after `from`, or -1. */
function firstAtOrAfter(positions: readonly number[], from: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (positions[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < positions.length ? positions[lo]! : -1;
}

function taggedCallBodyAt(text: string): number {
  const callSpans = matchSpans(BODY_CALL_EXPR, text);
  const keySpans = matchSpans(BODY_OBJECT_KEY, text);
  // perf: every close tag is indexed in one sweep, so each open tag costs a binary search
  // instead of a rescan of the text (many distinct unclosed tags would be quadratic).
  const closes = new Map<string, number[]>();
  CLOSE_TAG.lastIndex = 0;
  for (let m = CLOSE_TAG.exec(text); m !== null; m = CLOSE_TAG.exec(text)) {
    const list = closes.get(m[1]!);
    if (list) list.push(m.index);
    else closes.set(m[1]!, [m.index]);
  }
  TAG_OPEN.lastIndex = 0;
  for (let m = TAG_OPEN.exec(text); m !== null; m = TAG_OPEN.exec(text)) {
    const name = m[1]!.toLowerCase();
    if (PROTOCOL_TAGS.has(name)) continue;
    const bodyStart = m.index + m[0].length;
    // The close is searched case-sensitively with the lowered name, as the reference does.
    const close = firstAtOrAfter(closes.get(name) ?? [], bodyStart);
    if (close < 0) continue;
    if (spanWithin(callSpans, bodyStart, close) || spanWithin(keySpans, bodyStart, close)) return m.index;
  }
  return -1;
}

function excerptFrom(text: string, at: number): string {
  let excerpt = text.slice(at).trim();
  if (excerpt.length > EXCERPT_LIMIT) excerpt = excerpt.slice(0, EXCERPT_LIMIT) + ELLIPSIS;
  return at > 0 ? ELLIPSIS + excerpt : excerpt;
}

/** The shape of the silent drops, or null when nothing in them looks like a call. */
export function toolShapeFinding(dropped: readonly DroppedFragment[]): ToolShapeFinding | null {
  const run = rejoinSilentDrops(dropped);
  if (run === null) return null;
  const { text, reason } = run;
  const markup = CALL_MARKUP_NAMED.exec(text) ?? CALL_MARKUP_FRAMED.exec(text);
  if (markup) return { shape: 'call_markup', dropped_reason: reason, excerpt: excerptFrom(text, markup.index) };
  const tagged = taggedCallBodyAt(text);
  if (tagged >= 0) return { shape: 'tagged_call_body', dropped_reason: reason, excerpt: excerptFrom(text, tagged) };
  if (text.includes('{')) {
    const nameKey = JSON_NAME_KEY.exec(text);
    if (nameKey && JSON_ARGS_KEY.test(text)) return { shape: 'json_name_arguments', dropped_reason: reason, excerpt: excerptFrom(text, nameKey.index) };
  }
  return null;
}

/** `unparsed_tool_syntax` violations for the turn's silent drops (zero or one). */
export function toolShapeViolations(dropped: readonly DroppedFragment[], toolFormat: string): ProtocolViolation[] {
  const finding = toolShapeFinding(dropped);
  if (finding === null) return [];
  return [{ kind: 'unparsed_tool_syntax', message: messages.unparsedToolSyntax(toolFormat, finding.excerpt), excerpt: finding.excerpt, dropped_reason: finding.dropped_reason }];
}
