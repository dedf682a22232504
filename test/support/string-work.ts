/**
 * Work counter for linearity tests: while `fn` runs, every `charCodeAt`/`codePointAt` on any
 * string counts one step, and the native searches (`indexOf`, `lastIndexOf`, `startsWith`)
 * count the characters they can examine. Comparing the count for inputs of size n and 8n tells
 * linear (ratio near 8) from quadratic (near 64) without reading a clock.
 * Vitest runs each test file in its own process, so the temporary patch cannot leak elsewhere.
 */
export function countStringWork(fn: () => unknown): number {
  const proto = String.prototype;
  const saved = {
    charCodeAt: proto.charCodeAt,
    codePointAt: proto.codePointAt,
    indexOf: proto.indexOf,
    lastIndexOf: proto.lastIndexOf,
    startsWith: proto.startsWith,
  };
  let steps = 0;
  proto.charCodeAt = function (this: string, index: number) {
    steps++;
    return saved.charCodeAt.call(this, index);
  };
  proto.codePointAt = function (this: string, index: number) {
    steps++;
    return saved.codePointAt.call(this, index);
  };
  proto.indexOf = function (this: string, search: string, position?: number) {
    const found = saved.indexOf.call(this, search, position);
    steps += (found < 0 ? this.length : found + search.length) - (position ?? 0) + 1;
    return found;
  };
  proto.lastIndexOf = function (this: string, search: string, position?: number) {
    const found = saved.lastIndexOf.call(this, search, position);
    steps += (position ?? this.length) - (found < 0 ? 0 : found) + 1;
    return found;
  };
  proto.startsWith = function (this: string, search: string, position?: number) {
    steps += search.length + 1;
    return saved.startsWith.call(this, search, position);
  };
  restoring(proto, saved, fn);
  return steps;
}

/** Runs `fn`, then puts the `saved` members back on `target` even when `fn` throws. */
function restoring(target: object, saved: object, fn: () => unknown): void {
  try {
    fn();
  } finally {
    Object.assign(target, saved);
  }
}

/** Work for input size n and 8n; linear code gives a ratio near 8. */
export function workRatio(build: (n: number) => string, run: (text: string) => unknown, n = 2000): number {
  const small = build(n);
  const large = build(8 * n);
  return countStringWork(() => run(large)) / countStringWork(() => run(small));
}

/**
 * The companion counter for copies and searches a rescan would show up in (`includes`, `trim*`,
 * `toLowerCase`, `split`, array `join`, and one step per `slice`), used beside
 * `countStringWork` by whole-parse linearity tests.
 */
export function countCopiesAndSearches(fn: () => unknown): number {
  const strings = String.prototype;
  const arrays = Array.prototype;
  const saved = {
    includes: strings.includes,
    slice: strings.slice,
    trim: strings.trim,
    trimStart: strings.trimStart,
    trimEnd: strings.trimEnd,
    toLowerCase: strings.toLowerCase,
    split: strings.split,
    join: arrays.join,
  };
  let steps = 0;
  strings.includes = function (this: string, search: string, position?: number) {
    steps += this.length - (position ?? 0) + 1;
    return saved.includes.call(this, search, position);
  };
  // A slice shares its parent's characters (V8 makes a sliced string, no copy); what is then
  // read from it is counted by the read counter, so a slice itself costs one step.
  strings.slice = function (this: string, start?: number, end?: number) {
    steps += 1;
    return saved.slice.call(this, start, end);
  };
  for (const name of ['trim', 'trimStart', 'trimEnd'] as const) {
    const original = saved[name];
    strings[name] = function (this: string) {
      const out = original.call(this);
      steps += this.length - out.length + 1;
      return out;
    };
  }
  strings.toLowerCase = function (this: string) {
    steps += this.length + 1;
    return saved.toLowerCase.call(this);
  };
  strings.split = function (this: string, separator: string | RegExp, limit?: number) {
    steps += this.length + 1;
    return (saved.split as (this: string, separator: string | RegExp, limit?: number) => string[]).call(this, separator, limit);
  } as typeof saved.split;
  arrays.join = function (this: unknown[], separator?: string) {
    const out = saved.join.call(this, separator);
    steps += out.length + this.length + 1;
    return out;
  };
  const { join, ...stringMembers } = saved;
  restoring(arrays, { join }, () => restoring(strings, stringMembers, fn));
  return steps;
}
