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

/**
 * The source for `literals` (non-empty strings). A literal in `lineStart` matches only where a
 * newline or the text's start stands before it: it ends in a look-behind over itself that
 * asserts so before its first character. With `indentedStart`, spaces or tabs may stand between
 * the text's start and it (a whole response whose first line is indented); a window cut from the
 * middle of a text leaves it off, since its first characters are not a line's. A literal in
 * `beforeName` matches only where an identifier's first character (ASCII letter or `_`) follows it.
 */
export function literalTrieSource(literals: Iterable<string>, lineStart: ReadonlySet<string> = new Set(), beforeName: ReadonlySet<string> = new Set(), indentedStart = false): string {
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
      const before = indentedStart ? '(?:^[ \\t]*|\\n)' : '(?<![^\\n])';
      const atLine = lineStart.has(node.ends) ? `(?<=${before}${escapeRegExp(node.ends)})` : '';
      branches.push(beforeName.has(node.ends) ? `${atLine}(?=[A-Za-z_])` : atLine);
    }
    return branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
  };
  return sourceOf(root);
}
