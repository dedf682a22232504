/**
 * Where a field region's calls may be whole before its outermost close: the held text ends
 * where a call's body ends (its JSON, list or call closed, or its own close marker written),
 * apart from whitespace and the beginning of a marker. Only then is an announcement worth a
 * try (announce.ts); the try itself decides, by reading the region.
 */
import { FIELD_GRAMMARS, type FieldGrammar } from '../../dialects/field/index.js';
import type { FieldRegion } from '../field/region.js';
import { isJsonSpace } from '../../lex/codes.js';
import { closers, jsonOpenAt } from './closers.js';
import type { ValueDepth } from './value-depth.js';

/** The markers that end one call inside a region (before the region's own close). */
export function innerCloses(grammar: FieldGrammar): readonly string[] {
  switch (grammar.family) {
    case 'token-section':
      return grammar.sectionClose.length > 0 ? grammar.callClose : [];
    case 'param-markup': {
      const call = grammar.call.kind === 'tag' ? grammar.call.tag.close : grammar.call.close;
      return grammar.callWrap === null ? call : [...call, ...grammar.callWrap.close];
    }
    default:
      return [];
  }
}

/** The length of the longest proper prefix of one of `markers` that `text` ends with (after `from`). */
export function partialMarkerAtEnd(text: string, from: number, markers: readonly string[]): number {
  let best = 0;
  for (const marker of markers) {
    for (let k = Math.min(marker.length - 1, text.length - from); k > best; k--) {
      if (text.endsWith(marker.slice(0, k))) {
        best = k;
        break;
      }
    }
  }
  return best;
}

function endsWithAny(text: string, end: number, from: number, markers: readonly string[]): boolean {
  return markers.some((m) => end - m.length >= from && text.startsWith(m, end - m.length));
}

/** The characters that close a JSON value, a Python call or list, or a fence. */
function closesValue(code: number): boolean {
  return code === 0x7d || code === 0x5d || code === 0x29 || code === 0x60;
}

/** True when `text` (held by a stream, `region` running to its end) ends where a call's body ends. */
export function bodyEndsAtEnd(text: string, region: FieldRegion, grammar: FieldGrammar): boolean {
  // A suffixed grammar's markers carry a placeholder: its closes are not literals to look for.
  if (grammar.family === 'param-markup' && grammar.suffixed) return false;
  const inner = innerCloses(grammar);
  let end = text.length - partialMarkerAtEnd(text, region.start, [...closers(grammar), ...inner]);
  while (end > region.start && isJsonSpace(text.charCodeAt(end - 1))) end--;
  if (end <= region.start) return false;
  if (grammar.family === 'param-markup') return endsWithAny(text, end, region.start, inner);
  if (grammar.family !== 'token-section' && grammar.family !== 'call-objects' && grammar.family !== 'harmony' && grammar.family !== 'value-grammar') return false;
  if (jsonOpenAt(text, region.start, end)) return false;
  return endsWithAny(text, end, region.start, inner) || closesValue(text.charCodeAt(end - 1));
}

let allInner: readonly string[] | null = null;

function everyInnerClose(): readonly string[] {
  // Harmony's frame ends too: its calls are announced at one (announce.ts, `framedCalls`).
  return (allInner ??= [...new Set(FIELD_GRAMMARS.flatMap((g) => (g.family === 'param-markup' && g.suffixed ? [] : g.family === 'harmony' ? closers(g) : innerCloses(g))))]);
}

/**
 * A cheap first look, before any region is read: the held text, from the opener at `from`,
 * ends (but for whitespace and what may begin a marker) with a closed value or a call's close.
 * Returns the characters looked at (a negative count when the answer is no).
 */
export function mayEndBodyAt(text: string, from: number, depth: ValueDepth): number {
  let end = text.length;
  // What may begin a marker after the body: from its `<`, `[` or `｜` on, with no close yet.
  for (let i = end - 1; i >= from && end - i <= 24; i--) {
    const code = text.charCodeAt(i);
    if (code === 0x3e || code === 0x7d || code === 0x5d || code === 0x29 || code === 0x60) break;
    if (code === 0x3c || code === 0x5b || code === 0xff5c) end = i;
  }
  while (end > from && isJsonSpace(text.charCodeAt(end - 1))) end--;
  const looked = Math.min(64, text.length - end + 24);
  if (end <= from) return -looked;
  const last = text.charCodeAt(end - 1);
  if (last === 0x3e) return endsWithAny(text, end, from, everyInnerClose()) ? looked : -looked;
  if (last === 0x60) return looked;
  if (!closesValue(last)) return -looked;
  const scanned = depth.advance(text, from, end);
  return depth.open ? -(looked + scanned) : looked + scanned;
}
