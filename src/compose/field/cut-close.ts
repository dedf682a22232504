/**
 * A response cut off while the model was writing a marker (a `max_tokens` stop inside
 * `</function>`): the text ends with a proper prefix of one of the last region's markers.
 *
 *     <function=search>⏎<parameter=query>⏎ramen⏎</parameter>⏎</func
 *                                                              ^ fragment: the close had begun
 *
 * The marker had begun, so what precedes it is as the model meant it: the last region is read
 * again without the fragment, as any region whose closes are missing is read, and when that
 * reads more calls (a call whose arguments are complete, with the `recovered_dialect` of missing
 * closes), as many with fewer errors (the fragment was read as text in the call), or is a
 * reasoning block, the region takes the fragment, which so never reaches prose or reasoning. A call cut in its arguments stays the truncation first read, its drop covering
 * the fragment. A fragment after the last region, with only blanks between, is that region's
 * too when the region was read with its closes missing (the fragment is where they began); so
 * is a single character glued to such a region that begins one of its markers.
 *
 * Only the whole response's end is a cut: a stream's held text is not read this way (its next
 * chunk may complete the marker). The check costs the fragment's length; the re-read, one
 * region's, and only when the text ends inside a marker.
 */
import { FIELD_GRAMMARS, type FieldGrammar, type TurnEndGrammar } from '../../dialects/field/index.js';
import { isJsonSpace } from '../../lex/codes.js';
import type { ComposeContext } from '../context.js';
import { CUT_IN_BLOCK, MarkersCutAtEnd } from './close-cut-at-end.js';
import { skipSpace } from './cursor.js';
import { readRegion } from './readers/index.js';
import { RegionSink, type FieldRegion } from './region.js';
import { FieldScan } from './scan.js';

interface Prefixes {
  /** Where a proper prefix of a marker (two characters at least) that is not itself a marker ends the text. */
  readonly cut: MarkersCutAtEnd<null>;
  /** The markers, for a cut inside a deployment suffix (Hunyuan's `</tool_call` + `:opensource>`). */
  readonly markers: readonly string[];
}

/** The longest deployment suffix read (as the reasoning grammars bound theirs). */
const SUFFIX_MAX = 64;

let byGrammar: Map<string, Prefixes> | null = null;

function prefixesOf(id: string): Prefixes | undefined {
  byGrammar ??= new Map(FIELD_GRAMMARS.map((g) => [g.id, markerPrefixes(g)]));
  return byGrammar.get(id);
}

function markerPrefixes(grammar: FieldGrammar): Prefixes {
  const markers = new Set([...grammar.openers, ...grammar.markers].filter((m) => m.length > 1));
  // From two characters: a lone `<` at the end is as likely text (`a <`) as a marker begun. A
  // prefix that begins with a blank would take prose's last spaces for a marker.
  const cut = new MarkersCutAtEnd(
    [...markers].map((marker) => ({ owner: null, marker })),
    CUT_IN_BLOCK,
    (prefix) => !isJsonSpace(prefix.charCodeAt(0)) && !markers.has(prefix),
  );
  return { cut, markers: [...markers] };
}

function isSuffixChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e || c === 0x2d;
}

/** Where a marker cut inside its deployment suffix (`</tool_call:open`) that ends `text` begins, or -1. */
function suffixCutStart(text: string, markers: readonly string[], floor: number): number {
  let at = text.length;
  while (at > floor && text.length - at < SUFFIX_MAX && isSuffixChar(text.charCodeAt(at - 1))) at--;
  // The suffix follows its colon, which a marker may spell itself (`</think:`) or leave to it (`</tool_call`).
  if (at === text.length || at <= floor || text.charCodeAt(at - 1) !== 0x3a) return -1;
  const colon = at - 1;
  for (const m of markers) {
    const end = m.endsWith(':') ? at : colon;
    if (end - m.length >= floor && text.startsWith(m, end - m.length)) return end - m.length;
  }
  return -1;
}

/** Where the fragment of one of `grammar`'s markers that ends `text` begins (at or after `floor`), or -1. */
function fragmentStart(text: string, prefixes: Prefixes, floor: number): number {
  return prefixes.cut.at(text, floor)?.at ?? suffixCutStart(text, prefixes.markers, floor);
}

function blankBetween(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isJsonSpace(text.charCodeAt(i))) return false;
  return true;
}

/** The last region read again on `before` (the text without its end) from where it began; null when that reads no better. */
function reread(before: string, last: FieldRegion, ctx: ComposeContext, end: number, cutMarker: boolean): FieldRegion | null {
  const grammar = FIELD_GRAMMARS.find((g) => g.id === last.grammar)!;
  const scan = new FieldScan(before, ctx.registry);
  const sink = new RegionSink(before, grammar, ctx.registry, ctx.marks, scan);
  const readEnd = readRegion(scan, last.start, grammar, sink);
  if (readEnd <= last.start || !blankBetween(before, readEnd, before.length)) return null;
  // A re-read that reads no more calls, nor the same with fewer errors, keeps the region as
  // first read: its drops then cover the end too. A cut marker at a reasoning block's end is
  // the start of its close, not reasoning (a stream holds such a tail back); an end-of-turn
  // token there stays the reasoning's text, as a stream has released it.
  const better = sink.calls.length > last.calls.length || (sink.calls.length === last.calls.length && sink.errors.length < last.errors.length);
  return better || (cutMarker && grammar.family === 'reasoning') ? sink.region(last.start, end) : null;
}

/** Where the run of blanks and end-of-turn tokens that ends `text` begins, when it holds a token; else -1. */
function turnEndTail(text: string, floor: number): number {
  let tail = text.length;
  let tokens = 0;
  for (;;) {
    while (tail > floor && isJsonSpace(text.charCodeAt(tail - 1))) tail--;
    const token = TURN_END_TOKENS.find((t) => tail - t.length >= floor && text.startsWith(t, tail - t.length));
    if (token === undefined) break;
    tail -= token.length;
    tokens++;
  }
  return tokens === 0 ? -1 : tail;
}

const TURN_END = FIELD_GRAMMARS.find((g): g is TurnEndGrammar => g.family === 'turn-end' && g.role === 'end')!;
const TURN_END_TOKENS: readonly string[] = [...TURN_END.tokens, ...TURN_END.trailingTokens];

/** The end-of-turn regions of the tokens in `text` from `tail`, as the turn-end reader reads them. */
function turnEndRegions(text: string, tail: number, ctx: ComposeContext): FieldRegion[] {
  const out: FieldRegion[] = [];
  const scan = new FieldScan(text, ctx.registry);
  const grammar = TURN_END;
  for (let at = skipSpace(text, tail); at < text.length; at = skipSpace(text, at)) {
    const sink = new RegionSink(text, grammar, ctx.registry, ctx.marks, scan);
    const end = readRegion(scan, at, grammar, sink);
    if (end <= at) break;
    out.push(sink.region(at, end));
    at = end;
  }
  return out;
}

/**
 * `regions` with the last one read without the end of `text` when that end is an end-of-turn
 * token the region read as its own text (`…</parameter>⏎<|im_end|>`: a call whose closes are
 * missing, then the turn's end), or a cut marker of the region's grammar (the region then
 * takes the fragment; after the region, it does so only when the region's closes were missing).
 */
export function withCutMarkerAtEnd(text: string, regions: readonly FieldRegion[], ctx: ComposeContext): readonly FieldRegion[] {
  const last = regions[regions.length - 1];
  if (last === undefined) return regions;
  const tail = last.grammar === TURN_END.id ? -1 : turnEndTail(text, last.start + 1);
  if (tail >= 0) {
    if (last.end <= tail) return regions;
    const read = reread(text.slice(0, tail), last, ctx, tail, false);
    return read === null ? regions : [...regions.slice(0, -1), read, ...turnEndRegions(text, tail, ctx)];
  }
  const prefixes = prefixesOf(last.grammar);
  if (prefixes === undefined) return regions;
  const cut = fragmentStart(text, prefixes, last.start + 1);
  if (cut < 0) {
    // One character glued to a region whose closes are missing (`…{"code": 7}<`) is where
    // they began, though a lone `<` elsewhere is as likely text.
    if (last.end !== text.length - 1 || !last.violations.some((v) => v.kind === 'recovered_dialect')) return regions;
    const first = text.charCodeAt(last.end);
    return prefixes.markers.some((m) => m.charCodeAt(0) === first) ? [...regions.slice(0, -1), { ...last, end: text.length }] : regions;
  }
  if (last.end <= cut) {
    // Only a region read with its closes missing: after a closed one, the fragment is a stray
    // close's, which is reported as a whole one there is.
    if (!last.violations.some((v) => v.kind === 'recovered_dialect') || !blankBetween(text, last.end, cut)) return regions;
    return [...regions.slice(0, -1), { ...last, end: text.length }];
  }
  // In a reasoning block only its close's start is one (a stream releases the block's text up
  // to what may begin its close).
  const grammar = FIELD_GRAMMARS.find((g) => g.id === last.grammar)!;
  const fragment = text.slice(cut);
  const closes = grammar.family === 'reasoning' && grammar.close.some((close) => close.startsWith(fragment));
  const read = reread(text.slice(0, cut), last, ctx, text.length, closes);
  return read === null ? regions : [...regions.slice(0, -1), read];
}
