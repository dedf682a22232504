/**
 * Raw body bytes to a JSON value, in the worker. `JSON.parse` defines every key as an own data
 * property, so `"__proto__"` and `"constructor"` stay ordinary keys and no prototype changes.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

export type Decoded = { ok: true; value: unknown } | { ok: false; message: string };
export type DecodedText = { ok: true; text: string } | { ok: false; message: string };

export function decodeBodyText(bytes: Uint8Array): DecodedText {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, message: 'request body is not valid UTF-8' };
  }
  if (text.trim() === '') return { ok: false, message: 'request body is empty; expected a JSON object' };
  return { ok: true, text };
}

export function parseBodyText(text: string): Decoded {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `request body is not valid JSON${positionOf(error)}` };
  }
}

export function decodeJsonBody(bytes: Uint8Array): Decoded {
  const decoded = decodeBodyText(bytes);
  return decoded.ok ? parseBodyText(decoded.text) : decoded;
}

/** V8 reports "... at position N" (and sometimes line/column); keep only the position. */
function positionOf(error: unknown): string {
  const match = error instanceof SyntaxError ? /position (\d+)/.exec(error.message) : null;
  return match ? ` (at character ${match[1]})` : '';
}
