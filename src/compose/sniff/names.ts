/**
 * The sniffer's name policy: which names dispatch (registry names plus the implicit ones),
 * and what a model-facing "unknown tool" message says. Alias folding lives in
 * `src/policy/names.ts`.
 */
import type { ToolRegistry } from '../../dialects/registry.js';
import { perRegistry, registryNames } from '../../dialects/registry.js';

export interface KnownNames {
  readonly has: (name: string) => boolean;
  /** `false` turns alias folding off (the gateway profile); absent means folding applies. */
  readonly folds?: boolean;
  /**
   * `true` (the gateway profile): a native JSON payload inside prose is a look-alike, a call
   * only when its name is registered (an unregistered one stays prose, with no error), and an
   * item whose `parameters` is a JSON Schema describes a tool rather than calling it.
   */
  readonly lookAlikes?: boolean;
  /** Sorted by code unit, as `registry_names` returns them. */
  readonly sorted: readonly string[];
}

function project(sorted: readonly string[]): KnownNames {
  const set = new Set(sorted);
  return { has: (name) => set.has(name), sorted };
}

const projections = perRegistry((registry) => project(registryNames(registry)));

/** One projection per registry, shared by every sniff over it. */
export function knownNamesOf(registry: ToolRegistry | null): KnownNames {
  return projections(registry);
}

/** Names a model often writes as its own source or test code, not as a tool call. */
const SOURCE_CODE_NAMES = new Set([
  'it', 'test', 'describe', 'expect', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'suite',
  'context', 'assert', 'assertEquals', 'assertEqual', 'assertTrue', 'assertFalse', 'assertThat',
  'require', 'console', 'print', 'println', 'printf', 'fmt', 'func', 'function', 'return', 'if',
  'for', 'while', 'class', 'def',
]);

/** camelCase test helpers: `assertServiceCount`, `expectOk`, `mockClock`, ... */
const TEST_HELPER_PREFIXES = ['assert', 'expect', 'check', 'verify', 'should', 'mock'];

function looksLikeSourceCode(name: string): boolean {
  if (SOURCE_CODE_NAMES.has(name)) return true;
  for (const prefix of TEST_HELPER_PREFIXES) {
    if (name.length > prefix.length && name.startsWith(prefix)) {
      const next = name.charCodeAt(prefix.length);
      if (next >= 0x41 && next <= 0x5a) return true;
    }
  }
  return false;
}

/** Frequent misses whose fix is a specific call of a registered tool. */
const ALIAS_HINTS: readonly { names: readonly string[]; tool: string; hint: string }[] = [
  { names: ['read', 'read_file', 'readFile', 'cat', 'open'], tool: 'look', hint: 'To read a file, call `look({ intent: "read", ... })`.' },
  { names: ['write', 'write_file', 'writeFile', 'create_file'], tool: 'edit', hint: 'To write a file, call `edit({ action: "create", ... })`.' },
  { names: ['apply_patch', 'str_replace', 'str_replace_editor', 'edit_file', 'editFile'], tool: 'edit', hint: 'To change a file, call `edit({ ... })`.' },
  { names: ['list', 'ls', 'list_files'], tool: 'look', hint: 'To list files, call `look({ intent: "list", ... })`.' },
  { names: ['search', 'grep', 'find'], tool: 'look', hint: 'To search the code, call `look({ intent: "search", ... })`.' },
];

/** Longest tool list a message spells out before summarising the rest. */
const LISTED_NAMES_CAP = 60;

function renderNameList(sorted: readonly string[]): string {
  if (sorted.length <= LISTED_NAMES_CAP) return sorted.join(', ');
  return `${sorted.slice(0, LISTED_NAMES_CAP).join(', ')}, …and ${sorted.length - LISTED_NAMES_CAP} more`;
}

/**
 * Feedback for `name({ ... })` when `name` is not a tool: a close-miss suggestion first, then
 * a hint for a well-known alias, then the "this is source code" explanation, always ending
 * with the sorted list of tool names.
 */
export function unknownToolFeedback(name: string, known: KnownNames): string {
  const available = `Available tools: [${renderNameList(known.sorted)}].`;
  const suggestion = closestName(name, known.sorted);
  if (suggestion !== null) return `Unknown tool '${name}'. Did you mean '${suggestion}'? ${available}`;
  const alias = ALIAS_HINTS.find((entry) => entry.names.includes(name) && known.has(entry.tool));
  if (alias !== undefined) return `Unknown tool '${name}'. ${alias.hint} ${available}`;
  if (looksLikeSourceCode(name)) {
    return (
      `Unknown tool '${name}': \`${name}(...)\` reads as source code rather than a tool call. ` +
      'File content belongs in a heredoc or a string `content` value, e.g. ' +
      '`edit({ action: "create", path: ..., content: <<EOF ... EOF })`. ' +
      available
    );
  }
  return `Unknown tool '${name}'. ${available}`;
}

/** Edits allowed for a suggestion, by the length of the misspelt name. */
function maxSuggestionDistance(length: number): number {
  if (length <= 2) return 1;
  if (length <= 5) return 2;
  return 3;
}

/**
 * The candidate nearest to `name` by Levenshtein distance within the allowance; ties go to the
 * closer length, then to the smaller name. Internal names (`__x`) are never suggested.
 */
export function closestName(name: string, candidates: readonly string[]): string | null {
  const limit = maxSuggestionDistance(name.length);
  let best: string | null = null;
  let bestDistance = Infinity;
  let bestLengthGap = Infinity;
  for (const candidate of candidates) {
    if (candidate === name || candidate.startsWith('__')) continue;
    const lengthGap = Math.abs(candidate.length - name.length);
    // perf: the distance is at least the length gap, so far-off names cost nothing.
    if (lengthGap > limit) continue;
    const distance = levenshtein(name, candidate, limit);
    if (distance > limit) continue;
    const better =
      distance < bestDistance ||
      (distance === bestDistance && (lengthGap < bestLengthGap || (lengthGap === bestLengthGap && best !== null && candidate < best)));
    if (better) {
      best = candidate;
      bestDistance = distance;
      bestLengthGap = lengthGap;
    }
  }
  return best;
}

/** Edit distance over code points; anything above `cap` is reported as `cap + 1`. */
function levenshtein(a: string, b: string, cap: number): number {
  const left = Array.from(a);
  const right = Array.from(b);
  let previous = Array.from({ length: right.length + 1 }, (_, j) => j);
  let current = new Array<number>(right.length + 1).fill(0);
  for (let i = 1; i <= left.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > cap) return cap + 1;
    [previous, current] = [current, previous];
  }
  return previous[right.length] ?? cap + 1;
}
