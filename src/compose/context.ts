import type { ToolRegistry } from '../dialects/registry.js';
import { normalizeTools, perRegistry, registryNames } from '../dialects/registry.js';
import { knownNamesOf, type KnownNames } from './sniff/names.js';
import type { NameSet } from '../policy/names.js';
import { gatewayNames } from './admission.js';
import { registeredNames } from './field/admit.js';
import type { TraceEntry } from './funnel.js';
import { CallMarks } from './call-provenance.js';

/**
 * What every composer function needs to know about the turn being parsed. Built once per
 * `parseToolCalls` call at the boundary; everything downstream trusts it.
 */
export interface ComposeContext {
  /** The normalised registry, or null when the caller passed none. */
  readonly registry: ToolRegistry | null;
  /**
   * The names a lane may turn into a call. `harn`: `registry_names` (registry names plus the
   * implicit names), with alias folding. `gateway`: the admission policy (`admission.ts`).
   */
  readonly known: NameSet;
  /** The names the scanner's `known_tools` and "Available tools" messages list, sorted. */
  readonly knownList: readonly string[];
  /** The taught grammar: `text`, `json`, `native`, `adaptive` or `""` (used for routing and message wording). */
  readonly toolFormat: string;
  /** When the caller asked for a trace: the tagged walks of this parse append their entries here. */
  readonly trace?: TraceEntry[] | null;
  /** `gateway` (the default) applies the admission policy and reads the field grammars; `harn` reads as the reference runtime does. */
  readonly profile?: Profile;
  /** Whether the prompt opened the reasoning block (gateway); unset when the caller did not say. */
  readonly reasoningStarted?: boolean;
  /**
   * The names the stray sniffer runs against: `harn` the registry plus the implicit names,
   * `gateway` the registered names only, unfolded. Absent means the `harn` set.
   */
  readonly sniffNames?: KnownNames;
  /** What this parse's lanes noted beside the calls and violations they made (call-provenance.ts). */
  readonly marks: CallMarks;
}

/** The `tool_format` values a route may name (any other string reads the tagged lane, as the reference does). */
export const TOOL_FORMATS = ['text', 'json', 'native', 'adaptive', ''] as const;

/** The parse profiles; the first is the default. */
export const PROFILES = ['gateway', 'harn'] as const;
export type Profile = (typeof PROFILES)[number];

interface RegistryFacts {
  readonly known: NameSet;
  readonly knownList: readonly string[];
  readonly sniffNames: KnownNames;
}

// perf: the name sets are built once per registry object and profile (and once for "no registry").
const factsByProfile: Record<Profile, (registry: ToolRegistry | null) => RegistryFacts> = {
  gateway: perRegistry((registry) => factsOf(registry, 'gateway')),
  harn: perRegistry((registry) => factsOf(registry, 'harn')),
};

function factsOf(registry: ToolRegistry | null, profile: Profile): RegistryFacts {
  if (profile === 'harn') {
    const knownList = registryNames(registry);
    return { known: new Set(knownList), knownList, sniffNames: knownNamesOf(registry) };
  }
  const knownList = [...registeredNames(registry)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const registered = new Set(knownList);
  return { known: gatewayNames(registry), knownList, sniffNames: { has: (name) => registered.has(name), sorted: knownList, folds: false, lookAlikes: true } };
}

export function composeContext(
  tools: unknown,
  toolFormat: string,
  trace: TraceEntry[] | null = null,
  profile: Profile = 'gateway',
  reasoningStarted?: boolean,
): ComposeContext {
  const registry = normalizeTools(tools);
  const { known, knownList, sniffNames } = factsByProfile[profile](registry);
  return { registry, known, knownList, toolFormat, trace, profile, sniffNames, reasoningStarted, marks: new CallMarks() };
}
