/**
 * The plain run of the held text, released line by line (src/compose/plain-run.ts). After a
 * released region, the held text begins a rest piece, and the one-shot parse reads that piece's
 * leading plain lines as their own prose: the run, trimmed. So each line the run's cursor puts
 * in the run can be released as it comes, holding back only its trailing blanks (the run's end
 * is trimmed), the line not yet ended, and the lines the cursor holds (a fenced block until its
 * closing fence line, a line ending in an open brace until the next line that is not blank).
 *
 * The run ends where the cursor ends it; the front then releases nothing more until the held
 * text is cut again. At the line of the first opener held (a region there ends the piece) it
 * waits: when the stream learns that no reader will ever take that opener (a Markdown link's
 * `[` at a line start), it moves the limit on and the front reads on from that line (`resume`).
 * Cost: each character is looked at once when its line ends, and once more per limit moved.
 */
import { PlainRunCursor, type LineClassifier } from '../plain-run.js';

export class PlainLinesFront {
  readonly #run: PlainRunCursor;
  /** Lines the cursor holds: in the run only once a later line says so. */
  #held: string[] = [];
  /** The pieces of the line not yet ended. */
  #partial: string[] = [];
  #partialLength = 0;
  /** Where the line not yet ended starts, in the held text. */
  #lineAt = 0;
  #ended = false;
  /** The limit a line passed: the front waits until a later limit (`resume`). -1: not waiting. */
  #waitingAt = -1;
  /** A character of the run other than a blank has been released. */
  #started = false;
  /** A line of the run other than a blank one has come (released or held). */
  #seen = false;
  /** Blanks after the last character released, released only if more of the run follows. */
  #pending = '';
  /** What this run's text begins with in the result: a blank line after earlier prose, or nothing. */
  #separator: string | null = null;
  /** Characters of the run's text part released so far, its separator included. */
  released = 0;

  /** Refuses a run whose first non-blank line (then only) it answers true for. */
  readonly #refusesFirst: ((line: string) => boolean) | null;

  constructor(classify: LineClassifier, refusesFirst: ((line: string) => boolean) | null = null) {
    this.#run = new PlainRunCursor(classify);
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
    if (this.#ended || this.#waitingAt >= 0) return '';
    let out = '';
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      const piece = text.slice(from, nl + 1);
      const line = this.#partial.length === 0 ? piece : this.#partial.join('') + piece;
      this.#partial = [];
      this.#partialLength = 0;
      const lineEnd = this.#lineAt + line.length;
      from = nl + 1;
      if (lineEnd > limit) return this.#wait(limit, out, proseBefore);
      if (this.#refused(line)) return this.#end(out, proseBefore);
      const step = this.#run.step(line);
      if (step === 'end') return this.#end(out, proseBefore);
      this.#lineAt = lineEnd;
      if (step === 'held') {
        this.#held.push(line);
        continue;
      }
      for (const held of this.#held) out += this.#line(held);
      this.#held = [];
      out += this.#line(line);
    }
    if (from < text.length) {
      this.#partial.push(from === 0 ? text : text.slice(from));
      this.#partialLength += text.length - from;
      if (this.#lineAt + this.#partialLength > limit) return this.#wait(limit, out, proseBefore);
    }
    return this.#take(out, proseBefore);
  }

  /** Whether the front waits at a limit that `limit` has moved past (then `resume`, else `feed`). */
  movesOn(limit: number): boolean {
    return this.#waitingAt >= 0 && limit > this.#waitingAt;
  }

  /** Where the line the front reads (or waits at) starts, in the held text. */
  get lineAt(): number {
    return this.#lineAt;
  }

  /**
   * The stream moved the limit on past an opener no reader takes (`movesOn`): reads on from the
   * line the front waits at; `fromLine` is the held text from `lineAt`. Returns the text to release now.
   */
  resume(fromLine: string, limit: number, proseBefore: boolean): string {
    this.#waitingAt = -1;
    this.#partial = [];
    this.#partialLength = 0;
    return this.feed(fromLine, limit, proseBefore);
  }

  /** A line reaches past `limit`: wait there (`resume` reads that line again from the held text). */
  #wait(limit: number, out: string, proseBefore: boolean): string {
    this.#waitingAt = limit;
    this.#partial = [];
    this.#partialLength = 0;
    return this.#take(out, proseBefore);
  }

  /** Whether `line` is the run's first line that is not blank and the front refuses it. */
  #refused(line: string): boolean {
    if (this.#seen || line.trim() === '') return false;
    this.#seen = true;
    return this.#refusesFirst !== null && this.#refusesFirst(line);
  }

  /** The run ended: what it released is all it will. */
  #end(out: string, proseBefore: boolean): string {
    this.#ended = true;
    this.#held = [];
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
