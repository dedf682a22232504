/**
 * The plain run of the held text, released line by line (src/compose/plain-run.ts). After a
 * released region, the held text begins a rest piece, and the one-shot parse reads that piece's
 * leading plain lines as their own prose: the run, trimmed. So each complete plain line can be
 * released as it comes, holding back only its trailing blanks (the run's end is trimmed) and the
 * line not yet ended.
 *
 * The run ends at the first line that is not plain, and at the line of the first opener held
 * (a region there ends the piece); the front then releases nothing more until the held text is
 * cut again. Cost: each character is looked at once, when its line ends.
 */
import type { PlainLineTest } from '../plain-run.js';

export class PlainLinesFront {
  readonly #plain: PlainLineTest;
  /** The pieces of the line not yet ended. */
  #partial: string[] = [];
  #partialLength = 0;
  /** Where the line not yet ended starts, in the held text. */
  #lineAt = 0;
  #ended = false;
  /** A character of the run other than a blank has come. */
  #started = false;
  /** Blanks after the last character released, released only if more of the run follows. */
  #pending = '';
  /** What this run's text begins with in the result: a blank line after earlier prose, or nothing. */
  #separator: string | null = null;
  /** Characters of the run's text part released so far, its separator included. */
  released = 0;

  /** Refuses a run whose first non-blank line (then only) it answers true for. */
  readonly #refusesFirst: ((line: string) => boolean) | null;

  constructor(plain: PlainLineTest, refusesFirst: ((line: string) => boolean) | null = null) {
    this.#plain = plain;
    this.#refusesFirst = refusesFirst;
  }

  /** The separator the released text began with ('' when nothing was released). */
  get separator(): string {
    return this.#separator ?? '';
  }

  /**
   * Feeds the next held text; lines must end by `limit` (the first opener's place in the held
   * text). `proseBefore`: the stream has released prose before this run. Returns the text to
   * release now.
   */
  feed(text: string, limit: number, proseBefore: boolean): string {
    if (this.#ended) return '';
    let out = '';
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      const piece = text.slice(from, nl + 1);
      const line = this.#partial.length === 0 ? piece : this.#partial.join('') + piece;
      this.#partial = [];
      this.#partialLength = 0;
      const lineEnd = this.#lineAt + line.length;
      from = nl + 1;
      if (lineEnd > limit || !this.#plain(line) || (!this.#started && this.#refusesFirst !== null && line.trim() !== '' && this.#refusesFirst(line))) {
        this.#ended = true;
        return this.#take(out, proseBefore);
      }
      this.#lineAt = lineEnd;
      out += this.#line(line);
    }
    if (from < text.length) {
      this.#partial.push(from === 0 ? text : text.slice(from));
      this.#partialLength += text.length - from;
      if (this.#lineAt + this.#partialLength > limit) this.#ended = true;
    }
    return this.#take(out, proseBefore);
  }

  /** What a plain line adds to the released text. */
  #line(line: string): string {
    const text = this.#started ? this.#pending + line : line.trimStart();
    const content = text.trimEnd();
    this.#pending = text.slice(content.length);
    if (content !== '') this.#started = true;
    return content;
  }

  #take(out: string, proseBefore: boolean): string {
    if (out === '') return '';
    if (this.#separator === null) {
      this.#separator = proseBefore ? '\n\n' : '';
      out = this.#separator + out;
    }
    this.released += out.length;
    return out;
  }
}
