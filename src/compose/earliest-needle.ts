/**
 * The earliest start of any of several needles at or after a cursor that moves forward through
 * one text (the entry ladder's search for `<tool_call>` and the alternate envelope openers).
 *
 * Needles are grouped by first character and each group is searched by its longest common
 * prefix (`<tool` for `<tool_calls>`, `<tool_code>`, `<tool_use>`, `<tool>`), so the text is
 * swept once per group instead of once per needle. Each group remembers its last answer: when
 * nothing matched in [from, found), a later query from inside that range has the same answer,
 * and a forward-moving cursor sweeps every character at most once per group.
 */
/** The needles' characters after their group's prefix, as a tree: one walk tells whether any starts here. */
interface TailNode {
  /** A needle ends at this node. */
  end: boolean;
  readonly next: Map<number, TailNode>;
  /** The one needle below this node, when only one is: the walk ends in one startsWith. */
  sole: string | null;
  count: number;
}

/** A group of needles sharing a first character, searched by their common prefix. */
interface GroupSpec {
  readonly prefix: string;
  readonly needles: readonly string[];
  /** For a group of many needles, their tails after the prefix (else null: a startsWith each). */
  readonly tails: TailNode | null;
}

// perf: a startsWith costs about 7 ns whether or not it fails at once, so at each hit of a
// shared prefix like '<' (62 of the call-markup literals start with it) the needle loop cost
// 0.45 µs; one walk of the tail tree costs about 0.07 µs. Small groups keep the loop, which is
// cheaper for a few needles.
const TREE_FROM = 6;

interface Group extends GroupSpec {
  /** The last query's cursor (-1 before the first) and its answer (-1 for none). */
  from: number;
  found: number;
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? '';
  for (const word of words) {
    let k = 0;
    while (k < prefix.length && k < word.length && prefix.charCodeAt(k) === word.charCodeAt(k)) k++;
    prefix = prefix.slice(0, k);
  }
  return prefix;
}

function groupsOf(needles: readonly string[]): readonly GroupSpec[] {
  const byFirst = new Map<string, string[]>();
  for (const needle of needles) {
    if (needle === '') throw new TypeError('EarliestNeedle: needles must be non-empty');
    const list = byFirst.get(needle[0]!);
    if (list) list.push(needle);
    else byFirst.set(needle[0]!, [needle]);
  }
  return [...byFirst.values()].map((group) => {
    const prefix = commonPrefix(group);
    return { prefix, needles: group, tails: group.length >= TREE_FROM ? tailsOf(group, prefix.length) : null };
  });
}

function tailsOf(needles: readonly string[], skip: number): TailNode {
  const root: TailNode = { end: false, next: new Map(), sole: null, count: 0 };
  for (const needle of needles) {
    let node = root;
    node.count++;
    node.sole = node.count === 1 ? needle : null;
    for (let k = skip; k < needle.length; k++) {
      const code = needle.charCodeAt(k);
      let child = node.next.get(code);
      if (child === undefined) {
        child = { end: false, next: new Map(), sole: null, count: 0 };
        node.next.set(code, child);
      }
      node = child;
      node.count++;
      node.sole = node.count === 1 ? needle : null;
    }
    node.end = true;
  }
  return root;
}

/**
 * Whether some needle starts at `start`, its tail at `at` (the walk stops at the first needle
 * that ends, or hands the one needle left to startsWith).
 */
function tailMatches(text: string, start: number, at: number, root: TailNode): boolean {
  let node = root;
  for (let k = at; !node.end; k++) {
    if (node.sole !== null) return text.startsWith(node.sole, start);
    if (k >= text.length) return false;
    const child = node.next.get(text.charCodeAt(k));
    if (child === undefined) return false;
    node = child;
  }
  return true;
}

// perf: the grouping depends on the needle list only, so it is built once per list object
// (the lanes pass module-level arrays) instead of once per search object: the tagged lane's
// per-piece setup, which the field lane pays for every piece of prose between its regions,
// went from 3.9 µs to 2.6 µs for a one-line piece, together with the plain loop in
// lanes/envelope.ts (EarliestNeedle's constructor was 23 % of it; 2 runs each way).
const compiled = new WeakMap<readonly string[], readonly GroupSpec[]>();

function specsOf(needles: readonly string[]): readonly GroupSpec[] {
  let specs = compiled.get(needles);
  if (specs === undefined) {
    specs = groupsOf(needles);
    compiled.set(needles, specs);
  }
  return specs;
}

/** Where the first needle of `group` starting at or after `from` stands, or -1. */
function searchGroup(text: string, group: GroupSpec, from: number): number {
  const tails = group.tails;
  const skip = group.prefix.length;
  for (let at = text.indexOf(group.prefix, from); at >= 0; at = text.indexOf(group.prefix, at + 1)) {
    if (tails !== null) {
      if (tailMatches(text, at, at + skip, tails)) return at;
    } else {
      const needles = group.needles;
      // Indexed: the needle lists are often frozen vocabulary (see field/cursor.ts `matchAt`).
      for (let i = 0; i < needles.length; i++) if (text.startsWith(needles[i]!, at)) return at;
    }
  }
  return -1;
}

/**
 * What a fresh `EarliestNeedle(text, needles)` answers to `earliest(from)`, without making it:
 * for a text asked once, where the object's memo would never serve (a value's own window, see
 * `FieldScan.acceptedBefore`).
 */
export function earliestOnce(text: string, needles: readonly string[], from: number): number {
  let best = -1;
  const specs = specsOf(needles);
  for (let i = 0; i < specs.length; i++) {
    const found = searchGroup(text, specs[i]!, from);
    if (found >= 0 && (best < 0 || found < best)) best = found;
  }
  return best;
}

export class EarliestNeedle {
  readonly #text: string;
  readonly #groups: Group[];

  /** Pass the same `needles` array object for every text: its grouping is kept with it. */
  constructor(text: string, needles: readonly string[]) {
    this.#text = text;
    this.#groups = specsOf(needles).map((spec) => ({ prefix: spec.prefix, needles: spec.needles, tails: spec.tails, from: -1, found: -1 }));
  }

  /** The first index `>= from` where some needle starts, or -1. */
  earliest(from: number): number {
    let best = -1;
    const groups = this.#groups;
    for (let i = 0; i < groups.length; i++) {
      const group = groups[i]!;
      const remembered = group.from !== -1 && from >= group.from && (group.found === -1 || from <= group.found);
      if (!remembered) {
        group.found = this.#search(group, from);
        group.from = from;
      }
      if (group.found >= 0 && (best < 0 || group.found < best)) best = group.found;
    }
    return best;
  }

  #search(group: Group, from: number): number {
    return searchGroup(this.#text, group, from);
  }
}
