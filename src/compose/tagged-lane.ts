/**
 * The tagged lane's entry ladder (docs/design.md, "Entry ladder"): provider dialects, the split at an
 * alternate envelope opener, chat-template envelopes, and otherwise one scan and walk.
 *
 *   text --provider dialect?--> Mistral / DSML result
 *        --split / envelope?--> pieces walked alone, folded like the reference's join/merge
 *        --scanUnits--> units --walk (walk.ts, consume funnel)--> result
 */
import { ALTERNATE_ENVELOPE_OPENERS, TAG_LITERALS } from '../dialects/vocabulary.js';
import { buildScanSpec, DIALECTS } from '../dialects/index.js';
import { perRegistry } from '../dialects/registry.js';
import { scanUnits, validateScanSpec, type ScanResult, type ValidatedScanSpec } from '../scan/index.js';
import { renderCallBlocks, renderProse } from './canonical.js';
import type { ComposeContext } from './context.js';
import { EarliestNeedle } from './earliest-needle.js';
import { callFromBody } from './ladders/index.js';
import { EnvelopeOpeners, readEnvelopeAt } from './lanes/envelope.js';
import { dsmlResult } from './lanes/dsml.js';
import { mistralResult } from './lanes/mistral.js';
import { laneMarkers, markerStarts, plainScan, textUnitStart } from './plain-piece.js';
import { plainLineClassifier, plainRunEnd, type LineClassifier } from './plain-run.js';
import { registeredNames } from './field/admit.js';
import type { BodyLadder } from './lanes/types.js';
import { messagesFor } from './messages.js';
import { emptyResult } from './project.js';
import { appendAll } from './lanes/result.js';
import type { DroppedFragment, LaneResult, ProtocolViolation, ToolCall } from './types.js';
import { walkScan } from './walk.js';
import type { TraceEntry } from './funnel.js';
import { asVerbatim, mayBeVerbatim, proseOnlyText, textOutsideBlocks, withoutBlockDrops } from './verbatim-prose.js';
import { codeSpans } from './field/answer-fences.js';
import { SPECIAL_TOKEN, withoutMarkers } from './prose-markers.js';
import { toolShapeFinding } from './tool-shape.js';

const TAGGED_OPENER = TAG_LITERALS.tool_call_open;
const TAGGED_OPENERS: readonly string[] = [TAGGED_OPENER];

const SUFFIX_PROBE = 64;

const bodyLadder: BodyLadder = (body, ctx) => callFromBody(body, ctx);

/**
 * One step of the entry ladder, in document order:
 *   split     `<tool_call>...` before an alternate envelope opener: the head is walked alone;
 *   envelope  a chat-template envelope with calls: the text before it is walked alone.
 */
type Frame =
  | { readonly kind: 'split'; readonly head: LaneResult }
  | { readonly kind: 'envelope'; readonly own: LaneResult; readonly before: LaneResult | null };

/**
 * The tagged lane: what `tool_format` `text`, `native`, `""` and unknown values parse with.
 *
 * The reference states the entry ladder recursively (split halves and envelope remainders are
 * parsed by the lane again). Read front to back, that recursion is a chain: each step leaves
 * a piece walked on its own and continues with the rest of the text. The chain is followed in
 * a loop with shared opener caches, so thousands of envelopes cost neither stack nor rescans,
 * and `assemble` folds the pieces exactly as the nested join and merge would.
 */
export function taggedLane(text: string, ctx: ComposeContext): LaneResult {
  // perf: a piece with no marker character at all (the prose between two field-grammar calls)
  // reaches the terminal walk of one text unit through every step below; it is walked as that
  // unit directly (plain-piece.ts). One line of prose: 1.3-1.5 to 0.5 µs of CPU.
  const plain = plainScan(text, markerStartsOf(ctx));
  return plain !== null ? walkScanned(plain, ctx) : taggedLadder(text, ctx);
}

/**
 * The gateway's rest lane: a piece's plain run (plain-run.ts) read on its own, then the rest of
 * the piece by the tagged lane. Their prose joins by a blank line, as pieces' prose does.
 * `canonical: false` is for a caller that renders the turn's canonical text from the pieces'
 * prose and calls itself (the field lane's `assembleRegions`): a piece of plain lines then
 * carries none (perf: rendering it was 3 % of a parse of 600 calls each after a line of prose).
 */
export function gatewayRestLane(text: string, ctx: ComposeContext, canonical = true): LaneResult {
  const run = withIndentAfter(text, plainRunEnd(text, plainLinesOf(ctx)));
  if (run === text.length) return plainRunResult(text, ctx, canonical);
  if (run === 0) {
    const read = taggedLane(text, ctx);
    const verbatim = verbatimText(text, read, ctx);
    return verbatim === null ? withoutLeakedMarkers(read) : asVerbatim(verbatim.read, verbatim.text.trim());
  }
  const head = plainRunResult(text.slice(0, run), ctx);
  const rest = text.slice(run);
  const read = taggedLane(rest, ctx);
  const whole = verbatimText(rest, read, ctx);
  const tail = whole === null ? withoutLeakedMarkers(read) : whole.read;
  // The rest is prose only: the whole piece is, verbatim.
  if (whole !== null) return { ...asVerbatim(tail, (text.slice(0, run) + whole.text).trim()), dropped: [...head.dropped, ...tail.dropped] };
  if (head.prose === '' && head.dropped.length === 0) return tail;
  return {
    ...tail,
    prose: joinNonEmpty(head.prose, tail.prose),
    canonical_text: joinNonEmpty(head.canonical_text, tail.canonical_text),
    dropped: [...head.dropped, ...tail.dropped],
  };
}

/**
 * The run's end moved back over the indentation of the line after it and the line break before
 * it, so that line is read with its indentation (an indented call line is code the answer
 * shows, stray.ts).
 */
function withIndentAfter(text: string, run: number): number {
  const next = text.charCodeAt(run);
  if (run === 0 || (next !== 0x20 && next !== 0x09 && !isBlank(text.charCodeAt(run - 1)))) return run;
  let at = run;
  while (at > 0 && isBlank(text.charCodeAt(at - 1))) at--;
  // The line break stays with the rest: it shows the indentation stands at a line's start.
  return at > 0 && text.charCodeAt(at - 1) === 0x0a ? at - 1 : run;
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * `read` with the markers cut out of its prose when its drops show call syntax that never ran
 * (the turn's `unparsed_tool_syntax`): the walk keeps a fragment it could not read as prose,
 * markers and all (`<function=get_weather> then stop </function> ok`), and a marker is never
 * prose. Only the rest after a plain run gets here, which a stream never released early.
 */
function withoutLeakedMarkers(read: LaneResult): LaneResult {
  // A special token the walk kept inside a text unit (`Done.<|role_end|>`, `<｜tool▁output▁begin｜>`
  // glued to words) is a marker too.
  if (read.prose === '') return read;
  // perf: the prose with its markers cut is asked first, since it is most often the prose as it
  // was, and then the ledger's check (over all of the piece's drops, and again for the turn's
  // violations) is not needed: on 82 KB of agent text it was a fifth of the parse.
  const prose = read.prose.split('\n\n').map(withoutMarkers).filter((part) => part !== '').join('\n\n');
  if (prose === read.prose) return read;
  return toolShapeFinding(read.dropped, { fieldGrammars: true }) === null && !SPECIAL_TOKEN.test(read.prose) ? read : { ...read, prose };
}

/**
 * The text of `piece` as verbatim prose (its markers cut out) when `read`, the tagged lane's
 * reading of it, is prose only (verbatim-prose.ts), else null. perf: the traced walk that decides runs only for pieces whose
 * reading already has no call, error or other drop (a piece of plain lines never gets here).
 */
function verbatimText(piece: string, read: LaneResult, ctx: ComposeContext): { readonly text: string; readonly read: LaneResult } | null {
  if (!mayBeVerbatim(read)) return null;
  const trace: TraceEntry[] = [];
  walkScanned(scanUnits(piece, scanSpecOf(ctx)), { ...ctx, trace });
  const spans = codeSpans(piece);
  const text = proseOnlyText(piece, trace, spans);
  if (text === null) return null;
  // A tag a grammar writes (`</function>`, `<|tool_call_end|>`) is a marker, never prose; in a
  // code block the answer shows, it is the block's text, and leaves the ledger.
  const shape = { fieldGrammars: true, profile: ctx.profile } as const;
  if (toolShapeFinding(read.dropped, shape) === null) return { text, read: keptAsProse(read, read.dropped) };
  if (toolShapeFinding(textOutsideBlocks(piece, spans), shape) !== null) return null;
  return { text, read: keptAsProse(read, withoutBlockDrops(trace, read.dropped, spans)) };
}

/**
 * `read` with `dropped` as its ledger, each fragment the walk cut at a mid-line `<` recorded as
 * what it became: prose (the piece reads verbatim, so nothing of it was narration left out).
 */
function keptAsProse(read: LaneResult, dropped: readonly DroppedFragment[]): LaneResult {
  let out: DroppedFragment[] | null = null;
  for (let i = 0; i < dropped.length; i++) {
    const drop = dropped[i]!;
    if (drop.reason !== 'fenced_narration') out?.push(drop);
    else (out ??= dropped.slice(0, i)).push({ text: drop.text, reason: 'salvaged_as_prose' });
  }
  if (out === null && dropped === read.dropped) return read;
  return { ...read, dropped: out ?? [...dropped] };
}

/**
 * A plain run's reading: what the walk of its one text unit gives (its text trimmed, as prose and
 * on the ledger), built directly. perf: a second walk per rest piece was 9 % of a 1 KB parse.
 * The property test holds it equal to `taggedLane` of the run where the run has no `<`. A trace
 * gets that unit's entry, as the walk would write it: the reading is the same with or without one
 * (a walk of the run would split it at a mid-line `<`, as `Vec<u8>`, which the run keeps whole).
 */
export function plainRunResult(run: string, ctx: ComposeContext, canonical = true): LaneResult {
  const prose = run.trim();
  if (prose === '') return emptyResult();
  if (ctx.trace !== undefined && ctx.trace !== null) {
    ctx.trace.push({ start: textUnitStart(run), end: run.length, account: 'drop', outcome: 'salvaged_as_prose', text: prose, rung: 'salvage' });
  }
  return {
    calls: [],
    prose,
    user_response: null,
    done_marker: null,
    canonical_text: canonical ? renderProse(prose) : '',
    tool_parse_errors: [],
    protocol_violations: [],
    dropped: [{ text: prose, reason: 'salvaged_as_prose' }],
    recovered_from_stray_count: 0,
  };
}

function joinNonEmpty(a: string, b: string): string {
  return a === '' ? b : b === '' ? a : a + '\n\n' + b;
}

/** The entry ladder itself, for any text (`taggedLane` without its shortcut for plain pieces). */
export function taggedLadder(text: string, ctx: ComposeContext): LaneResult {
  // Provider dialects first, on the raw text (sub-texts of the chain cannot hold a marker
  // the whole text lacks, so this check is needed once). Under `gateway` the field lane reads
  // them, and what it refused is text like any other: read here, a marker anywhere in a piece
  // would turn the reading of the whole piece (a `<tool_call>` block before it became prose).
  const providers = ctx.profile !== 'gateway';
  if (providers && text.includes(DIALECTS.MISTRAL_CALL_MARKER)) {
    const mistral = mistralResult(text, ctx);
    if (mistral) return mistral;
  }
  if (providers && text.includes(DIALECTS.DSML_MARKER)) {
    const dsml = dsmlResult(text, ctx);
    if (dsml) return dsml;
  }
  const frames: Frame[] = [];
  let terminal: LaneResult | null = null;
  let source = text;
  let cursor = newChainCursor(source);
  let base = 0;
  // Where the rest ends: the whole text, or, once an envelope's trailing text is being read,
  // that text's trimmed end (the reference reads the trimmed remainder).
  let end = source.length;
  for (;;) {
    const taggedAt = cursor.tagged.earliest(base);
    const alternateAt = cursor.alternates.earliest(base);
    // rest = <tool_call>...</tool_call> ... <tool>...
    //        ^ taggedAt                     ^ alternateAt: the head is read alone
    if (alternateAt > base && taggedAt >= 0 && taggedAt < alternateAt) {
      frames.push({ kind: 'split', head: walkText(source.slice(base, alternateAt), ctx) });
      base = alternateAt;
      continue;
    }
    if (taggedAt < 0 || (alternateAt >= 0 && alternateAt < taggedAt)) {
      const envelope = readEnvelopeAt(source, base, ctx, bodyLadder, cursor.openers);
      if (envelope && !envelope.malformed && envelope.result.calls.length > 0) {
        const leading = envelope.prose.trim();
        const trailing = (envelope.trailing ?? '').trim();
        frames.push({ kind: 'envelope', own: envelope.result, before: leading === '' ? null : walkText(leading, ctx) });
        if (trailing === '') break;
        // The trailing text is a suffix of `source`; continue there with the same caches.
        // perf: a bounded prefix confirms the offset (comparing all of it would be quadratic).
        const at = cursor.trimmedLength - trailing.length;
        if (at > base && source.startsWith(trailing.slice(0, SUFFIX_PROBE), at)) {
          base = at;
          end = cursor.trimmedLength;
        } else {
          source = trailing;
          cursor = newChainCursor(source);
          base = 0;
          end = source.length;
        }
        continue;
      }
    }
    terminal = walkText(base === 0 && end === source.length ? source : source.slice(base, end), ctx);
    break;
  }
  return assemble(frames, terminal, ctx);
}

interface ChainCursor {
  readonly tagged: EarliestNeedle;
  readonly alternates: EarliestNeedle;
  readonly openers: EnvelopeOpeners;
  readonly trimmedLength: number;
}

function newChainCursor(source: string): ChainCursor {
  return {
    tagged: new EarliestNeedle(source, TAGGED_OPENERS),
    alternates: new EarliestNeedle(source, ALTERNATE_ENVELOPE_OPENERS),
    openers: new EnvelopeOpeners(source),
    trimmedLength: source.trimEnd().length,
  };
}

/**
 * Folds the chain as the reference's nested `join(head, tail)` and envelope merges do: calls,
 * errors and drops in document order; prose pieces joined by newlines; canonical text as call
 * blocks; the leftmost envelope replaces every violation after it with its one
 * `recovered_dialect`; count, answer and done marker come from the outermost step.
 */
function assemble(frames: readonly Frame[], terminal: LaneResult | null, ctx: ComposeContext): LaneResult {
  const first = frames[0];
  // perf: the steer (a fresh violation, marked in a weak map with the calls it describes) is
  // made only for a chain of steps; a piece walked whole, the field lane's commonest rest
  // piece, made one per call of this lane for nothing. 80 KB of Hermes calls: `describing`
  // was 5 % of the parse's profile, now absent from it.
  if (first === undefined) return terminal ?? emptyResult();
  const recoveredCalls = frames.flatMap((frame) => (frame.kind === 'envelope' ? frame.own.calls : []));
  const recovered = ctx.marks.describing({ kind: 'recovered_dialect', message: messagesFor(ctx.profile).envelopeRecovered(ctx.toolFormat), excerpt: null, dropped_reason: null }, recoveredCalls);
  // A lone envelope with nothing around it is returned as the envelope read it.
  if (frames.length === 1 && first.kind === 'envelope' && first.before === null && terminal === null) {
    return { ...first.own, protocol_violations: [recovered] };
  }
  const calls: ToolCall[] = [];
  const errors: string[] = [];
  const dropped: DroppedFragment[] = [];
  const prose: string[] = [];
  const violations: ProtocolViolation[] = [];
  let replaced = false;
  const take = (part: LaneResult, withProse: boolean, withViolations: boolean): void => {
    appendAll(calls, part.calls);
    appendAll(errors, part.tool_parse_errors);
    appendAll(dropped, part.dropped);
    if (withProse && part.prose !== '') prose.push(part.prose);
    if (withViolations) appendAll(violations, part.protocol_violations);
  };
  for (const frame of frames) {
    if (frame.kind === 'split') {
      take(frame.head, true, !replaced);
      continue;
    }
    if (frame.before) take(frame.before, true, false);
    // Everything from the leftmost envelope on is replaced by its one steer.
    if (!replaced) violations.push(recovered);
    replaced = true;
    take(frame.own, false, false);
  }
  if (terminal) take(terminal, true, !replaced);
  const outer = first.kind === 'split' ? first.head : first.own;
  return {
    calls,
    prose: prose.join('\n'),
    user_response: outer.user_response,
    done_marker: outer.done_marker,
    canonical_text: renderCallBlocks(calls),
    tool_parse_errors: errors,
    protocol_violations: violations,
    dropped,
    recovered_from_stray_count: outer.recovered_from_stray_count,
  };
}

// perf: one validated scan spec per registry object (normalised registries are frozen and
// reused by the service), so the scanner finds its compiled vocabulary by identity instead of
// validating and keying a fresh spec on every parse.
const specs = perRegistry((registry) => validateScanSpec(buildScanSpec(registry)));

function scanSpecOf(ctx: ComposeContext): ValidatedScanSpec {
  return specs(ctx.registry);
}

const starts = perRegistry((registry) => markerStarts(specs(registry)));

function markerStartsOf(ctx: ComposeContext): readonly string[] {
  return starts(ctx.registry);
}

const plainLines = perRegistry((registry) => plainLineClassifier(laneMarkers(specs(registry)), registry === null ? null : new Set(registeredNames(registry))));

/** The plain-line classifier of the tagged lane with `ctx`'s registry (a stream releases such lines as they come). */
export function plainLinesOf(ctx: ComposeContext): LineClassifier {
  return plainLines(ctx.registry);
}

/** Scans and walks one piece of text. */
function walkText(text: string, ctx: ComposeContext): LaneResult {
  return walkScanned(scanUnits(text, scanSpecOf(ctx)), ctx);
}

/** Walks one piece's scan; its trace, when the caller asked for one, joins the parse's. */
function walkScanned(scan: ScanResult, ctx: ComposeContext): LaneResult {
  const traced = ctx.trace ?? null;
  const walked = walkScan(scan, ctx, traced !== null);
  if (traced !== null && walked.trace !== null) for (const entry of walked.trace) traced.push(entry);
  return walked.result;
}
