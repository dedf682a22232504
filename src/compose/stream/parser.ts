/**
 * `createStreamParser`: the text of one response as it is generated, in chunks cut anywhere.
 *
 *   push(chunk)* --> events as they become certain
 *   end()        --> the remaining events, and exactly `parseToolCalls(whole text, options)`
 *
 * Each chunk is searched once, with a short overlap, for field-grammar openers and markers
 * (watch.ts). While the held text holds an opener, a completed marker sends it to `releasable`
 * (segment.ts), which reads it as the one-shot parse will and releases the regions that no
 * later text can change, with the text before them. The whole text is kept, and `end()` parses
 * it once, so the final result is the one-shot parse by construction; the released events are
 * a prefix of what that parse says (docs/design.md, "Streaming").
 *
 * perf: a try reads the held text again, so tries are bounded by a budget: no try once the
 * characters tried exceed 1.5 times the characters received, plus 4 KiB; announcements have
 * their own (see `ANNOUNCE_CEILING`). A budget is checked before a read and one read covers
 * at most the held text, so the work over a stream is a fixed multiple of its text however it
 * is cut: 2.3 texts' worth measured on a 200 KB agent turn in 1-, 4- and 64-character chunks,
 * 6 for one 200 KB Qwen3-Coder value (two tries and two announcements that each read the whole
 * value, and the final parse). The held pieces are joined only when a reader needs them
 * whole, and those copies are counted too (`copied`; test/stream/release.test.ts).
 */
import { isJsonSpace, skipJsonSpace } from '../../lex/codes.js';
import { finishPiece, parseTurn, turnReader, type ParseOptions, type TurnReader } from '../parse.js';
import { shapeResult, type ShapedResult } from '../shape.js';
import type { LaneResult, ParseResult, ToolCall, TurnPart } from '../types.js';
import { callEvents, nothingEmitted, orderedParts, remainingEvents, type Emitted, type StreamEvent } from './events.js';
import { announceable } from './announce.js';
import { mayEndBodyAt } from './body-end.js';
import { ValueDepth } from './value-depth.js';
import { releasable, type Release } from './segment.js';
import { closeIsOptional, closers } from './closers.js';
import { AnswerFront, ReasoningFront } from './fronts.js';
import { reasoningOpenAt, reasoningOpenCut, startedEnds, startedLead } from './reasoning-open.js';
import { chunkWatch, completesMarker, type ChunkWatch } from './watch.js';
import { PlainLinesFront } from './plain-lines.js';
import { completesReferenceClose, referenceCalls } from './reference-calls.js';
import { awaitsUnmarkedOpener, mayHeadUnmarkedSegment, openerRefusedForGood } from '../field/lane.js';
import type { OpenerHit } from '../field/detect.js';
import type { FieldGrammar } from '../../dialects/field/index.js';

/**
 * How far past a look-alike opener the stream asks whether it is refused for good: more than
 * its probe reads (a fence line, blanks, a key of `FIELD_NAME_MAX`). An opener that already had
 * this much text after it before a chunk came is not asked again: it waits as any opener does.
 */
const REFUSAL_REACH = 512;

/** More than any reasoning open with its suffix: a lead this long has said whether it is one. */
const LEAD_MAX = 128;
/** Characters a stream may try per character received (see the perf note above). */
const TRY_BUDGET = 1.5;
/** Characters any stream may try besides: a short response is never starved of tries. */
const TRY_SLACK = 4096;
/**
 * Announcing calls before their region's close (announce.ts) uses only what is left of the
 * work a stream may do: none once its work passes 1.8 characters per character received
 * (besides `TRY_SLACK`). A stream of many regions then stays under three texts' worth with
 * the final parse; one long region may take one announcement and one try past the ceilings.
 * A response of a few KiB announces every call; a long one dense in calls, as many as fit.
 */
const ANNOUNCE_CEILING = 1.8;
/** Characters announcement tries may read between two cuts of the held text, besides twice its length. */
const ANNOUNCE_SLACK = 1024;

export interface StreamEnd {
  /** The events not emitted by `push`, in order. */
  readonly events: StreamEvent[];
  /** What `parseToolCalls(text, options)` returns for the whole text. */
  readonly result: ParseResult | ShapedResult;
}

export interface StreamParser {
  /** Feeds the next chunk; returns the events it made certain. */
  push(chunk: string): StreamEvent[];
  /** Ends the text; returns the remaining events and the final result. */
  end(): StreamEnd;
  /** The characters received so far. */
  readonly length: number;
  /** Characters handed to a reader so far (tries, released pieces and the final parse): the stream's work. */
  readonly work: number;
  /**
   * Characters copied so far to join received pieces (the held text, and the whole text at
   * `end()`): a cost the work does not count, linear in the text as the work is.
   */
  readonly copied: number;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** A chunk that may end a call's body: it closes a value or a marker. */
function mayEndBody(chunk: string): boolean {
  for (let i = 0; i < chunk.length; i++) {
    const code = chunk.charCodeAt(i);
    if (code === 0x7d || code === 0x5d || code === 0x29 || code === 0x3e || code === 0x60) return true;
  }
  return false;
}

/** A chunk after which a call with no close may have ended: one that ends a line, object, list or call. */
function mayEndOpenCall(chunk: string): boolean {
  for (let i = 0; i < chunk.length; i++) {
    const code = chunk.charCodeAt(i);
    if (code === 0x0a || code === 0x7d || code === 0x5d || code === 0x29) return true;
  }
  return false;
}

/**
 * Whether an opener of `grammars` may be a reasoning block's open, which `openThinking` looks
 * for (it joins the held text): a look-alike's `[`, `{` or fence never is (perf: an answer of
 * many Markdown link lines found one such opener per line).
 */
function mayOpenReasoning(grammars: readonly FieldGrammar[]): boolean {
  return grammars.some((g) => g.family !== 'look-alike');
}

function hasLineBreak(chunk: string): boolean {
  return chunk.indexOf('\n') >= 0;
}

function hasText(chunk: string): boolean {
  for (let i = 0; i < chunk.length; i++) if (!isJsonSpace(chunk.charCodeAt(i))) return true;
  return false;
}

/**
 * Streams created while `streamAudit.on` is set keep what they said, and `end()` lists where
 * that is not the start of the final result (`streamDivergence`): an event was sent that the
 * result does not have, and `end()` cannot take it back (it can only say what follows). The
 * tests turn it on; a stream created with it off keeps nothing more than the text.
 */
export const streamAudit = { on: false };

interface Said {
  text: string;
  reasoning: string;
  calls: ToolCall[];
}

const divergences = new WeakMap<StreamParser, readonly string[]>();

/** For a stream created under `streamAudit.on` and ended: what it said that the final result does not (empty: nothing); null otherwise. */
export function streamDivergence(stream: StreamParser): readonly string[] | null {
  return divergences.get(stream) ?? null;
}

function diverging(said: Said, result: ParseResult): string[] {
  const out: string[] = [];
  if (!result.prose.startsWith(said.text)) out.push(`text ${JSON.stringify(said.text)} is not the start of prose ${JSON.stringify(result.prose)}`);
  const reasoning = result.reasoning ?? '';
  if (!reasoning.startsWith(said.reasoning)) out.push(`reasoning ${JSON.stringify(said.reasoning)} is not the start of ${JSON.stringify(reasoning)}`);
  const calls = JSON.stringify(result.calls.slice(0, said.calls.length));
  if (JSON.stringify(said.calls) !== calls) out.push(`calls ${JSON.stringify(said.calls)} are not the first calls of ${JSON.stringify(result.calls)}`);
  return out;
}

class TextStreamParser implements StreamParser {
  private readonly said: Said | null = streamAudit.on ? { text: '', reasoning: '', calls: [] } : null;
  private readonly chunks: string[] = [];
  private received = 0;
  private ended = false;
  private readonly emitted: Emitted = nothingEmitted();
  private readonly watch: ChunkWatch;
  private readonly reader: TurnReader;
  /** The text not yet released, in pieces (joined only when it is tried). */
  private held: string[] = [];
  private heldLength = 0;
  /** The first opener in the held text (an index into it), or -1. */
  private opener = -1;
  /** The grammars the held opener opens, when the watch found it (null: unknown, or none held). */
  private openerGrammars: readonly FieldGrammar[] | null = null;
  /** The held opener may begin a grammar whose close is optional (Llama 3's `<|python_tag|>{…}`): text after its body ends it. */
  private closeOptional = false;
  /** The last characters received, for markers split across chunks. */
  private tail = '';
  private afterRegion = false;
  /** The body of a reasoning block being held, released as it comes (null: none). */
  private thinking: ReasoningFront | null = null;
  /** `reasoning_started`, and the response's first characters may still be a reasoning open the model wrote. */
  private startedUndecided = false;
  /** `reasoning_started`, but the response begins with a reasoning open: the rule is spent. */
  private modelOpened = false;
  /** The response's first characters after its leading blanks (while `startedUndecided`). */
  private lead = '';
  /** The held opener is a suffixed reasoning open cut inside its suffix (`<think:opens`): the next chunk may let its body flow. */
  private openCut = false;
  /** The held opener may begin a grammar with no close of its own: its regions end by their text. */
  private openEnded = false;
  /** A try found nothing to release while such an opener is held, or the held text ended with blanks: the next text may prove its region whole. */
  private awaitingText = false;
  private tried = 0;
  /**
   * The first calls of the held text already emitted: a region's at its start, announced before
   * its close (announce.ts), or the reference grammar's in the rest piece it begins
   * (reference-calls.ts), announced ahead of the prose before them.
   */
  private heldCalls = 0;
  /** The held text begins at a region (an announcement left it there), not at a rest piece. */
  private heldAtRegion = false;
  /** A reference block's close waits for its line to end (reference-calls.ts). */
  private referenceLinePending = false;
  /**
   * What announcement tries have read since the held text was last cut. A refused opener (a
   * reference-grammar block) may hold everything up for a long while; tries stop once they
   * have read twice the held text (plus 1 KiB), so between two cuts they cost that at most.
   */
  private announceSpent = 0;
  /** The open brackets and strings of the held region, for announcement's first look. */
  private depth = new ValueDepth();
  private worked = 0;
  private copiedChars = 0;
  /** The held text is only the blanks before an answer that follows opening reasoning. */
  private answerLead = false;
  /** The plain run at the start of the held text, released line by line (null: none is read). */
  private plain: PlainLinesFront | null = null;
  /**
   * The held text begins inside a visible answer's body read as written (Harmony's `final`
   * channel), whose header was released: the body flows as text as it arrives, up to what ends it.
   */
  private body: AnswerFront | null = null;

  constructor(private readonly options: ParseOptions | undefined) {
    this.watch = chunkWatch();
    this.reader = turnReader(options);
    this.startedUndecided = this.reader.lane !== null && this.reader.ctx.reasoningStarted === true;
    // `reasoning_started: false` spends the orphan-close rule: the response's first plain lines
    // are final once its first line cannot head an unmarked segment.
    const test = this.reader.plainLines;
    if (test !== null && this.reader.ctx.reasoningStarted === false) this.plain = new PlainLinesFront(test, (line) => mayHeadUnmarkedSegment(line, this.reader.ctx));
  }

  get length(): number {
    return this.received;
  }

  get work(): number {
    return this.worked;
  }

  get copied(): number {
    return this.copiedChars;
  }

  push(chunk: string): StreamEvent[] {
    if (typeof chunk !== 'string') throw new TypeError(`chunk must be a string; got ${typeName(chunk)}`);
    if (this.ended) throw new Error('push() after end()');
    if (chunk.length === 0) return [];
    this.chunks.push(chunk);
    this.received += chunk.length;
    const events: StreamEvent[] = [];
    if (this.reader.lane === null) return events;
    const window = this.tail + chunk;
    const from = this.tail.length;
    if (this.body !== null && !this.body.done) {
      this.pushBody(chunk, window, events);
      if (this.said !== null) this.record(events);
      return events;
    }
    // Where `window` begins in the held text (it may reach back before it).
    const windowAt = this.heldLength - from;
    let found = false;
    if (this.opener < 0 && this.answerLead) {
      // The held text is still the blanks before an answer that follows opening reasoning: its
      // first characters are searched as the start of a line (see tryRelease).
      const lead = this.heldLength === 0 ? chunk : this.joinHeld() + chunk;
      if (this.heldLength > 0) this.copiedChars += lead.length;
      this.answerLead = isBlank(lead);
      const hit = this.watch.openers.next(lead, 0);
      if (hit !== null) {
        this.holdOpener(hit, 0);
        found = mayOpenReasoning(hit.grammars);
      }
    }
    if (this.opener < 0) {
      // From the window's second character when it starts inside the held text: a line-start
      // opener there has no character before it to tell, and an earlier window (which held that
      // position with one) has already looked at it.
      // Only a window that begins the response may take spaces before an opener as its line's
      // indent; a later one begins mid-line.
      const fromStart = this.received === window.length;
      const hit = fromStart ? this.watch.openers.next(window, -windowAt) : this.watch.openers.nextInWindow(window, windowAt > 0 ? 1 : -windowAt);
      if (hit !== null) {
        this.holdOpener(hit, windowAt);
        found = mayOpenReasoning(hit.grammars);
      }
    }
    const completes = this.opener >= 0 && (completesMarker(this.watch, window, from) || ((this.openEnded || this.closeOptional) && mayEndOpenCall(chunk)) || (this.awaitingText && hasText(chunk)));
    this.held.push(chunk);
    this.heldLength += chunk.length;
    this.tail = window.length > this.watch.overlap ? window.slice(window.length - this.watch.overlap) : window;
    if (this.plain !== null && this.opener >= 0 && this.passRefusedOpeners(chunk.length)) found = true;
    if (this.startedUndecided) this.decideStarted(chunk, events);
    else if (this.thinking !== null) this.releaseThinking(chunk, events);
    else if ((found || this.openCut) && !this.afterRegionPending()) this.openThinking(events);
    if (this.plain !== null && this.thinking === null) this.releasePlain(chunk, events);
    if (completes && this.tried <= TRY_BUDGET * this.received + TRY_SLACK) this.tryRelease(events);
    // After a release too: the region that stopped it (a Harmony call frame after the analysis
    // frame, both in this chunk) may already be sure of its calls.
    if (this.opener >= 0 && !this.openEnded && this.thinking === null && this.body === null && this.announceSpent <= 2 * this.heldLength + ANNOUNCE_SLACK && mayEndBody(chunk) && this.worked <= ANNOUNCE_CEILING * this.received + TRY_SLACK) this.tryAnnounce(events);
    if ((completesReferenceClose(window, from) || (this.referenceLinePending && hasLineBreak(chunk))) && this.mayAnnounceReference()) this.tryAnnounceReference(events);
    if (this.said !== null) this.record(events);
    return events;
  }

  /**
   * A chunk of an answer's body: its text flows as it comes; once what ends the body has come,
   * the held text is tried (its first opener is that end, or a region after it).
   */
  private pushBody(chunk: string, window: string, events: StreamEvent[]): void {
    this.held.push(chunk);
    this.heldLength += chunk.length;
    this.tail = window.length > this.watch.overlap ? window.slice(window.length - this.watch.overlap) : window;
    this.feedBody(chunk, events);
  }

  /** Feeds the body's next text (already held) to its front. */
  private feedBody(chunk: string, events: StreamEvent[]): void {
    const body = this.body!;
    const out = body.feed(chunk, this.emitted.text > 0);
    if (out !== '') {
      events.push({ type: 'text', text: out });
      this.emitted.text += out.length;
    }
    if (!body.done) return;
    const held = this.joinHeld();
    this.holdOpener(this.watch.openers.nextInWindow(held, body.length), 0);
    if (this.opener >= 0 && this.tried <= TRY_BUDGET * this.received + TRY_SLACK) this.tryRelease(events);
  }

  private record(events: readonly StreamEvent[]): void {
    const said = this.said!;
    for (const e of events) {
      if (e.type === 'text') said.text += e.text;
      else if (e.type === 'reasoning') said.reasoning += e.text;
      else if (e.type === 'call_end') said.calls.push(e.call);
    }
  }

  /** The held opener is `hit`, found in a text that begins `at` in the held text (null: none). */
  private holdOpener(hit: OpenerHit | null, at: number): void {
    this.opener = hit === null ? -1 : at + hit.index;
    this.openEnded = hit !== null && hit.grammars.some((g) => closers(g).length === 0);
    this.openerGrammars = hit === null ? null : hit.grammars;
    this.closeOptional = hit !== null && hit.grammars.some(closeIsOptional);
  }

  /**
   * While a plain run is read: moves the held opener on past openers that no reader will ever
   * take (a Markdown link's `[`, `{"status": …}` at a line start), so the run reads on past
   * their lines. True when the opener held now may be a reasoning open (see `mayOpenReasoning`).
   */
  private passRefusedOpeners(chunkLength: number): boolean {
    let moved = false;
    // perf: only the look-alike reader's openers can be refused for good (field/lane.ts), and its
    // probe reads a bounded way past the opener: an opener with that much text after it was
    // asked for the last time (a value held for long is not read again at every push).
    while (this.opener >= 0 && this.openerGrammars !== null && this.openerGrammars.every((g) => g.family === 'look-alike') && this.heldLength - chunkLength - this.opener <= REFUSAL_REACH) {
      const after = this.heldFrom(this.opener);
      if (!openerRefusedForGood(after, 0, this.openerGrammars, this.reader.ctx)) break;
      this.holdOpener(this.watch.openers.nextInWindow(after, 1), this.opener);
      moved = true;
    }
    return moved && this.openerGrammars !== null && mayOpenReasoning(this.openerGrammars);
  }

  /** The held text from `at`, read from the pieces after `at` alone (the held text is not joined). */
  private heldFrom(at: number): string {
    let start = this.heldLength;
    let i = this.held.length;
    while (i > 0 && start > at) start -= this.held[--i]!.length;
    // The piece `at` falls in is cut first: it may be the whole held text joined before.
    const first = this.held[i]!.slice(at - start);
    if (i === this.held.length - 1) return first;
    this.copiedChars += this.heldLength - at;
    return first + this.held.slice(i + 1).join('');
  }

  /** Releases what of `text` (the end of the held text) completes plain lines of the held run. */
  private releasePlain(text: string, events: StreamEvent[]): void {
    const limit = this.opener < 0 ? Infinity : this.opener;
    const front = this.plain!;
    // A front waiting at an opener reads on only once the limit has moved past it, from its line.
    const out = front.movesOn(limit) ? front.resume(this.heldFrom(front.lineAt), limit, this.emitted.text > 0) : front.feed(text, limit, this.emitted.text > 0);
    if (out === '') return;
    events.push({ type: 'text', text: out });
    this.emitted.text += out.length;
  }

  /** After a cut that leaves the held text at the start of a rest piece: its plain run is read anew. */
  private startPlain(events: StreamEvent[]): void {
    this.plain = null;
    const test = this.reader.plainLines;
    if (test === null || this.thinking !== null || !this.afterRegion) return;
    this.plain = new PlainLinesFront(test);
    if (this.heldLength > 0) this.releasePlain(this.joinHeld(), events);
  }

  /** True while `reasoning_started` reads the text as reasoning (its first region is not out yet). */
  private afterRegionPending(): boolean {
    return this.reader.ctx.reasoningStarted === true && !this.afterRegion && !this.modelOpened;
  }

  /**
   * `reasoning_started`: once the response's first characters that are not blank are known not
   * to begin a reasoning open, the reasoning the prompt opened flows from the first character;
   * when they are one (the model wrote `<think>` itself), the block reads as any block does.
   */
  private decideStarted(chunk: string, events: StreamEvent[]): void {
    // perf: only the first characters that are not blank are looked at, however the text is cut.
    this.lead = this.lead === '' ? chunk.slice(skipJsonSpace(chunk, 0)) : this.lead + chunk.slice(0, LEAD_MAX);
    if (this.lead === '') return;
    const lead = startedLead(this.lead, 0);
    if (lead === 'undecided' && this.lead.length < LEAD_MAX) return;
    this.startedUndecided = false;
    this.lead = '';
    if (lead === 'opened') {
      this.modelOpened = true;
      if (this.opener >= 0) this.openThinking(events);
      return;
    }
    const held = this.joinHeld();
    this.thinking = new ReasoningFront(startedEnds(), true);
    this.releaseThinking(held, events);
  }

  private releaseThinking(text: string, events: StreamEvent[]): void {
    const front = this.thinking!;
    const out = front.feed(text);
    if (out === '') return;
    const first = front.released === out.length && this.emitted.reasoning > 0;
    const piece = first ? '\n\n' + out : out;
    events.push({ type: 'reasoning', text: piece });
    this.emitted.reasoning += piece.length;
  }

  /**
   * The first opener held is a reasoning block's open: the block reads to its end whatever
   * comes, so the piece before it is final (released now) and its body may flow.
   */
  private openThinking(events: StreamEvent[]): void {
    if (this.reader.lane === null) return;
    const held = this.joinHeld();
    const open = reasoningOpenAt(held, this.opener);
    // An open the held text may still lengthen (a longer spelling, a repeat) waits for it.
    this.openCut = reasoningOpenCut(held, this.opener);
    if (open === null || this.openCut) return;
    // Before any region, a first line such as Functionary's `all` may head an unmarked segment
    // that reads on past the block (to its grammar's opener): the block is then that segment's text.
    if (!this.afterRegion && awaitsUnmarkedOpener(held.slice(0, this.opener), this.reader.ctx)) return;
    if (this.opener > 0) {
      this.emitPiece(this.reader.lane(held.slice(0, this.opener)), events);
    }
    const rest = held.slice(this.opener);
    this.held = [rest];
    this.heldLength = rest.length;
    this.depth.reset();
    this.opener = 0;
    this.openerGrammars = null;
    this.plain = null;
    this.thinking = new ReasoningFront(open.ends);
    this.releaseThinking(rest.slice(open.bodyAt), events);
  }

  private joinHeld(): string {
    if (this.held.length === 1) return this.held[0]!;
    const held = this.held.join('');
    this.copiedChars += held.length;
    this.held = [held];
    return held;
  }

  /** Tries to release the held text; true when something was released. */
  private tryRelease(events: StreamEvent[]): boolean {
    const held = this.joinHeld();
    this.tried += held.length;
    this.worked += held.length;
    if (!this.afterRegion && awaitsUnmarkedOpener(held, this.reader.ctx)) return false;
    const release = releasable(held, this.reader, this.afterRegion, this.reader.idStart + this.emitted.calls - this.heldCalls, this.body?.of ?? null);
    // A region that ends with blanks may be whole once text follows them (closers.ts, `wholeRegion`).
    this.awaitingText = release === null && (this.openEnded || isJsonSpace(held.charCodeAt(held.length - 1)));
    if (release === null) return false;
    this.worked += release.restLength;
    this.emit(release, events);
    this.plain = null;
    this.heldCalls = 0;
    this.heldAtRegion = false;
    const rest = held.slice(release.end);
    this.held = rest === '' ? [] : [rest];
    this.heldLength = rest.length;
    this.depth.reset();
    this.announceSpent = 0;
    this.afterRegion = true;
    this.thinking = null;
    this.body = null;
    if (release.body !== null) {
      // The released text ends where an answer's body begins: the body flows from here.
      this.body = new AnswerFront(release.body);
      this.opener = -1;
      this.openerGrammars = null;
      this.openCut = false;
      this.openEnded = false;
      this.answerLead = false;
      if (rest !== '') this.feedBody(rest, events);
      return true;
    }
    // An answer that follows opening reasoning (nothing visible released yet) begins as a line
    // does, its blanks aside: a line-start opener counts at its first character, as the one-shot
    // parse reads it (`</think> {"name": …}`); after anything visible the text is mid-line.
    const answerBegins = this.emitted.text === 0 && this.emitted.calls === 0;
    const hit = answerBegins ? this.watch.openers.next(rest, 0) : this.watch.openers.nextInWindow(rest, 0);
    this.answerLead = answerBegins && hit === null && isBlank(rest);
    this.holdOpener(hit, 0);
    this.openCut = false;
    if (hit !== null && mayOpenReasoning(hit.grammars)) this.openThinking(events);
    this.startPlain(events);
    return true;
  }

  /**
   * The held text ends where a call's body ends: announce the calls its region is sure of,
   * releasing the text before the region with them. The held text then begins at the region.
   */
  private tryAnnounce(events: StreamEvent[]): void {
    const held = this.joinHeld();
    // perf: the first look reads at most the region, not the held text.
    const looked = mayEndBodyAt(held, this.opener, this.depth);
    this.worked += Math.abs(looked);
    if (looked < 0) return;
    if (!this.afterRegion && awaitsUnmarkedOpener(held, this.reader.ctx)) return;
    const found = announceable(held, this.reader, this.afterRegion, this.reader.idStart + this.emitted.calls - this.heldCalls, this.body?.of ?? null);
    const read = found?.read ?? held.length;
    this.worked += read;
    this.announceSpent += read;
    if (found === null || (found.before === null && found.calls.length <= this.heldCalls)) return;
    this.announceSpent = 0;
    if (found.before !== null) {
      // Whatever of the held text was announced before lies in what is released now.
      this.emit(found.before, events);
      this.heldCalls = 0;
      const rest = held.slice(found.at);
      this.held = [rest];
      this.heldLength = rest.length;
      this.depth.reset();
      this.afterRegion = true;
      this.opener = 0;
      this.openerGrammars = null;
      this.plain = null;
    }
    for (const call of found.calls.slice(this.heldCalls)) {
      callEvents(call, this.emitted.calls, events);
      this.emitted.calls++;
    }
    this.heldCalls = found.calls.length;
    this.heldAtRegion = true;
  }

  /**
   * The reference grammar's calls in the rest piece the held text begins may be announced: its
   * start is settled (after a region, or `reasoning_started: false`, so no later orphan close
   * makes it reasoning), and the work is within what announcements may spend.
   */
  private mayAnnounceReference(): boolean {
    if (this.heldAtRegion || this.thinking !== null || this.body !== null || this.startedUndecided) return false;
    if (!this.afterRegion && this.reader.ctx.reasoningStarted !== false) return false;
    return this.announceSpent <= 2 * this.heldLength + ANNOUNCE_SLACK && this.worked <= ANNOUNCE_CEILING * this.received + TRY_SLACK;
  }

  private tryAnnounceReference(events: StreamEvent[]): void {
    const held = this.joinHeld();
    if (!this.afterRegion && awaitsUnmarkedOpener(held, this.reader.ctx)) return;
    const found = referenceCalls(held, this.reader, this.afterRegion, this.reader.idStart + this.emitted.calls - this.heldCalls);
    const read = found?.read ?? held.length;
    this.worked += read;
    this.announceSpent += read;
    this.referenceLinePending = found !== null && found.calls === null;
    if (found === null || found.calls === null || found.calls.length <= this.heldCalls) return;
    for (const call of found.calls.slice(this.heldCalls)) {
      callEvents(call, this.emitted.calls, events);
      this.emitted.calls++;
    }
    this.heldCalls = found.calls.length;
  }

  /** A piece read on its own (the text before a reasoning block): its events. */
  private emitPiece(parsed: LaneResult, events: StreamEvent[]): void {
    const { result, parts } = finishPiece(parsed, this.reader, this.reader.idStart + this.emitted.calls - this.heldCalls);
    this.emitParts(result, orderedParts(result, parts), events, this.heldCalls);
    this.heldCalls = 0;
    this.heldAtRegion = false;
  }

  private emit(release: Release, events: StreamEvent[]): void {
    this.emitParts(release.result, release.parts, events, this.heldCalls);
  }

  /** Parts of a released piece, skipping the reasoning the front already released and the `said` calls already announced. */
  private emitParts(result: ParseResult, parts: readonly TurnPart[], events: StreamEvent[], said = 0): void {
    const emitted = this.emitted;
    let thoughtSaid = this.thinking?.released ?? 0;
    let callsSaid = said;
    // The held run's lines (or the answer's body) already released begin the first text part.
    let textSaid = this.plain?.released ?? this.body?.released ?? 0;
    const textSeparator = this.plain?.separator ?? this.body?.separator ?? '';
    for (const part of parts) {
      if (part.kind === 'call') {
        const call = result.calls[part.index];
        if (call === undefined) continue;
        if (callsSaid > 0) {
          callsSaid--;
          continue;
        }
        callEvents(call, emitted.calls, events);
        emitted.calls++;
        continue;
      }
      const isText = part.kind === 'text';
      let text: string;
      if (!isText && thoughtSaid > 0) {
        text = part.text.slice(thoughtSaid);
        thoughtSaid = 0;
        if (text === '') continue;
      } else if (isText && textSaid > 0) {
        text = (textSeparator + part.text).slice(textSaid);
        textSaid = 0;
        if (text === '') continue;
      } else {
        text = (isText ? emitted.text : emitted.reasoning) === 0 ? part.text : '\n\n' + part.text;
      }
      events.push({ type: isText ? 'text' : 'reasoning', text });
      if (isText) emitted.text += text.length;
      else emitted.reasoning += text.length;
    }
  }

  end(): StreamEnd {
    if (this.ended) throw new Error('end() called twice');
    this.ended = true;
    const text = this.chunks.join('');
    this.copiedChars += text.length;
    this.chunks.length = 0;
    this.held = [];
    this.worked += text.length;
    const turn = parseTurn(text, this.options);
    if (this.said !== null) divergences.set(this, diverging(this.said, turn.result));
    const events: StreamEvent[] = [];
    remainingEvents(turn, this.emitted, events);
    const { shape, include } = turn.options;
    const shaped = shape === 'tool-parse' && include === null ? turn.result : shapeResult(turn.result, shape, include, turn.parts);
    const result = turn.trace === null ? shaped : { ...shaped, trace: turn.trace };
    return { events, result };
  }
}

/**
 * A parser for one response arriving in chunks. Takes the options of `parseToolCalls`, checked
 * at once (a wrong option throws here, not at the first chunk).
 */
export function createStreamParser(options?: ParseOptions): StreamParser {
  parseTurn('', options);
  return new TextStreamParser(options);
}

/** True when `text` holds only spaces, tabs and line breaks. */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return false;
  }
  return true;
}
