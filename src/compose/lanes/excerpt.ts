/** The first `max` UTF-16 units of `text` for a message excerpt, never ending on half a surrogate pair. */
export function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
