/**
 * The gateway profile's admission policy, in one place: which names may become calls, in every
 * lane. The lanes consult `ctx.known` (built here) where they decide a name, and `admitCalls`
 * runs once at the boundary of `parseToolCalls` over every call any lane produced, so no call
 * whose name is not registered can leave, whichever lane credited it.
 *
 * - with a registry, only registered names are calls; a known namespace prefix
 *   (`functions.look`) is stripped when the rest is registered; no alias folding;
 * - with no registry, a call inside a grammar's own markers is a call whatever its name (the
 *   lanes' markers decide that), while the stray sniffer runs against no names;
 * - an unknown name is an error plus an `unknown_tool` drop; it never becomes prose.
 *
 * `harn` keeps the reference runtime's rules (implicit tools, alias folding) and never reaches
 * this module's boundary step.
 */
import type { ToolRegistry } from '../dialects/registry.js';
import type { NameSet } from '../policy/names.js';
import type { CallMarks } from './call-provenance.js';
import { renderCall } from './canonical.js';
import { admitName, registeredNames } from './field/admit.js';
import type { DroppedFragment, ToolCall } from './types.js';

function listNames(names: readonly string[]): string {
  return names.length === 0 ? 'none' : names.join(', ');
}

export const admissionMessages = {
  unknownTool: (name: string, registered: readonly string[]) =>
    `Unknown tool '${name}': no tool of that name is registered, so the call did not run. Registered tools: ${listNames(registered)}.`,
  unnamed: 'A tool call has no usable tool name, so it did not run.',
} as const;

/** The names the gateway's lanes treat as callable: never folded, prefixes allowed. */
class AdmittedNames implements NameSet {
  readonly folds = false;
  readonly #registry: ToolRegistry | null;

  constructor(registry: ToolRegistry | null) {
    this.#registry = registry;
  }

  has(name: string): boolean {
    return admitName(name, this.#registry, 'marked').ok;
  }
}

// perf: one name set per registry object (the service and the library's cache pass the same one).
const namesByRegistry = new WeakMap<ToolRegistry, AdmittedNames>();
const openNames = new AdmittedNames(null);

export function gatewayNames(registry: ToolRegistry | null): NameSet {
  if (registry === null) return openNames;
  let names = namesByRegistry.get(registry);
  if (names === undefined) {
    names = new AdmittedNames(registry);
    namesByRegistry.set(registry, names);
  }
  return names;
}

export interface Admitted {
  readonly calls: ToolCall[];
  /** The lane's call each of `calls` came from (the same object unless a prefix was stripped). */
  readonly originals: ToolCall[];
  /** The lane's calls refused here. */
  readonly refused: ToolCall[];
  readonly errors: string[];
  readonly dropped: DroppedFragment[];
  /** The canonical blocks of the refused calls, to take out of `canonical_text`. */
  readonly refusedBlocks: string[];
}

/**
 * The boundary step: every call keeps its place when its name is admitted (prefix stripped), or
 * becomes an error plus an `unknown_tool` drop of the text the model wrote for it (its
 * canonical rendering where the lane did not keep that text).
 */
export function admitCalls(calls: readonly ToolCall[], registry: ToolRegistry | null, marks: CallMarks): Admitted {
  const out: Admitted = { calls: [], originals: [], refused: [], errors: [], dropped: [], refusedBlocks: [] };
  for (const call of calls) {
    const admission = admitName(call.name, registry, 'marked');
    if (admission.ok) {
      out.calls.push(admission.name === call.name ? call : { ...call, name: admission.name });
      out.originals.push(call);
      continue;
    }
    const block = renderCall(call.name, call.arguments);
    out.errors.push(admission.why === 'empty' ? admissionMessages.unnamed : admissionMessages.unknownTool(admission.name, registeredNames(registry)));
    out.dropped.push({ text: marks.writtenText(call) ?? block, reason: 'unknown_tool' });
    out.refusedBlocks.push(block);
    out.refused.push(call);
  }
  return out;
}

/** The contract's leading form of every unknown-name error (docs/design.md, "Diagnostics"). */
const UNKNOWN_TOOL_PREFIX = "Unknown tool '";

/**
 * Gateway: a call block or markup refused for its name goes on the ledger as `unknown_tool`;
 * `harn` keeps the reference's reason.
 */
export function refusalReason<R extends string>(ctx: { readonly profile?: string }, error: string, fallback: R): R | 'unknown_tool' {
  return ctx.profile === 'gateway' && error.startsWith(UNKNOWN_TOOL_PREFIX) ? 'unknown_tool' : fallback;
}
