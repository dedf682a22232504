/**
 * The caller's `x-request-id`, when it is safe to log and echo: 1 to 128 visible ASCII
 * characters. Anything else (absent, repeated, too long, control characters) gets a fresh id.
 */
const MAX_REQUEST_ID_LENGTH = 128;
const FIRST_VISIBLE = 0x21; // '!'
const LAST_VISIBLE = 0x7e; // '~'

export function requestIdOf(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_REQUEST_ID_LENGTH) return null;
  for (let i = 0; i < header.length; i++) {
    const code = header.charCodeAt(i);
    if (code < FIRST_VISIBLE || code > LAST_VISIBLE) return null;
  }
  return header;
}
