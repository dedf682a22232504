/**
 * Line and column of an offset, for messages and test failures only (never on the hot path):
 * offsets are what units and diagnostics carry, positions are computed when a human asks.
 */

export interface LineCol {
  /** 1-based line number. */
  readonly line: number;
  /** 1-based column, in UTF-16 code units from the start of the line. */
  readonly column: number;
}

/** Line and column of `offset` in `text` (lines end at LF; a CR is an ordinary column). */
export function lineCol(text: string, offset: number): LineCol {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  if (!Number.isInteger(offset) || offset < 0 || offset > text.length) {
    throw new TypeError(`offset must be an integer between 0 and ${text.length}; got ${String(offset)}`);
  }
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
