/**
 * HTML entity decoding for argument values that arrived entity-escaped (`x =&gt; x`).
 * Table-driven and single pass: replacements are never re-scanned, so `&amp;lt;` becomes
 * `&lt;`, and decoding twice is not the same as decoding once.
 */
import { setOwn } from './json-object.js';

interface Entry {
  key: string;
  replacement: string;
}

/** Entries by the first code unit of their key, longest key first, then by key. */
type EntityTable = { byFirst: Map<number, Entry[]>; empty: Entry | undefined };

function compileTable(table: Readonly<Record<string, string>>): EntityTable {
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    throw new TypeError('decodeEntities: table must be an object mapping reference bodies to replacements');
  }
  const entries: Entry[] = [];
  for (const key of Object.keys(table)) {
    const replacement = table[key];
    if (typeof replacement !== 'string') {
      throw new TypeError(`decodeEntities: table[${JSON.stringify(key)}] must be a string replacement`);
    }
    entries.push({ key, replacement });
  }
  // Longest first so `lt;` wins over `lt`; ties by key so the caller's order never matters.
  entries.sort((a, b) => b.key.length - a.key.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const byFirst = new Map<number, Entry[]>();
  let empty: Entry | undefined;
  for (const entry of entries) {
    if (entry.key === '') {
      empty = entry;
      continue;
    }
    const first = entry.key.charCodeAt(0);
    const bucket = byFirst.get(first);
    if (bucket) bucket.push(entry);
    else byFirst.set(first, [entry]);
  }
  return { byFirst, empty };
}

/**
 *     a &amp;&amp; b  ->  a && b
 *       ^ `&`: try the keys starting with the next unit, longest first; no match keeps `&`
 */
function decodeString(s: string, table: EntityTable): string {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  let out = '';
  let chunkStart = 0;
  while (amp >= 0) {
    const bodyStart = amp + 1;
    let match = table.empty;
    const bucket = table.byFirst.get(s.charCodeAt(bodyStart));
    if (bucket) {
      for (const entry of bucket) {
        if (s.startsWith(entry.key, bodyStart)) {
          match = entry;
          break;
        }
      }
    }
    let next = bodyStart;
    if (match) {
      out += s.slice(chunkStart, amp) + match.replacement;
      next = bodyStart + match.key.length;
      chunkStart = next;
    }
    amp = s.indexOf('&', next);
  }
  return out + s.slice(chunkStart);
}

const NUMERIC_DIGITS_MAX = 7;

/**
 * The numeric character reference at `amp` (`&#39;`, `&#x27;`), as its character and where it
 * ends, or null: at most seven digits, a `;`, and a code point that is a character (no NUL, no
 * lone surrogate, nothing past U+10FFFF).
 *
 *     it&#x27;s
 *       ^ amp: `#`, then `x` for hex, digits, `;`
 */
function numericReferenceAt(s: string, amp: number): { char: string; end: number } | null {
  if (s.charCodeAt(amp + 1) !== 0x23) return null; // '#'
  let pos = amp + 2;
  const hex = s.charCodeAt(pos) === 0x78 || s.charCodeAt(pos) === 0x58; // 'x' | 'X'
  if (hex) pos++;
  const digitsAt = pos;
  let value = 0;
  while (pos < s.length && pos - digitsAt < NUMERIC_DIGITS_MAX) {
    const code = s.charCodeAt(pos);
    const digit =
      code >= 0x30 && code <= 0x39 ? code - 0x30 : hex && code >= 0x61 && code <= 0x66 ? code - 0x57 : hex && code >= 0x41 && code <= 0x46 ? code - 0x37 : -1;
    if (digit < 0) break;
    value = value * (hex ? 16 : 10) + digit;
    pos++;
  }
  if (pos === digitsAt || s.charCodeAt(pos) !== 0x3b) return null; // ';'
  if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return null;
  return { char: String.fromCodePoint(value), end: pos + 1 };
}

const COMPILED = new WeakMap<object, EntityTable>();

/**
 * `s` with XML character references decoded in one pass: the named ones of `table` and numeric
 * ones (`&#39;`, `&#x27;`), as XML-shaped markup escapes its text and attributes. Replacements
 * are never re-scanned (`&amp;#39;` becomes `&#39;`); a reference that does not read stays.
 */
export function decodeCharacterReferences(s: string, table: Readonly<Record<string, string>>): string {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  let compiled = COMPILED.get(table);
  if (compiled === undefined) {
    compiled = compileTable(table);
    COMPILED.set(table, compiled);
  }
  let out = '';
  let chunkStart = 0;
  while (amp >= 0) {
    const numeric = numericReferenceAt(s, amp);
    let next = amp + 1;
    if (numeric !== null) {
      out += s.slice(chunkStart, amp) + numeric.char;
      next = numeric.end;
      chunkStart = next;
    } else {
      const bucket = compiled.byFirst.get(s.charCodeAt(amp + 1));
      const match = bucket?.find((entry) => s.startsWith(entry.key, amp + 1));
      if (match !== undefined) {
        out += s.slice(chunkStart, amp) + match.replacement;
        next = amp + 1 + match.key.length;
        chunkStart = next;
      }
    }
    amp = s.indexOf('&', next);
  }
  return out + s.slice(chunkStart);
}

/**
 * A copy of `value` with entity references decoded in every reachable string: array items and
 * object values, at any depth (iteratively, so depth cannot overflow the stack; shared and
 * cyclic references are copied once). Object keys and non-string leaves are untouched.
 * `table` maps reference bodies without the `&` (e.g. `"lt;"`) to replacements.
 */
export function decodeEntities<T>(value: T, table: Readonly<Record<string, string>>): T {
  const compiled = compileTable(table);
  if (typeof value === 'string') return decodeString(value, compiled) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copies = new Map<object, object>();
  const pending: [source: object, target: object][] = [];
  const copyOf = (source: object): object => {
    let copy = copies.get(source);
    if (copy === undefined) {
      copy = Array.isArray(source) ? [] : {};
      copies.set(source, copy);
      pending.push([source, copy]);
    }
    return copy;
  };
  const convert = (child: unknown): unknown => {
    if (typeof child === 'string') return decodeString(child, compiled);
    if (typeof child === 'object' && child !== null) return copyOf(child);
    return child;
  };
  const root = copyOf(value);
  for (let job = pending.pop(); job !== undefined; job = pending.pop()) {
    const [source, target] = job;
    if (Array.isArray(source)) {
      const items = target as unknown[];
      for (const item of source) items.push(convert(item));
    } else {
      const record = source as Record<string, unknown>;
      for (const key of Object.keys(record)) setOwn(target as Record<string, unknown>, key, convert(record[key]));
    }
  }
  return root as T;
}
