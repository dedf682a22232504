import { Code } from '../../lex/codes.js';

export type LabelledBody = { ok: true; body: string; nameHint: string } | { ok: false };

/** A label is at most this many characters (the reference pattern's `{0,63}` plus the first). */
const MAX_LABEL_LENGTH = 64;

const isLabelStart = (c: number): boolean =>
  (c >= Code.LowerA && c <= Code.LowerZ) || (c >= Code.UpperA && c <= Code.UpperZ) || c === Code.Underscore;

const isLabelPart = (c: number): boolean =>
  isLabelStart(c) || (c >= Code.Digit0 && c <= Code.Digit9) || c === Code.Dot || c === Code.Dash;

const opensJson = (text: string): boolean => {
  const c = text.charCodeAt(0);
  return c === Code.LeftBrace || c === Code.LeftBracket;
};

/**
 * JSON body recognition with an optional name label (docs/design.md, "JSON bodies"):
 *
 *   {"name": "run", ...}          → body as is, no hint
 *   run\n{"command": "ls"}        → body `{"command": "ls"}`, hint `run`
 *   ^^^ label alone on the first line (≤ 64 identifier characters, then spaces/tabs, newline)
 *
 * Shared by the body ladder and the envelope reader.
 */
export function labelBody(body: string): LabelledBody {
  const t = body.trim();
  if (opensJson(t)) return { ok: true, body: t, nameHint: '' };
  if (!isLabelStart(t.charCodeAt(0))) return { ok: false };
  let end = 1;
  while (end < t.length && end < MAX_LABEL_LENGTH && isLabelPart(t.charCodeAt(end))) end++;
  let pos = end;
  while (t.charCodeAt(pos) === Code.Space || t.charCodeAt(pos) === Code.Tab) pos++;
  if (t.charCodeAt(pos) === Code.CarriageReturn) pos++;
  if (t.charCodeAt(pos) !== Code.LineFeed) return { ok: false };
  const rest = t.slice(pos + 1).trim();
  if (!opensJson(rest)) return { ok: false };
  return { ok: true, body: rest, nameHint: t.slice(0, end) };
}
