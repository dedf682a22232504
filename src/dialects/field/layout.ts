/**
 * One object layout for every record of a family.
 *
 * perf: a reader loads a record's fields from whichever record a region opened. Records written
 * as separate literals, each with its own optional fields in its own order, have as many layouts
 * as records; once a process had read them all, those loads went megamorphic and the engine
 * stopped inlining around them. A record built here has every field of `fields`, in that order
 * (undefined where it has none), so all records built with one list share one layout.
 */
import type { FieldGrammarBase } from './types.js';

/** `record` rebuilt with every field of `fields`, in that order; a field the list does not name is refused. */
export function uniformRecord<T extends object>(record: T, fields: readonly (keyof T & string)[]): T {
  const source = record as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (!(fields as readonly string[]).includes(key)) throw new TypeError(`uniformRecord: field ${key} of ${String(source.id)} is not in the family's list`);
  }
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = source[field];
  return out as T;
}

/** The fields every family's record starts with (`FieldGrammarBase`), in that order. */
export const BASE_FIELDS = ['id', 'family', 'openers', 'markers', 'openAt', 'responseOpeners'] as const satisfies readonly (keyof FieldGrammarBase)[];
