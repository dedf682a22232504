/**
 * JSON helpers shared by the ladders. `JSON.parse` is the strict first rung: it already
 * creates `__proto__`, `constructor` and `prototype` as ordinary own keys. Its error text is
 * only ever shown to the model, never branched on.
 */
import { isPlainRecord, setOwn } from '../../lex/json-object.js';

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A JSON object (not an array, not null); the lexer's `isPlainRecord` under the name the composer uses. */
export const isJsonObject = isPlainRecord;

/** Own-key assignment that keeps `__proto__` an ordinary key (from the lexer). */
export { setOwn };
