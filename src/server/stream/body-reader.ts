/**
 * A streamed request body as text, chunk by chunk. The bytes go through one streaming UTF-8
 * decoder, so a character cut across two TCP chunks comes out whole in the later one; invalid
 * UTF-8 is an error, not a replacement character (the body is the transport, not model text).
 *
 *   text/plain            every decoded piece is a chunk of the response
 *   application/x-ndjson  complete lines only: the first is the options, every later one
 *                         `{"text": "..."}`; blank lines are skipped, a last line may lack its `\n`
 */
export type BodyItem = { kind: 'options'; value: unknown } | { kind: 'text'; text: string } | { kind: 'invalid'; message: string };

export interface BodyReader {
  /** The items these bytes complete (none while a line or a character is still open). */
  feed(bytes: Uint8Array): BodyItem[];
  /** The items the end of the body completes. */
  finish(): BodyItem[];
}

class PlainReader implements BodyReader {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });

  feed(bytes: Uint8Array): BodyItem[] {
    return this.#decode(bytes, true);
  }

  finish(): BodyItem[] {
    return this.#decode(new Uint8Array(0), false);
  }

  #decode(bytes: Uint8Array, stream: boolean): BodyItem[] {
    let text: string;
    try {
      text = this.#decoder.decode(bytes, { stream });
    } catch {
      return [{ kind: 'invalid', message: 'the stream body is not valid UTF-8' }];
    }
    return text === '' ? [] : [{ kind: 'text', text }];
  }
}

class NdjsonReader implements BodyReader {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  #pending = '';
  /** Where the search for the next `\n` resumes: `#pending` before it holds none (a long line is not searched again per chunk). */
  #searched = 0;
  #line = 0;

  feed(bytes: Uint8Array): BodyItem[] {
    return this.#take(bytes, true);
  }

  finish(): BodyItem[] {
    return this.#take(new Uint8Array(0), false);
  }

  #take(bytes: Uint8Array, stream: boolean): BodyItem[] {
    try {
      this.#pending += this.#decoder.decode(bytes, { stream });
    } catch {
      // The decoder refuses the whole piece, so no line of it is named.
      return [{ kind: 'invalid', message: 'the stream body is not valid UTF-8' }];
    }
    const items: BodyItem[] = [];
    let start = 0;
    for (let nl = this.#pending.indexOf('\n', this.#searched); nl >= 0; nl = this.#pending.indexOf('\n', start)) {
      const item = this.#lineItem(this.#pending.slice(start, nl));
      start = nl + 1;
      if (item === null) continue;
      items.push(item);
      if (item.kind === 'invalid') return items;
    }
    this.#pending = this.#pending.slice(start);
    this.#searched = this.#pending.length;
    if (!stream && this.#pending !== '') {
      const item = this.#lineItem(this.#pending);
      this.#pending = '';
      if (item !== null) items.push(item);
    }
    return items;
  }

  #lineItem(raw: string): BodyItem | null {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return null;
    this.#line += 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { kind: 'invalid', message: `line ${this.#line} of the stream body is not valid JSON` };
    }
    if (this.#line === 1) return { kind: 'options', value };
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { kind: 'invalid', message: `line ${this.#line} of the stream body must be an object {"text": string}` };
    }
    const record = value as Record<string, unknown>;
    const extra = Object.keys(record).find((key) => key !== 'text');
    if (extra !== undefined) return { kind: 'invalid', message: `line ${this.#line}.${extra} is not a known field` };
    if (typeof record.text !== 'string') return { kind: 'invalid', message: `line ${this.#line}.text must be of type string` };
    return { kind: 'text', text: record.text };
  }
}

export function plainReader(): BodyReader {
  return new PlainReader();
}

export function ndjsonReader(): BodyReader {
  return new NdjsonReader();
}
