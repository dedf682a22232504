/**
 * Arguments a model wrote as a JSON string holding the object (`"arguments": "{\"city\": \"Paris\"}"`,
 * Kimi's `<|tool_call_argument_begin|>"{…}"`, Mistral's `[ARGS]"{…}"`): the string is decoded
 * when it holds exactly one JSON object, so every field grammar reads the form alike.
 */
import { readLenientJsonAt } from '../../lex/json-lenient.js';
import { isPlainRecord } from '../../lex/json-object.js';
import { readJsonValueAt, type JsonValueAt } from '../../lex/json-stream.js';
import { skipSpace } from './cursor.js';

/** One JSON value at `at`: strictly, then, only when that fails, by the lenient rung. */
export function readJsonItem(text: string, at: number): JsonValueAt {
  const strict = readJsonValueAt(text, at);
  if (strict.ok || strict.eof) return strict;
  const lenient = readLenientJsonAt(text, at);
  // The strict reader's complaint is the one to show when neither reading works.
  return lenient.ok || lenient.eof ? lenient : strict;
}

export type StringArguments = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly error: string };

/** The object a JSON string of arguments holds, or why it holds none. */
export function argumentsInString(args: string): StringArguments {
  const at = skipSpace(args, 0);
  const read = readJsonItem(args, at);
  if (!read.ok) return { ok: false, error: `a string that is not JSON (${read.error})` };
  if (skipSpace(args, read.end) < args.length) return { ok: false, error: 'a string with text after its JSON value' };
  if (!isPlainRecord(read.value)) return { ok: false, error: 'a string that holds no JSON object' };
  return { ok: true, value: read.value };
}
