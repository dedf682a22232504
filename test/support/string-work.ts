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
  try {
    fn();
  } finally {
    Object.assign(proto, saved);
  }
  return steps;
}

/** Work for input size n and 8n; linear code gives a ratio near 8. */
export function workRatio(build: (n: number) => string, run: (text: string) => unknown, n = 2000): number {
  const small = build(n);
  const large = build(8 * n);
  return countStringWork(() => run(large)) / countStringWork(() => run(small));
}
