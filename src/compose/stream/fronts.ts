/**
 * The body of a reasoning block released before the block ends (docs/design.md, "Streaming"):
 * up to the longest tail that could still begin one of its ends (a close, or a marker that
 * stops it), trimmed as the block's text is. It sees every character once, as chunks arrive.
 *
 * Prose between regions has no such front: the rest lane decides a piece's prose over the whole
 * piece (a later `<user_response>` or a `Label:` before a call changes what came before), so it
 * is released with the region that ends its piece, or line by line (plain-lines.ts). An
 * answer's body read as written (Harmony's `final` message, `AnswerFront`) is the exception: no
 * later text changes it, so it flows as reasoning does.
 */
import { answerBodyEnds, FRAME_ENDS, startedBodyEnd } from '../field/lane.js';
import type { VerbatimBody } from '../field/region.js';

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x0b || code === 0x0c || code === 0xa0 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x3000 || code === 0x1680 || code === 0x202f || code === 0x205f || code === 0x85;
}

/** Text released, trimmed at its start; the whitespace after it is held until more text comes. */
class TrimmedRelease {
  private started = false;
  private space = '';

  /** What of `text` (the next run of the piece) may go out now. */
  take(text: string, final: boolean): string {
    let from = 0;
    if (!this.started) {
      while (from < text.length && isSpace(text.charCodeAt(from))) from++;
      if (from === text.length) return '';
    }
    let to = text.length;
    if (!final) while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
    if (to === from) {
      if (this.started) this.space += text.slice(from);
      return '';
    }
    const out = this.space + text.slice(from, to);
    this.space = text.slice(to);
    this.started = true;
    return out;
  }

  get released(): boolean {
    return this.started;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The longest tail of `text` that is a proper prefix of one of `markers`. */
function heldBack(text: string, markers: readonly string[]): number {
  let most = 0;
  for (const marker of markers) {
    for (let k = Math.min(marker.length - 1, text.length); k > most; k--) {
      if (text.endsWith(marker.slice(0, k))) {
        most = k;
        break;
      }
    }
  }
  return most;
}

export class ReasoningFront {
  private buffer = '';
  private done = false;
  private readonly trim = new TrimmedRelease();
  /** The characters of the block's text released so far. */
  released = 0;

  /**
   * `ends`: every marker that ends the body (closes and stops). `started`: the prompt opened the
   * block, so a frame end (`<|end|>`) written last, just before an end, is a marker, not
   * reasoning (field/lane.ts, `startedBodyEnd`); one is held back until what follows shows which.
   */
  constructor(
    private readonly ends: readonly string[],
    private readonly started = false,
  ) {}

  private beforeFrameEnd(body: string, end: number): number {
    return this.started ? startedBodyEnd(body, end) : end;
  }

  /** Feeds the next text of the body; returns the reasoning it releases (maybe ''). */
  feed(text: string): string {
    if (this.done) return '';
    let body = this.buffer + text;
    let cut = -1;
    for (const end of this.ends) {
      const at = body.indexOf(end);
      if (at >= 0 && (cut < 0 || at < cut)) cut = at;
    }
    if (cut >= 0) {
      // The end came: the region's own release says the rest, trimmed.
      body = body.slice(0, this.beforeFrameEnd(body, cut));
      this.done = true;
      this.buffer = '';
      const out = this.trim.take(body, false);
      this.released += out.length;
      return out;
    }
    const tail = Math.max(heldBack(body, this.ends), this.started ? heldBack(body, FRAME_ENDS) : 0);
    let keep = body.length - this.beforeFrameEnd(body, body.length - tail);
    // A high surrogate waits for its pair: an event never ends inside a character.
    if (isHighSurrogate(body.charCodeAt(body.length - keep - 1))) keep++;
    this.buffer = body.slice(body.length - keep);
    const out = this.trim.take(body.slice(0, body.length - keep), false);
    this.released += out.length;
    return out;
  }
}

/**
 * The body of a visible answer read as written (field/lane.ts, `answerBodyRegion`), released as
 * it comes: up to the longest tail that could begin one of its ends, trimmed as the region's
 * prose is. Its first text begins with a blank line when prose came before it, as the result
 * joins prose parts.
 */
export class AnswerFront {
  readonly #ends: readonly string[];
  readonly #trim = new TrimmedRelease();
  #buffer = '';
  /** Characters of the body before the held-back buffer. */
  #consumed = 0;
  /** What ends the body has come. */
  done = false;
  /** Once done: where the body ends, from its start. */
  length = 0;
  /** Characters of the body's text part released so far, its separator included. */
  released = 0;
  /** The separator the released text began with (null while nothing was released). */
  separator: string | null = null;

  constructor(readonly of: VerbatimBody) {
    this.#ends = answerBodyEnds(of);
  }

  /** Feeds the body's next text; `proseBefore`: the stream has released prose before it. Returns the text to release now. */
  feed(text: string, proseBefore: boolean): string {
    if (this.done) return '';
    const body = this.#buffer + text;
    let cut = -1;
    for (const end of this.#ends) {
      const at = body.indexOf(end);
      if (at >= 0 && (cut < 0 || at < cut)) cut = at;
    }
    let out: string;
    if (cut >= 0) {
      this.done = true;
      this.length = this.#consumed + cut;
      this.#buffer = '';
      out = this.#trim.take(body.slice(0, cut), false);
    } else {
      let keep = heldBack(body, this.#ends);
      // A high surrogate waits for its pair: an event never ends inside a character.
      if (isHighSurrogate(body.charCodeAt(body.length - keep - 1))) keep++;
      this.#buffer = body.slice(body.length - keep);
      this.#consumed += body.length - keep;
      out = this.#trim.take(body.slice(0, body.length - keep), false);
    }
    if (out === '') return '';
    if (this.separator === null) {
      this.separator = proseBefore ? '\n\n' : '';
      out = this.separator + out;
    }
    this.released += out.length;
    return out;
  }
}
