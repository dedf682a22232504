/**
 * The stray-report ladders (docs/design.md, "Stray text"): what happens to top-level text that is
 * not inside a response tag. The sniffer EXECUTES: a call it finds in a text, fenced or harmony
 * line runs, whatever fencing surrounds it.
 *
 *   fast path (text units, nothing pending):
 *     sniff -> credit | canonical ```tool fence -> hold | sniff errors -> drop
 *           | protocol fragment -> stray_text + drop | prose + drop
 *   slow path (unmatched markup): embedded <user_response -> stray_text + drop, then as above
 *     without the fence hold.
 */
import type { Unit } from '../scan/types.js';
import { DIALECTS } from '../dialects/index.js';
import { Code, isAsciiSpace, isTrimmedByJs } from '../lex/codes.js';
import { startsWithFolded } from './ascii-fold.js';
import { renderCall, renderProse } from './canonical.js';
import type { ComposeContext } from './context.js';
import { consume, credited, droppedAs, structural, type WalkState } from './funnel.js';
import { messagesFor } from './messages.js';
import { sniffForProfile } from './profile-sniff.js';
import { withoutMarkers } from './prose-markers.js';
import type { BareScan } from './sniff/sniff.js';
import type { DropReason } from './types.js';


export type BareSniffer = (text: string, ctx: ComposeContext) => BareScan;

/** The bare-call sniffer over one (already trimmed) string, with the turn's profile and registry. */
export const sniffBare: BareSniffer = (text, ctx) => sniffForProfile(text, ctx);

// Lower-case spellings only: the text is folded to lower case before comparing, so a spelling
// with an upper-case letter could never match.
const RESPONSE_SPELLINGS: readonly string[] = DIALECTS.TAGGED_DIALECT.flatMap((d) => [...d.spellings]).filter((s) => s === s.toLowerCase());
const USER_RESPONSE_OPENERS: readonly string[] = (DIALECTS.TAGGED_DIALECT.find((d) => d.canonical === 'user_response')?.spellings ?? []).map((s) => `<${s}`);
const FENCE_MARKERS: readonly string[] = [DIALECTS.BACKTICK_FENCE, DIALECTS.TILDE_FENCE];
const DRIFT_INFOS: ReadonlySet<string> = new Set(DIALECTS.FENCE_DRIFT_INFOS);
const CANONICAL_INFO = DIALECTS.FENCE_OPEN_INFO;
const CANONICAL_INFO_LOWER = CANONICAL_INFO.toLowerCase();
const INFO_SEPARATORS: readonly string[] = DIALECTS.FENCE_INFO_SUFFIX_SEPARATORS;

/** True when `info` names the canonical tool fence (`tool`, `tool python`, `tool-x`), not a drift spelling. */
export function isCanonicalToolFenceInfo(info: string): boolean {
  const normalised = info.trim().toLowerCase();
  if (DRIFT_INFOS.has(normalised)) return false;
  if (normalised === CANONICAL_INFO) return true;
  if (!normalised.startsWith(CANONICAL_INFO)) return false;
  return INFO_SEPARATORS.some((sep) => normalised.startsWith(sep, CANONICAL_INFO.length));
}

/**
 * True when some line of `text` opens a canonical ```tool (or ~~~tool) fence. Only the marker
 * occurrences are visited: each looks back over the blanks before it to its line start.
 */
export function holdsCanonicalToolFence(text: string): boolean {
  for (const marker of FENCE_MARKERS) {
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
      //   \n   ```tool python\n
      //      ^ lineStart  ^ at      ^ lineEnd
      let lineStart = at;
      while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== Code.LineFeed && isAsciiSpace(text.charCodeAt(lineStart - 1))) lineStart--;
      if (lineStart > 0 && text.charCodeAt(lineStart - 1) !== Code.LineFeed) continue;
      // perf: the info must start (after blanks) with the canonical info, so ```ts and ```
      // lines are turned away without copying and lower-casing their info.
      let infoAt = at + marker.length;
      while (infoAt < text.length && text.charCodeAt(infoAt) !== Code.LineFeed && isTrimmedByJs(text.charCodeAt(infoAt))) infoAt++;
      if (!startsWithFolded(text, infoAt, CANONICAL_INFO_LOWER)) continue;
      let lineEnd = text.indexOf('\n', infoAt);
      if (lineEnd < 0) lineEnd = text.length;
      if (isCanonicalToolFenceInfo(text.slice(at + marker.length, lineEnd))) return true;
    }
  }
  return false;
}

const CALL_SUFFIX = '_call';

/**
 * True when `text` carries a fragment of the response protocol: any `_call>`, or an open or
 * close of a response tag standing at the end or followed by `>` or whitespace. Matched
 * case-insensitively on char codes, visiting only the `>` and `<` of the text.
 */
export function hasResponseProtocolFragment(text: string): boolean {
  //   foo_CALL>
  //      ^ gt - 5  ^ gt
  for (let gt = text.indexOf('>', CALL_SUFFIX.length); gt >= 0; gt = text.indexOf('>', gt + 1)) {
    if (startsWithFolded(text, gt - CALL_SUFFIX.length, CALL_SUFFIX)) return true;
  }
  for (let lt = text.indexOf('<'); lt >= 0; lt = text.indexOf('<', lt + 1)) {
    //   </Done>      <user_response\n
    //   ^ lt ^ nameAt ^ lt ^ nameAt  ^ after
    const nameAt = text.charCodeAt(lt + 1) === Code.Slash ? lt + 2 : lt + 1;
    for (const spelling of RESPONSE_SPELLINGS) {
      if (!startsWithFolded(text, nameAt, spelling)) continue;
      const after = nameAt + spelling.length;
      if (after >= text.length) return true;
      const code = text.charCodeAt(after);
      if (code === Code.GreaterThan || isAsciiSpace(code)) return true;
    }
  }
  return false;
}

const CALL_OPENERS: ReadonlySet<string> = new Set((DIALECTS.TAGGED_DIALECT.find((d) => d.canonical === 'tool_call')?.spellings ?? []).map((s) => `<${s}>`));

const CALL_OPENER_MAX_LENGTH = Math.max(0, ...[...CALL_OPENERS].map((o) => o.length));

/** The length gate spares hashing every long text for a set lookup that cannot succeed. */
function isLoneCallOpener(t: string): boolean {
  return t.length <= CALL_OPENER_MAX_LENGTH && t.charCodeAt(0) === Code.LessThan && CALL_OPENERS.has(t);
}

function dropReasonOf(unit: Unit): DropReason {
  return unit.kind === 'fenced_line' ? 'fenced_narration' : 'salvaged_as_prose';
}

function creditSniffedCalls(state: WalkState, scan: BareScan): void {
  for (const call of scan.calls) state.calls.push(call);
  for (const error of scan.errors) state.errors.push(error);
  state.recovered += scan.calls.length;
}

/** Sniff errors, protocol fragment or plain prose: the three non-call endings shared by both paths. */
function reportUncredited(state: WalkState, unit: Unit, t: string, scan: BareScan, reason: DropReason, ctx: ComposeContext): void {
  let rung: string;
  if (scan.errors.length > 0) {
    for (const error of scan.errors) state.errors.push(error);
    rung = 'sniff-errors';
    // A gateway keeps the lines before a call that did not read (`Then:` above it) as prose:
    // the call's text is the error's, the words before it the model's.
    const words = ctx.profile === 'gateway' && scan.firstErrorLine !== undefined ? t.slice(0, scan.firstErrorLine).trim() : '';
    if (words !== '') {
      state.prose.push(words);
      state.canonical.push({ kind: 'prose', text: words });
    }
  } else if (hasResponseProtocolFragment(t)) {
    state.violations.push({ kind: 'stray_text', message: messagesFor(ctx.profile).strayText(t), excerpt: t, dropped_reason: null });
    state.recovered += 1;
    rung = 'protocol-fragment';
    // A gateway keeps the words around a stray protocol tag (`Done. </tool_call>`), the tag cut out.
    const words = ctx.profile === 'gateway' ? withoutMarkers(t) : '';
    if (words !== '') {
      state.prose.push(words);
      state.canonical.push({ kind: 'prose', text: words });
    }
  } else {
    state.prose.push(t);
    state.canonical.push({ kind: 'prose', text: t });
    rung = 'salvage';
  }
  consume(state, unit, droppedAs(t, reason, rung));
}

/**
 * The fast path, for `text`, `fenced_line` and `harmony_line` units when no response is
 * pending. The sniffer runs on the trimmed text, once, here (no batch pre-pass over the units).
 */
export function strayFast(state: WalkState, unit: Unit & { text: string }, ctx: ComposeContext, sniff: BareSniffer, source = ''): void {
  const t = unit.text.trim();
  if (t === '') {
    consume(state, unit, structural('empty_text'));
    return;
  }
  if (isLoneCallOpener(t)) {
    // The reference skips a lone opener silently; the port keeps it in the ledger.
    consume(state, unit, droppedAs(t, 'unparsed_call_block'));
    return;
  }
  const found = sniffIndented(t, ctx.profile === 'gateway' ? indentOf(source, unit.start) : '', ctx, sniff);
  if (found.calls.length > 0) {
    creditSniffedCalls(state, found);
    const prose = found.prose.trim();
    if (prose !== '') state.prose.push(prose);
    state.canonical.push({ kind: 'bare', calls: [...found.calls], prose });
    consume(state, unit, credited(found.calls.length, 'sniff'));
    return;
  }
  if (holdsCanonicalToolFence(t)) {
    consume(state, unit, structural('fence_held'));
    state.fenced.push({ text: t, proseAt: state.prose.length, canonicalAt: state.canonical.length, droppedAt: state.dropped.length, traceAt: state.trace?.length ?? -1 });
    return;
  }
  reportUncredited(state, unit, t, found, dropReasonOf(unit), ctx);
}

/**
 * The indentation before `start` when only spaces and tabs stand between it and its line's
 * start: the scanner skips them, and an indented line is code the answer shows (a traceback's
 * frame, a function's body), which the gateway's sniffer reads no keyword-argument call from.
 */
function indentOf(source: string, start: number): string {
  let at = start;
  while (at > 0 && (source.charCodeAt(at - 1) === 0x20 || source.charCodeAt(at - 1) === 0x09)) at--;
  // A piece's first character may stand mid-line in the response (after `; `): only a line break counts.
  return at < start && at > 0 && source.charCodeAt(at - 1) === 0x0a ? source.slice(at, start) : '';
}

/** `sniff` of `t` read with its first line's `indent` before it; what it found, placed in `t`. */
function sniffIndented(t: string, indent: string, ctx: ComposeContext, sniff: BareSniffer): BareScan {
  if (indent === '') return sniff(t, ctx);
  const found = sniff(indent + t, ctx);
  return found.firstErrorLine === undefined ? found : { ...found, firstErrorLine: found.firstErrorLine - indent.length };
}

function firstUserResponseOpener(text: string): number {
  let first = -1;
  for (const opener of USER_RESPONSE_OPENERS) {
    const at = text.indexOf(opener);
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  return first;
}

/** The slow path, for unmatched markup and unit kinds the walk has no branch for. */
export function straySlow(state: WalkState, unit: Unit, text: string, ctx: ComposeContext, sniff: BareSniffer): void {
  const t = text.trim();
  const reason = dropReasonOf(unit);
  if (t === '') {
    consume(state, unit, structural('empty_text'));
    return;
  }
  const answerAt = firstUserResponseOpener(t);
  if (answerAt >= 0) {
    // The reference discards the text before the tag silently; the port keeps it in the drop.
    const fragment = t.slice(answerAt);
    state.violations.push({ kind: 'stray_text', message: messagesFor(ctx.profile).strayText(fragment), excerpt: fragment, dropped_reason: null });
    consume(state, unit, droppedAs(t, reason));
    return;
  }
  const found = sniff(t, ctx);
  if (found.calls.length > 0) {
    creditSniffedCalls(state, found);
    for (const call of found.calls) state.canonical.push(renderCall(call.name, call.arguments));
    const prose = found.prose.trim();
    if (prose !== '') {
      state.prose.push(prose);
      state.canonical.push(renderProse(prose));
    }
    consume(state, unit, credited(found.calls.length, 'sniff'));
    return;
  }
  reportUncredited(state, unit, t, found, reason, ctx);
}
