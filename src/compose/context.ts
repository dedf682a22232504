import type { ToolRegistry } from '../dialects/registry.js';
import { normalizeTools, registryNames } from '../dialects/registry.js';

/**
 * What every composer function needs to know about the turn being parsed. Built once per
 * `parseToolCalls` call at the boundary; everything downstream trusts it.
 */
export interface ComposeContext {
  /** The normalised registry, or null when the caller passed none. */
  readonly registry: ToolRegistry | null;
  /** `registry_names`: registry names plus the implicit names, as a set for lookups. */
  readonly known: ReadonlySet<string>;
  /** The same names, sorted, as the scanner's `known_tools` wants them. */
  readonly knownList: readonly string[];
  /** The taught grammar: `text`, `json`, `native`, `adaptive` or `""` (used for routing and message wording). */
  readonly toolFormat: string;
}

export function composeContext(tools: unknown, toolFormat: string): ComposeContext {
  const registry = normalizeTools(tools);
  const knownList = registryNames(registry);
  return { registry, known: new Set(knownList), knownList, toolFormat };
}
