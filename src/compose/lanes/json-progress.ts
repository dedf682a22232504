/**
 * An incremental "is this JSON still open?" tracker for the fence chunker. A close-fence line
 * inside a tool fence is content while the JSON read so far is an incomplete value (an object
 * or array still open, or a string still open), so the chunker asks after every line. Feeding
 * each line once keeps the chunker linear where re-reading the body at every close line would
 * not be.
 *
 * It tracks nesting and strings only. Any byte that cannot appear outside a JSON string
 * (a backtick, `<`, ...) marks the body broken for good: a broken body is never "incomplete",
 * so the next close line closes the fence, as a full JSON reader would decide.
 */
import { Code } from '../../lex/codes.js';

export class JsonProgress {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private broken = false;
  /** Work counter (characters fed), read by the linearity test. */
  steps = 0;

  /** True while the text fed so far stops inside a JSON value. */
  get incomplete(): boolean {
    return !this.broken && (this.depth > 0 || this.inString);
  }

  /** Feeds one line; the line break that ended it counts as whitespace. */
  feedLine(line: string): void {
    if (this.broken) return;
    for (let i = 0; i < line.length; i++) {
      this.steps++;
      const code = line.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === Code.Backslash) this.escaped = true;
        else if (code === Code.Quote) this.inString = false;
        continue;
      }
      if (code === Code.Quote) this.inString = true;
      else if (code === Code.LeftBrace || code === Code.LeftBracket) this.depth++;
      else if (code === Code.RightBrace || code === Code.RightBracket) {
        if (this.depth === 0) {
          this.broken = true;
          return;
        }
        this.depth--;
      } else if (!isJsonStructural(code)) {
        this.broken = true;
        return;
      }
    }
    // A raw line break inside a string is invalid JSON: the string cannot still be open.
    if (this.inString) this.broken = true;
  }
}

/** Characters allowed outside strings: whitespace, punctuation, numbers and the literals' letters. */
function isJsonStructural(code: number): boolean {
  if (code === Code.Space || code === Code.Tab || code === Code.CarriageReturn || code === Code.LineFeed) return true;
  if (code === Code.Comma || code === Code.Colon) return true;
  if ((code >= Code.Digit0 && code <= Code.Digit9) || code === Code.Dash || code === Code.Plus || code === Code.Dot) return true;
  return code >= Code.LowerA && code <= Code.LowerZ ? true : code === Code.UpperE;
}
