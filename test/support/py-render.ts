/**
 * A test renderer of Python literals: JSON-like values written as a Python program would write
 * them, with a choice of spellings driven by a seed, so properties can check the reader reads
 * back every spelling. Only for tests.
 */

export interface PyStyle {
  /** Picks among spellings; tests pass a seeded generator. */
  readonly pick: (options: number) => number;
  /** LFM2 writes `true`/`false`/`null`. */
  readonly jsonConstants?: boolean;
}

function renderString(value: string, style: PyStyle): string {
  const quote = style.pick(2) === 0 ? "'" : '"';
  let out = quote;
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '\\') out += '\\\\';
    else if (char === quote) out += `\\${quote}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += style.pick(2) === 0 ? '\\t' : '\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code > 0x7f && style.pick(4) === 0) out += code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return out + quote;
}

function renderNumber(value: number): string {
  if (Object.is(value, -0)) return '-0.0';
  return String(value);
}

export function renderPy(value: unknown, style: PyStyle): string {
  if (value === null) return style.jsonConstants === true ? 'null' : 'None';
  if (value === true) return style.jsonConstants === true ? 'true' : 'True';
  if (value === false) return style.jsonConstants === true ? 'false' : 'False';
  if (typeof value === 'number') return renderNumber(value);
  if (typeof value === 'string') return renderString(value, style);
  if (Array.isArray(value)) {
    const items = value.map((item) => renderPy(item, style));
    if (style.pick(3) === 0) return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
    return `[${items.join(style.pick(2) === 0 ? ', ' : ',\n ')}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${renderString(k, style)}: ${renderPy(v, style)}`);
  return `{${entries.join(', ')}}`;
}

/** `name(k=v, …)` with keyword arguments (the keys must be identifiers). */
export function renderPyCall(name: string, args: Record<string, unknown>, style: PyStyle): string {
  return `${name}(${Object.entries(args)
    .map(([k, v]) => `${k}=${renderPy(v, style)}`)
    .join(', ')})`;
}

/** A deterministic pick function from a seed (mulberry32). */
export function seededPick(seed: number): (options: number) => number {
  let state = seed >>> 0;
  return (options) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % options) | 0;
  };
}
