export interface JsonStreamValue {
  value: unknown;
  start: number;
  end: number;
}
export interface JsonStreamResult {
  values: JsonStreamValue[];
  end: number;
  eof: boolean;
  error?: string;
}
/** Read consecutive top-level JSON values from the start of `text`. */
export function readJsonStream(text: string): JsonStreamResult {
  void text;
  return { values: [], end: 0, eof: false };
}
