/**
 * The bracket depth and string state of the JSON (or Python literal) begun in a text after a
 * point, read forward and resumable: a stream looks again as its held text grows, and each look
 * reads only what came since the last (`jsonOpenAt` in closers.ts is one look over a span).
 */
export class ValueDepth {
  private from = -1;
  private at = 0;
  private depth = 0;
  private quote = 0;
  private begun = false;

  /** The held text was cut: what was read no longer lies where it did. */
  reset(): void {
    this.from = -1;
  }

  /** Inside a string, or with a brace, bracket or parenthesis not yet closed. */
  get open(): boolean {
    return this.quote !== 0 || this.depth > 0;
  }

  /** Reads `text` up to `end` from where the last look stopped (from `from` when it is new); returns the characters read. */
  advance(text: string, from: number, end: number): number {
    if (from !== this.from || end < this.at) {
      this.from = from;
      this.at = from;
      this.depth = 0;
      this.quote = 0;
      this.begun = false;
    }
    const start = this.at;
    let i = start;
    for (; i < end; i++) {
      const code = text.charCodeAt(i);
      if (!this.begun) {
        if (code !== 0x7b && code !== 0x5b && code !== 0x28) continue;
        this.begun = true;
      }
      if (this.quote !== 0) {
        if (code === 0x5c) i++;
        else if (code === this.quote) this.quote = 0;
      } else if (code === 0x22 || code === 0x27) this.quote = code;
      else if (code === 0x7b || code === 0x5b || code === 0x28) this.depth++;
      else if (code === 0x7d || code === 0x5d || code === 0x29) this.depth--;
    }
    // An escape as the last character read steps past `end`: resume after it.
    this.at = i;
    return i - start;
  }
}
