/**
 * Name and argument policy (docs/design.md, "Names and aliases"). Every table is read from
 * `DIALECTS`; nothing here restates a spelling.
 *
 * Two layers:
 * - `normalizeCall`: what the composition itself applies to JSON tool objects — channel-marker
 *   stripping and one level of generic-wrapper unwrapping. It never renames a tool otherwise.
 * - `foldNameAlias`: the alias folding a caller may opt into for names the registry does not
 *   know (namespace prefixes, browser verbs, shell aliases, edit action verbs, and inference
 *   of a generic name from its arguments). Folding only ever lands on a registered name. This
 *   is the shared policy of `src/policy/names.ts`, the one the bare-call sniffer applies.
 */
import { DIALECTS } from '../../dialects/vocabulary.js';
import { foldAlias, type NameRewrite, type NameSet } from '../../policy/names.js';
import type { ComposeContext } from '../context.js';
import { isJsonObject } from './json.js';
import { jsonFields } from './json-fields.js';

export type { NameRewrite };

export interface NormalizedCall {
  name: string;
  /** As found; callers decide whether a non-object is an error. */
  arguments: unknown;
  /** Steps that changed the call, in the order they applied. */
  rewrites: NameRewrite[];
}

const GENERIC_WRAPPERS: ReadonlySet<string> = new Set(DIALECTS.GENERIC_WRAPPER_NAMES);

/**
 * Cuts a name at the first channel marker a Harmony-trained model leaked into it:
 * `run<|channel|>commentary` → `run`.
 */
export function stripChannelMarkers(name: string): string {
  let cut = name;
  for (const marker of DIALECTS.NAME_CHANNEL_MARKERS) {
    const at = cut.indexOf(marker);
    if (at >= 0) cut = cut.slice(0, at);
  }
  return cut.trim();
}

/**
 * One level of generic-wrapper unwrapping: `{"name": "tool", "args": {"name": "look", "args": {…}}}`
 * carries the real call in its arguments. Returns null when `name` is not a wrapper or the
 * arguments do not name an inner tool.
 */
export function unwrapGenericWrapper(name: string, args: unknown): { name: string; arguments: unknown } | null {
  if (!GENERIC_WRAPPERS.has(name) || !isJsonObject(args)) return null;
  const inner = jsonFields(args);
  return inner.name === '' ? null : { name: inner.name, arguments: inner.arguments };
}

/**
 * The composition's own normalisation of a JSON tool object's name and arguments
 * (channel markers, then the generic wrapper). With `foldAliases`, an unregistered result is
 * then offered to `foldNameAlias`.
 */
export function normalizeCall(
  name: string,
  args: unknown,
  ctx: Pick<ComposeContext, 'known'>,
  options: { foldAliases?: boolean } = {},
): NormalizedCall {
  const rewrites: NameRewrite[] = [];
  let current = stripChannelMarkers(name);
  if (current !== name.trim()) rewrites.push('channel-marker');
  let currentArgs = args;
  const unwrapped = unwrapGenericWrapper(current, currentArgs);
  if (unwrapped) {
    current = unwrapped.name;
    currentArgs = unwrapped.arguments;
    rewrites.push('generic-wrapper');
  }
  if (options.foldAliases === true) {
    const folded = foldNameAlias(current, currentArgs, ctx.known);
    if (folded.rewrite) {
      current = folded.name;
      currentArgs = folded.arguments;
      rewrites.push(folded.rewrite);
    }
  }
  return { name: current, arguments: currentArgs, rewrites };
}

export interface FoldedName {
  name: string;
  arguments: unknown;
  /** The step that folded the name, or null when the name was left alone. */
  rewrite: NameRewrite | null;
}

/**
 * Folds a name the registry does not know onto one it does, by the shared policy
 * (`src/policy/names.ts`). Registered names are never touched, arguments that are not an object
 * leave the name alone, and a fold whose target is unregistered does not happen.
 *
 * Order: channel markers, then a generic or marker-only name's wrapped call or inferred tool
 * (`intent: "read"` → `look`, a `command` key → `run`), then namespace prefix
 * (`functions.look`), browser namespace + verb (`repo_browser.open_file` → `look`), shell alias
 * (`bash({script})` → `run({command})`) and edit action verb (`replace_range({...})` →
 * `edit({..., action: "replace_range"})`).
 */
export function foldNameAlias(name: string, args: unknown, known: NameSet): FoldedName {
  const unchanged: FoldedName = { name, arguments: args, rewrite: null };
  if (known.has(name)) return unchanged;
  const record = args === undefined ? {} : isJsonObject(args) ? args : null;
  if (record === null) return unchanged;
  return foldAlias(name, record, known) ?? unchanged;
}
