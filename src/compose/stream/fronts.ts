/**
 * Text released before its region is: prose that no marker can begin in, and the body of a
 * reasoning block whose end has not come yet. Each front sees every character once, as chunks
 * arrive, and keeps only what it must hold back (docs/design.md, "Streaming"):
 *
 * - `ProseFront`: complete lines of plain prose. A line with a character that could begin any
 *   grammar's markup (`<`, `{`, `[`, a backtick, `|`, `#`, a name followed by `(`, …) stops it
 *   until the next region is released, since the lane might read that line, and what follows it,
 *   differently. Released text is the piece's text trimmed at both ends, as the lane trims it.
 * - `ReasoningFront`: a block's body up to the longest tail that could still begin one of its
 *   ends (a close, or a marker that stops it), trimmed as the block's text is.
 */

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x0b || code === 0x0c || code === 0xa0 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x3000 || code === 0x1680 || code === 0x202f || code === 0x205f || code === 0x85;
}

function isNameCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2e;
}

/** Characters after which the lane might read a line as markup, a fence, JSON or a sentinel. */
function isMarkupCode(code: number): boolean {
  return (
    code === 0x3c /* < */ ||
    code === 0x3e /* > */ ||
    code === 0x7b /* { */ ||
    code === 0x7d /* } */ ||
    code === 0x5b /* [ */ ||
    code === 0x5d /* ] */ ||
    code === 0x60 /* ` */ ||
    code === 0x7e /* ~ */ ||
    code === 0x7c /* | */ ||
    code === 0xff5c /* ｜ */ ||
    code === 0x23 /* # */ ||
    code === 0x26 /* & */ ||
    code === 0x5c /* \ */ ||
    code < 0x09
  );
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

export class ProseFront {
  private blocked = false;
  private line = '';
  private previous = 0;
  private readonly trim = new TrimmedRelease();
  /** The characters of the piece released so far (after the trim). */
  released = 0;

  /** Feeds the next text of the piece; returns the prose it releases (maybe ''). */
  feed(text: string): string {
    if (this.blocked) return '';
    let lastLine = -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (isMarkupCode(code) || (code === 0x28 /* ( */ && isNameCode(this.previous))) {
        this.blocked = true;
        break;
      }
      if (code === 0x0a) lastLine = i;
      this.previous = code;
    }
    if (lastLine < 0) {
      if (!this.blocked) this.line += text;
      return '';
    }
    const complete = this.line + text.slice(0, lastLine + 1);
    this.line = this.blocked ? '' : text.slice(lastLine + 1);
    const out = this.trim.take(complete, false);
    this.released += out.length;
    return out;
  }

  /** No prose may be released before the next region (an opener arrived). */
  block(): void {
    this.blocked = true;
  }
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

  /** `ends`: every marker that ends the body (closes and stops). */
  constructor(private readonly ends: readonly string[]) {}

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
      body = body.slice(0, cut);
      this.done = true;
      this.buffer = '';
      const out = this.trim.take(body, false);
      this.released += out.length;
      return out;
    }
    const keep = heldBack(body, this.ends);
    this.buffer = body.slice(body.length - keep);
    const out = this.trim.take(body.slice(0, body.length - keep), false);
    this.released += out.length;
    return out;
  }
}
