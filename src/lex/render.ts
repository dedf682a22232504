export type CanonicalPart =
  | string
  | { kind: 'call'; name: string; arguments?: unknown }
  | { kind: 'bare'; calls: { name: string; arguments?: unknown }[]; prose?: string }
  | { kind: 'prose' | 'answer' | 'done'; text: string };

/** `name(` + pretty JSON of `args` + `)`. */
export function renderCanonicalCall(name: string, args: unknown): string {
  return `${name}(${JSON.stringify(args ?? {}, null, 2)})`;
}

/** Render canonical parts joined by blank lines. */
export function renderParts(parts: readonly CanonicalPart[]): string {
  void parts;
  return '';
}

/** First `max` code points of `s`, with an ellipsis when cut. */
export function previewStr(s: string, max: number): string {
  void max;
  return s;
}
