/**
 * One strict JSON value from a whole string, read by the project's JSON stream reader rather
 * than `JSON.parse`: the reader caps nesting (as the reference's serde reader does), so a model
 * cannot hand the lanes a value so deep that rendering or walking it exhausts the stack.
 */
import { readJsonStream } from '../../lex/json-stream.js';
import type { JsonParse } from '../ladders/json.js';

export function strictJson(text: string): JsonParse {
  const source = text.trim();
  const stream = readJsonStream(source);
  const first = stream.values[0];
  if (first === undefined) return { ok: false, error: stream.error ?? (stream.eof ? 'the JSON value is cut off' : 'no JSON value') };
  if (stream.values.length > 1 || first.end !== source.length) {
    return { ok: false, error: stream.error ?? `unexpected text after the JSON value at offset ${first.end}` };
  }
  return { ok: true, value: first.value };
}
