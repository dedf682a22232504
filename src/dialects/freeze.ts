/**
 * Freezes a plain data tree in place and returns it, typed as deeply read-only. Every string in
 * it is replaced by the engine's interned copy of the same text first.
 *
 * perf: vocabulary strings are built every which way (literals, templates, joins), so the engine
 * holds them in several representations (flat or concatenated, one or two bytes per unit). A
 * helper that reads the literals of many records (cursor.ts `matchAt`: `literal.charCodeAt(0)`)
 * then sees so many string layouts that its property load went megamorphic once a process had
 * read every grammar, and the engine stopped inlining the character read. Interned strings come
 * in two layouts (one or two bytes per unit), and compare by identity where both sides are.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const member = record[key];
      if (typeof member === 'string') record[key] = interned(member);
      else deepFreeze(member);
    }
    Object.freeze(value);
  }
  return value;
}

/**
 * The engine's interned copy of `text`: a property key is interned, and `Object.keys` hands back
 * the key itself. (A key that reads as an array index is kept as a number; such a text is
 * returned as it was.)
 */
export function interned(text: string): string {
  const key = Object.keys({ [text]: true })[0]!;
  return key === text ? key : text;
}
