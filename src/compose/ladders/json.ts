/**
 * JSON helpers shared by the ladders. The strict first rung is the lexer's capped reader
 * (`JSON.parse` behind the nesting limit the lanes use): it creates `__proto__`, `constructor`
 * and `prototype` as ordinary own keys, and refuses a value too deep to walk. Its error text is
 * only ever shown to the model, never branched on.
 */
import { readJsonCapped, type JsonRead } from '../../lex/json-read.js';
import { isPlainRecord, setOwn } from '../../lex/json-object.js';

export type JsonParse = JsonRead;

export const parseJson = readJsonCapped;

/** A JSON object (not an array, not null); the lexer's `isPlainRecord` under the name the composer uses. */
export const isJsonObject = isPlainRecord;

/** Own-key assignment that keeps `__proto__` an ordinary key (from the lexer). */
export { setOwn };
