/**
 * A RegExp source that matches any of a set of literals, shaped as a trie of their characters
 * (`<(?:\|(?:tool_call…)|…)|\[(?:TOOL_CALLS\]|…)|…`): at each position V8 tests one branch per
 * distinct next character instead of every literal in turn. At each node the longer
 * continuations come before the literal that ends there, so a match is the longest literal at
 * the earliest position, as a flat alternation sorted longest first would give.
 */

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface TrieNode {
  /** The literal ending here, if one does. */
  ends: string | null;
  readonly next: Map<string, TrieNode>;
}

/** Where some of the literals count (`literalTrieSource`). */
export interface LiteralPlaces {
  /** Only where a newline or the text's start stands before them. */
  readonly lineStart?: ReadonlySet<string>;
  /** Only where an identifier's first character (ASCII letter or `_`) follows them. */
  readonly beforeName?: ReadonlySet<string>;
  /** Only where a `[` or `{` follows them, after blanks (a marker that is a plain word, Phi-4's `functools`). */
  readonly beforeBody?: ReadonlySet<string>;
  /**
   * A `lineStart` literal may also stand after the text's start and spaces or tabs (a whole
   * response whose first line is indented); a window cut from the middle of a text leaves it
   * off, since its first characters are not a line's.
   */
  readonly indentedStart?: boolean;
  /** Only as the text's first visible characters (after blanks and line breaks alone). */
  readonly responseStart?: ReadonlySet<string>;
}

/**
 * The source for `literals` (non-empty strings). A literal with a place (`LiteralPlaces`) ends
 * in a look-behind over itself that asserts what stands before its first character, or a
 * look-ahead for what follows it.
 */
export function literalTrieSource(literals: Iterable<string>, places: LiteralPlaces = {}): string {
  const lineStart = places.lineStart ?? new Set<string>();
  const beforeName = places.beforeName ?? new Set<string>();
  const beforeBody = places.beforeBody ?? new Set<string>();
  const responseStart = places.responseStart ?? new Set<string>();
  const root: TrieNode = { ends: null, next: new Map() };
  for (const literal of literals) {
    if (literal === '') throw new TypeError('literalTrieSource: literals must be non-empty');
    let node = root;
    for (const unit of literal) {
      let child = node.next.get(unit);
      if (child === undefined) node.next.set(unit, (child = { ends: null, next: new Map() }));
      node = child;
    }
    node.ends = literal;
  }
  if (root.next.size === 0) return '(?!)';
  const sourceOf = (node: TrieNode): string => {
    const branches = [...node.next].map(([unit, child]) => escapeRegExp(unit) + sourceOf(child));
    if (node.ends !== null) {
      const before = places.indentedStart === true ? '(?:^[ \\t]*|\\n)' : '(?<![^\\n])';
      const atLine = responseStart.has(node.ends) ? `(?<=^\\s*${escapeRegExp(node.ends)})` : lineStart.has(node.ends) ? `(?<=${before}${escapeRegExp(node.ends)})` : '';
      branches.push(beforeName.has(node.ends) ? `${atLine}(?=[A-Za-z_])` : beforeBody.has(node.ends) ? `${atLine}(?=[ \\t]*[[{])` : atLine);
    }
    return branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
  };
  return sourceOf(root);
}
