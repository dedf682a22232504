/**
 * Heredoc grammar (`<<TAG ... TAG`), the single authority shared by the scanner, thinking
 * stripping, the call-block span walk and the TS value parser.
 */

/** Why a `<<TAG` opener did not yield a body. `MissingTag` never appears: that case is `null`. */
export type HeredocFailure = 'MissingNewline' | 'InvalidCount' | 'Unterminated';

/**
 * Result of {@link scanHeredoc}. Offsets are UTF-16 indexes into the scanned source.
 * - ok: the body is `src.slice(contentStart, contentEnd)`; `end` is just past the closing tag
 *   (what follows the tag on the close line is left to the caller). `escaped` means the model
 *   wrote literal `\n` separators: decode the body with {@link unescapeHeredocBody}.
 * - not ok: `reason` says why; `tag` is the tag that was read.
 */
export type HeredocScan =
  | { ok: true; tag: string; contentStart: number; contentEnd: number; end: number; escaped: boolean }
  | { ok: false; tag: string; reason: HeredocFailure };

/** Scan a heredoc whose `<<` starts at `start`; `null` when there is no tag (not a heredoc). */
export function scanHeredoc(src: string, start: number): HeredocScan | null {
  void src;
  void start;
  return null;
}

/** Decode an escaped-form heredoc body. */
export function unescapeHeredocBody(raw: string): string {
  return raw;
}
