import type { ToolRegistry } from '../dialects/registry.js';
import { normalizeTools, registryNames } from '../dialects/registry.js';
import type { TraceEntry } from './funnel.js';

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
  /** When the caller asked for a trace: the tagged walks of this parse append their entries here. */
  readonly trace?: TraceEntry[] | null;
  /** `harn` reads as the reference runtime does; `gateway` also reads the field grammars. */
  readonly profile?: Profile;
  /** The prompt opened the reasoning block (gateway): text up to the first close is reasoning. */
  readonly reasoningStarted?: boolean;
}

/** The parse profiles; the first is the default. */
export const PROFILES = ['harn', 'gateway'] as const;
export type Profile = (typeof PROFILES)[number];

interface RegistryFacts {
  readonly known: ReadonlySet<string>;
  readonly knownList: readonly string[];
}

// perf: a normalised registry is frozen, and the service passes the same one on every request,
// so its name set is built once per registry object (and once for "no registry").
const factsByRegistry = new WeakMap<ToolRegistry, RegistryFacts>();
let factsWithoutRegistry: RegistryFacts | null = null;

function registryFacts(registry: ToolRegistry | null): RegistryFacts {
  if (registry === null) return (factsWithoutRegistry ??= factsOf(null));
  let facts = factsByRegistry.get(registry);
  if (facts === undefined) {
    facts = factsOf(registry);
    factsByRegistry.set(registry, facts);
  }
  return facts;
}

function factsOf(registry: ToolRegistry | null): RegistryFacts {
  const knownList = registryNames(registry);
  return { known: new Set(knownList), knownList };
}

export function composeContext(
  tools: unknown,
  toolFormat: string,
  trace: TraceEntry[] | null = null,
  profile: Profile = 'harn',
  reasoningStarted = false,
): ComposeContext {
  const registry = normalizeTools(tools);
  const { known, knownList } = registryFacts(registry);
  return { registry, known, knownList, toolFormat, trace, profile, reasoningStarted };
}
