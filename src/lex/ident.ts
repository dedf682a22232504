/** Length of the ASCII identifier at `from` (`[A-Za-z_$][A-Za-z0-9_$]*`), 0 when none. */
export function identLength(text: string, from = 0): number {
  void text;
  void from;
  return 0;
}
