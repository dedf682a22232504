/**
 * Strict JSON values read at arbitrary offsets of one text, with every container memoised by
 * its start offset. The native-JSON fallback asks "does a JSON value start here?" at every
 * `[` and `{`; nested containers are then answered from the memo instead of being re-read, and
 * a shared step budget bounds the rest, so the whole search stays linear in the text.
 *
 * Grammar as serde_json reads it: whitespace is space, tab, LF, CR; no comments, no trailing
 * commas; strings reject raw control characters and unpaired surrogate escapes; nesting deeper
 * than 128 is an error. Keys become own properties (`__proto__` included).
 */
import { Code, hex4 } from '../../lex/codes.js';
import { setOwn } from '../../lex/json-object.js';
import type { WorkMeter } from './meter.js';

export type JsonRead =
  | { ok: true; value: unknown; end: number }
  /** `at` is where reading stopped; `eof` when the text ended inside the value. */
  | { ok: false; at: number; eof: boolean; message: string; contextual?: true };

const MAX_DEPTH = 128;

export class JsonReader {
  private readonly containers = new Map<number, JsonRead>();

  constructor(
    private readonly text: string,
    private readonly meter: WorkMeter,
    /** Steps after which every read fails (the caller's linear budget). */
    private readonly stepLimit = Infinity,
  ) {}

  /** The container (`[` or `{`) starting at `at`, read once and remembered. */
  container(at: number, depth = 0): JsonRead {
    const known = this.containers.get(at);
    if (known !== undefined) return known;
    if (depth > MAX_DEPTH) return { ok: false, at, eof: false, message: 'nesting too deep', contextual: true };
    const read = this.readContainer(at, depth);
    // A depth failure depends on where the read began, so only context-free outcomes are kept.
    if (read.ok || read.contextual !== true) this.containers.set(at, read);
    return read;
  }

  /** One whole JSON document: a value, then only whitespace. */
  document(): JsonRead {
    const start = this.skipWhitespace(0);
    const read = this.value(start, 0);
    if (!read.ok) return read;
    const end = this.skipWhitespace(read.end);
    return end === this.text.length ? read : this.fail(end, 'trailing characters after the value');
  }

  get exhausted(): boolean {
    return this.meter.steps > this.stepLimit;
  }

  private fail(at: number, message: string): JsonRead {
    return { ok: false, at, eof: at >= this.text.length, message: at >= this.text.length ? 'unexpected end of input' : message };
  }

  private skipWhitespace(at: number): number {
    const text = this.text;
    let i = at;
    for (;;) {
      const code = text.charCodeAt(i);
      if (code !== Code.Space && code !== Code.Tab && code !== Code.LineFeed && code !== Code.CarriageReturn) break;
      i++;
    }
    this.meter.steps += i - at;
    return i;
  }

  private value(at: number, depth: number): JsonRead {
    this.meter.steps++;
    if (this.exhausted) return { ok: false, at, eof: false, message: 'work budget exhausted', contextual: true };
    const code = this.text.charCodeAt(at);
    if (code === Code.LeftBrace || code === Code.LeftBracket) return this.container(at, depth + 1);
    if (code === Code.Quote) return this.string(at);
    if (code === Code.Dash || (code >= Code.Digit0 && code <= Code.Digit9)) return this.number(at);
    if (code === Code.LowerT) return this.literal(at, 'true', true);
    if (code === Code.LowerF) return this.literal(at, 'false', false);
    if (code === Code.LowerN) return this.literal(at, 'null', null);
    return this.fail(at, 'expected a value');
  }

  private readContainer(at: number, depth: number): JsonRead {
    return this.text.charCodeAt(at) === Code.LeftBrace ? this.object(at, depth) : this.array(at, depth);
  }

  private array(at: number, depth: number): JsonRead {
    const items: unknown[] = [];
    let i = this.skipWhitespace(at + 1);
    if (this.text.charCodeAt(i) === Code.RightBracket) return { ok: true, value: items, end: i + 1 };
    for (;;) {
      const item = this.value(i, depth);
      if (!item.ok) return item;
      items.push(item.value);
      i = this.skipWhitespace(item.end);
      const code = this.text.charCodeAt(i);
      if (code === Code.RightBracket) return { ok: true, value: items, end: i + 1 };
      if (code !== Code.Comma) return this.fail(i, 'expected `,` or `]`');
      i = this.skipWhitespace(i + 1);
    }
  }

  private object(at: number, depth: number): JsonRead {
    const record: Record<string, unknown> = {};
    let i = this.skipWhitespace(at + 1);
    if (this.text.charCodeAt(i) === Code.RightBrace) return { ok: true, value: record, end: i + 1 };
    for (;;) {
      if (this.text.charCodeAt(i) !== Code.Quote) return this.fail(i, 'expected a string key');
      const key = this.string(i);
      if (!key.ok) return key;
      i = this.skipWhitespace(key.end);
      if (this.text.charCodeAt(i) !== Code.Colon) return this.fail(i, 'expected `:`');
      const member = this.value(this.skipWhitespace(i + 1), depth);
      if (!member.ok) return member;
      setOwn(record, key.value as string, member.value);
      i = this.skipWhitespace(member.end);
      const code = this.text.charCodeAt(i);
      if (code === Code.RightBrace) return { ok: true, value: record, end: i + 1 };
      if (code !== Code.Comma) return this.fail(i, 'expected `,` or `}`');
      i = this.skipWhitespace(i + 1);
    }
  }

  /**
   *     "a\"b\u00e9"
   *     ^ at        ^ end
   * Runs between escapes are sliced whole.
   */
  private string(at: number): JsonRead {
    const text = this.text;
    let out = '';
    let runStart = at + 1;
    let i = runStart;
    for (;;) {
      this.meter.steps++;
      if (i >= text.length) return this.fail(i, 'unterminated string');
      const code = text.charCodeAt(i);
      if (code === Code.Quote) {
        this.meter.steps += i - runStart;
        return { ok: true, value: out + text.slice(runStart, i), end: i + 1 };
      }
      if (code < 0x20) return this.fail(i, 'control character in string');
      if (code !== Code.Backslash) {
        i++;
        continue;
      }
      out += text.slice(runStart, i);
      const escape = this.escape(i);
      if ('ok' in escape) return escape;
      out += escape.decoded;
      i += escape.length;
      runStart = i;
    }
  }

  /** The escape whose backslash is at `at`: what it decodes to and how many chars it spans. */
  private escape(at: number): { decoded: string; length: number } | JsonRead {
    const text = this.text;
    const code = text.charCodeAt(at + 1);
    const simple = SIMPLE_ESCAPES.get(code);
    if (simple !== undefined) return { decoded: simple, length: 2 };
    if (code !== Code.LowerU) return this.fail(at + 1, 'invalid escape');
    const high = hex4(text, at + 2);
    if (high < 0) return this.fail(at + 2, 'invalid \\u escape');
    if (high < 0xd800 || high > 0xdfff) return { decoded: String.fromCharCode(high), length: 6 };
    if (high >= 0xdc00) return this.fail(at, 'unpaired surrogate escape');
    if (text.charCodeAt(at + 6) !== Code.Backslash || text.charCodeAt(at + 7) !== Code.LowerU) {
      return this.fail(at + 6, 'unpaired surrogate escape');
    }
    const low = hex4(text, at + 8);
    if (low < 0xdc00 || low > 0xdfff) return this.fail(at + 8, 'unpaired surrogate escape');
    return { decoded: String.fromCharCode(high, low), length: 12 };
  }

  private number(at: number): JsonRead {
    const text = this.text;
    let i = at;
    if (text.charCodeAt(i) === Code.Dash) i++;
    if (text.charCodeAt(i) === Code.Digit0) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else return this.fail(i, 'invalid number');
    if (text.charCodeAt(i) === Code.Dot) {
      i++;
      if (!isDigit(text.charCodeAt(i))) return this.fail(i, 'invalid number');
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      if (text.charCodeAt(i) === Code.Plus || text.charCodeAt(i) === Code.Dash) i++;
      if (!isDigit(text.charCodeAt(i))) return this.fail(i, 'invalid number');
      while (isDigit(text.charCodeAt(i))) i++;
    }
    this.meter.steps += i - at;
    return { ok: true, value: Number(text.slice(at, i)), end: i };
  }

  private literal(at: number, word: string, value: boolean | null): JsonRead {
    if (!this.text.startsWith(word, at)) return this.fail(at, 'expected a value');
    return { ok: true, value, end: at + word.length };
  }
}

const SIMPLE_ESCAPES = new Map<number, string>([
  [Code.Quote, '"'],
  [Code.Backslash, '\\'],
  [Code.Slash, '/'],
  [0x62, '\b'],
  [Code.LowerF, '\f'],
  [Code.LowerN, '\n'],
  [Code.LowerR, '\r'],
  [Code.LowerT, '\t'],
]);

function isDigit(code: number): boolean {
  return code >= Code.Digit0 && code <= Code.Digit9;
}

