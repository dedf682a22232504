/** Index just past the quoted span starting at `start`, or -1 when unterminated. */
export function skipStringSpan(src: string, start: number): number {
  void src;
  void start;
  return -1;
}
