/**
 * Gateway prose, verbatim: a rest piece that the tagged lane read as nothing but prose keeps its
 * text as the model wrote it. The walk splits text at every `<` and joins the runs it keeps by a
 * blank line, and an unknown tag leaves its run (the reference's feedback grammar), so
 * `Use the <div> element.` came out as `Use the\n\n element.`, or blank after a violation. Under
 * `gateway` such a piece (no call, no error, no answer or done marker; every unit text kept as
 * prose, an unknown or stray tag, or blank) reads as its text trimmed. Its violations
 * (`unknown_tag`, `stray_text`) and ledger stay as the walk gave them.
 */
import { renderProse } from './canonical.js';
import { CONTENTLESS_DROP_REASONS } from './diagnostics.js';
import type { TraceEntry } from './funnel.js';
import { SPECIAL_TOKEN, isSpecialToken, withoutMarkers } from './prose-markers.js';
import type { DroppedFragment, LaneResult } from './types.js';
import { codeSpans } from './field/answer-fences.js';

/** Where an answer shows code: a block, an inline span or a code element (`codeSpans`). */
type Span = { readonly start: number; readonly end: number };

/** Whether `read` may be a piece read as prose only: the traced walk (`onlyProseUnits`) decides. */
export function mayBeVerbatim(read: LaneResult): boolean {
  if (read.calls.length > 0 || read.tool_parse_errors.length > 0 || read.user_response !== null || read.done_marker !== null) return false;
  for (const drop of read.dropped) if (drop.reason !== 'salvaged_as_prose' && drop.reason !== 'fenced_narration' && !CONTENTLESS.has(drop.reason)) return false;
  for (const violation of read.protocol_violations) if (violation.kind !== 'unknown_tag' && violation.kind !== 'stray_text') return false;
  return true;
}

const CONTENTLESS: ReadonlySet<string> = new Set(CONTENTLESS_DROP_REASONS);

/**
 * The piece's text as verbatim prose when every unit of its traced walk was text kept as prose
 * (rung `salvage`), an unknown or stray tag (the walk's tag branch: a `salvaged_as_prose` drop
 * with no rung), blank, text inside a code block the piece shows (any rung: the block's text),
 * or a marker: an unknown special token (`<|CHATBOT_TOKEN|>`) or a turn's end or header token,
 * which are cut out (a marker is never prose); null otherwise.
 */
export function proseOnlyText(piece: string, trace: readonly TraceEntry[], spans: readonly Span[] = codeSpans(piece)): string | null {
  let out = '';
  let copied = 0;
  // A unit inside a code block or an inline code span the answer shows is that code's text,
  // whatever rung took it.
  let s = 0;
  for (const entry of trace) {
    if (entry.start < 0) return null;
    if (entry.account === 'structural' && entry.outcome === 'empty_text') continue;
    if (entry.account !== 'drop') return null;
    if (entry.rung === 'salvage') continue;
    while (s < spans.length && spans[s]!.end < entry.end) s++;
    if (s < spans.length && entry.start >= spans[s]!.start && entry.end <= spans[s]!.end) continue;
    const raw = entry.text ?? '';
    if (entry.rung === undefined && entry.outcome === 'salvaged_as_prose' && (isPlainTag(raw) || isTagless(raw))) continue;
    const token = (entry.rung === undefined && entry.outcome === 'salvaged_as_prose' && isSpecialToken(raw)) || CONTENTLESS.has(entry.outcome);
    if (!token || entry.start < copied) return null;
    out += piece.slice(copied, entry.start);
    copied = entry.end;
  }
  // A token the walk kept inside a text unit would stay in the prose: the walk's reading stands
  // (its markers cut there, tagged-lane.ts).
  if (copied === 0) return tokenOutside(piece, spans) ? null : piece;
  const text = out + piece.slice(copied);
  // A token the walk kept inside a text unit would stay in the prose: the walk's reading stands.
  return tokenOutside(text, codeSpans(text)) ? null : text;
}

/** Whether a special token stands in `text` outside its code `spans` (one quoted as code is the code's text). */
function tokenOutside(text: string, spans: readonly Span[]): boolean {
  if (!SPECIAL_TOKEN.test(text)) return false;
  let from = 0;
  for (const span of spans) {
    if (SPECIAL_TOKEN.test(text.slice(from, span.start))) return true;
    from = span.end;
  }
  return SPECIAL_TOKEN.test(text.slice(from));
}


/**
 * An unknown tag written as HTML writes one (`<b>`, `</div>`, `<a href="x">`): a name of ASCII
 * letters, digits, `-`, `_`, `:` or `.`; or a document's declaration or comment. A special token
 * (`<|im_end|>`, `<｜end｜>`) is not one.
 */
function isPlainTag(raw: string): boolean {
  const second = raw.charCodeAt(1);
  // `<?xml …?>`, `<!DOCTYPE html>`, `<!-- … -->`: an XML or HTML document's prolog and comments.
  if (second === 0x3f || second === 0x21) return raw.startsWith('<!--') || isTagName(raw, 2);
  return isTagName(raw, second === 0x2f ? 2 : 1);
}

/** Whether a tag name starts at `from` and runs to the tag's end, a blank or a `/`. */
function isTagName(raw: string, from: number): boolean {
  let at = from;
  const first = raw.charCodeAt(at);
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a))) return false;
  for (at++; at < raw.length; at++) {
    const code = raw.charCodeAt(at);
    const name = (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x2d || code === 0x5f || code === 0x3a || code === 0x2e;
    if (!name) return code === 0x3e || code === 0x20 || code === 0x2f || code === 0x0a || code === 0x09;
  }
  return true;
}

/**
 * A unit the walk took for a tag that opens none: a `<` with no `>` after it in the unit, and no
 * marker in it (`<3 you all`, `< b`, a token's first characters `<｜DSM` and words): text.
 */
function isTagless(raw: string): boolean {
  return raw.indexOf('>') < 0 && withoutMarkers(raw) === raw.trim();
}

/**
 * The text of `piece` outside its code blocks and inline code spans, as one fragment for the
 * tool-shape check: markup inside one (`<parameter name="city"/>` in an XML sample, a
 * `<ToolCall …/>` in JSX, a token named as `<|im_start|>`) is the sample's text, not a
 * grammar's marker left over, so it does not keep the piece from reading verbatim. Taken from
 * the piece whole, not from the walk's drops, which cut a unit at each `<` and so split a span.
 */
export function textOutsideBlocks(piece: string, spans: readonly Span[] = codeSpans(piece)): DroppedFragment[] {
  let text = '';
  let from = 0;
  for (const span of spans) {
    text += piece.slice(from, span.start) + '\n';
    from = span.end;
  }
  return [{ text: text + piece.slice(from), reason: 'salvaged_as_prose' }];
}

/**
 * `dropped` without the entries a traced walk of `piece` took inside its code blocks: a piece
 * read verbatim because its tool-like markup stands in a block shows that markup as the block's
 * text, so it is not on the ledger (nor reported as tool syntax that never ran).
 */
export function withoutBlockDrops(trace: readonly TraceEntry[], dropped: readonly DroppedFragment[], spans: readonly Span[]): readonly DroppedFragment[] {
  const inBlocks = new Map<string, number>();
  let s = 0;
  for (const entry of trace) {
    if (entry.account !== 'drop' || entry.text === undefined) continue;
    while (s < spans.length && spans[s]!.end < entry.end) s++;
    if (s < spans.length && entry.start >= spans[s]!.start && entry.end <= spans[s]!.end) inBlocks.set(entry.text, (inBlocks.get(entry.text) ?? 0) + 1);
  }
  if (inBlocks.size === 0) return dropped;
  return dropped.filter((drop) => {
    const left = inBlocks.get(drop.text) ?? 0;
    if (left === 0) return true;
    inBlocks.set(drop.text, left - 1);
    return false;
  });
}

/** `read` with `prose` (the piece trimmed) as its prose. */
export function asVerbatim(read: LaneResult, prose: string): LaneResult {
  return { ...read, prose, canonical_text: prose === '' ? '' : renderProse(prose) };
}
