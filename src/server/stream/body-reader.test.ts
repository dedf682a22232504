import { describe, expect, it } from 'vitest';
import { ndjsonReader, plainReader, type BodyItem, type BodyReader } from './body-reader.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Feeds `body` cut every `size` bytes, then ends it. */
function read(reader: BodyReader, body: Uint8Array, size: number): BodyItem[] {
  const items: BodyItem[] = [];
  for (let i = 0; i < body.length; i += size) items.push(...reader.feed(body.subarray(i, i + size)));
  return [...items, ...reader.finish()];
}

describe('ndjsonReader', () => {
  const body = bytes('{"tools": ["look"]}\r\n\n{"text": "Sé 𝄞"}\n   \n{"text": "b"}');

  it('gives the options, then each text line, however the bytes are cut (CRLF, blank lines, no final newline)', () => {
    for (const size of [1, 2, 3, 7, body.length]) {
      expect(read(ndjsonReader(), body, size)).toEqual([
        { kind: 'options', value: { tools: ['look'] } },
        { kind: 'text', text: 'Sé 𝄞' },
        { kind: 'text', text: 'b' },
      ]);
    }
  });

  it('stops at the first bad line and names it', () => {
    const reader = ndjsonReader();
    expect(reader.feed(bytes('{}\n{"text": 1}\n{"text": "never"}\n'))).toEqual([
      { kind: 'options', value: {} },
      { kind: 'invalid', message: 'line 2.text must be of type string' },
    ]);
    expect(ndjsonReader().feed(bytes('{}\n["x"]\n'))[1]).toEqual({ kind: 'invalid', message: 'line 2 of the stream body must be an object {"text": string}' });
    expect(ndjsonReader().feed(bytes('{}\n{"text": "a"\n'))[1]).toEqual({ kind: 'invalid', message: 'line 2 of the stream body is not valid JSON' });
    expect(ndjsonReader().feed(new Uint8Array([0x7b, 0x7d, 0x0a, 0xff]))).toEqual([{ kind: 'invalid', message: 'the stream body is not valid UTF-8' }]);
  });
});

describe('plainReader', () => {
  it('gives the text whole however a multi-byte character is cut', () => {
    const text = 'a é ｜ 𝄞 z';
    for (const size of [1, 2, 3]) {
      const items = read(plainReader(), bytes(text), size);
      expect(items.map((item) => (item.kind === 'text' ? item.text : '?')).join('')).toBe(text);
    }
  });

  it('refuses bytes that are not UTF-8, and a character cut off at the end', () => {
    expect(plainReader().feed(new Uint8Array([0x61, 0xff]))).toEqual([{ kind: 'invalid', message: 'the stream body is not valid UTF-8' }]);
    const reader = plainReader();
    expect(reader.feed(new Uint8Array([0x61, 0xf0, 0x9d]))).toEqual([{ kind: 'text', text: 'a' }]);
    expect(reader.finish()).toEqual([{ kind: 'invalid', message: 'the stream body is not valid UTF-8' }]);
  });
});
