/**
 * Check paths of the reference vectors: `calls[0].arguments.path`, `units.length`, `""` (root).
 *
 * A path is a chain of property names separated by `.` and list indexes in brackets. The last
 * segment `length` of a list or string is its length (the reference's `.len()`); on a plain
 * object it is an ordinary key, so an argument named `length` stays reachable.
 */

export type PathSegment = { key: string } | { index: number };

/** The outcome of following a path: `found` is false when some segment does not exist. */
export interface Resolved {
  found: boolean;
  value: unknown;
  /** The path prefix that resolved, for failure details. */
  reached: string;
}

export function parsePath(path: string): PathSegment[] {
  if (typeof path !== 'string') throw new TypeError('check.path must be a string');
  const segments: PathSegment[] = [];
  let pos = 0;
  while (pos < path.length) {
    const ch = path[pos];
    if (ch === '.') {
      pos += 1;
      continue;
    }
    if (ch === '[') {
      const close = path.indexOf(']', pos);
      const index = Number(path.slice(pos + 1, close));
      if (close < 0 || !Number.isInteger(index) || index < 0) {
        throw new TypeError(`check.path has a malformed index: ${JSON.stringify(path)}`);
      }
      segments.push({ index });
      pos = close + 1;
      continue;
    }
    // a name runs to the next `.` or `[`
    let end = pos;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end += 1;
    segments.push({ key: path.slice(pos, end) });
    pos = end;
  }
  return segments;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function resolvePath(root: unknown, path: string): Resolved {
  let value = root;
  let reached = '';
  for (const segment of parsePath(path)) {
    if ('index' in segment) {
      if (!Array.isArray(value) || segment.index >= value.length) {
        return { found: false, value: undefined, reached };
      }
      value = value[segment.index];
      reached += `[${segment.index}]`;
      continue;
    }
    const label = reached === '' ? segment.key : `${reached}.${segment.key}`;
    if (segment.key === 'length' && (Array.isArray(value) || typeof value === 'string')) {
      value = value.length;
    } else if (isPlainRecord(value) && Object.prototype.hasOwnProperty.call(value, segment.key)) {
      value = value[segment.key];
    } else {
      return { found: false, value: undefined, reached };
    }
    reached = label;
  }
  return { found: true, value, reached };
}
