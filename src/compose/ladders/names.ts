/**
 * Name and argument policy (spec/composer.md section 4.11). Every table is read from
 * `DIALECTS`; nothing here restates a spelling.
 *
 * Two layers:
 * - `normalizeCall`: what the composition itself applies to JSON tool objects — channel-marker
 *   stripping and one level of generic-wrapper unwrapping. It never renames a tool otherwise.
 * - `foldNameAlias`: the alias folding a caller may opt into for names the registry does not
 *   know (namespace prefixes, browser verbs, shell aliases, edit action verbs, and inference
 *   of a generic name from its arguments). Folding only ever lands on a registered name.
 */
import { DIALECTS } from '../../dialects/vocabulary.js';
import type { ComposeContext } from '../context.js';
import { isJsonObject, setOwn } from './json.js';
import { jsonFields } from './json-fields.js';

/** Which policy step rewrote a call, for tests and logs. */
export type NameRewrite =
  | 'channel-marker'
  | 'generic-wrapper'
  | 'namespace-prefix'
  | 'browser-alias'
  | 'shell-alias'
  | 'edit-action-verb'
  | 'intent-inference'
  | 'command-inference';

export interface NormalizedCall {
  name: string;
  /** As found; callers decide whether a non-object is an error. */
  arguments: unknown;
  /** Steps that changed the call, in the order they applied. */
  rewrites: NameRewrite[];
}

/** The tool every shell alias folds to, and the one every edit action verb folds to. */
const SHELL_TOOL = 'run';
const EDIT_TOOL = 'edit';
/** Argument keys that carry a shell script and an edit action once folded. */
const COMMAND_KEY = 'command';
const ACTION_KEY = 'action';
const INTENT_KEY = 'intent';

const GENERIC_WRAPPERS: ReadonlySet<string> = new Set(DIALECTS.GENERIC_WRAPPER_NAMES);
const SHELL_ALIASES: ReadonlySet<string> = new Set(DIALECTS.SHELL_ALIAS_NAMES);
const EDIT_VERBS: ReadonlySet<string> = new Set(DIALECTS.EDIT_ACTION_VERBS);
const SHELL_BINARIES: ReadonlySet<string> = new Set(DIALECTS.SHELL_ARGV_BINARIES);
const SCRIPT_FLAGS: ReadonlySet<string> = new Set(DIALECTS.SHELL_ARGV_SCRIPT_FLAGS);

/** Own-key lookup in a vocabulary map (model text must never reach `Object.prototype`). */
function lookup(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

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
 * Folds a name the registry does not know onto one it does, when the vocabulary says how.
 * Registered names are never touched, and a fold whose target is unregistered does not happen.
 *
 * Order: namespace prefix (`functions.look`), browser namespace + verb
 * (`repo_browser.open_file` → `look`), shell alias (`bash({script})` → `run({command})`),
 * edit action verb (`replace_range({...})` → `edit({action: "replace_range", ...})`), and for
 * a generic or marker-only name, inference from the arguments (`intent: "read"` → `look`,
 * a `command` key → `run`).
 */
export function foldNameAlias(name: string, args: unknown, known: ReadonlySet<string>): FoldedName {
  const unchanged: FoldedName = { name, arguments: args, rewrite: null };
  if (known.has(name)) return unchanged;

  let bare = name;
  for (const prefix of DIALECTS.NAME_NAMESPACE_PREFIXES) {
    if (bare.startsWith(prefix)) {
      bare = bare.slice(prefix.length);
      if (known.has(bare)) return { name: bare, arguments: args, rewrite: 'namespace-prefix' };
      break;
    }
  }

  for (const prefix of DIALECTS.BROWSER_NAMESPACE_PREFIXES) {
    if (!bare.startsWith(prefix)) continue;
    const verb = bare.slice(prefix.length);
    const target = lookup(DIALECTS.BROWSER_VERB_ALIASES, verb) ?? verb;
    if (known.has(target)) return { name: target, arguments: args, rewrite: 'browser-alias' };
    break;
  }

  if (SHELL_ALIASES.has(bare) && known.has(SHELL_TOOL)) {
    return { name: SHELL_TOOL, arguments: shellArguments(args), rewrite: 'shell-alias' };
  }

  if (EDIT_VERBS.has(bare) && known.has(EDIT_TOOL) && (args === undefined || isJsonObject(args))) {
    const folded = withDefault(args ?? {}, ACTION_KEY, bare);
    return { name: EDIT_TOOL, arguments: folded, rewrite: 'edit-action-verb' };
  }

  if ((GENERIC_WRAPPERS.has(bare) || isMarkerOnlyName(bare)) && isJsonObject(args)) {
    const intent = Object.hasOwn(args, INTENT_KEY) ? args[INTENT_KEY] : undefined;
    const byIntent = typeof intent === 'string' ? lookup(DIALECTS.INTENT_TOOL_ALIASES, intent) : undefined;
    if (byIntent !== undefined && known.has(byIntent)) {
      return { name: byIntent, arguments: args, rewrite: 'intent-inference' };
    }
    if (known.has(SHELL_TOOL) && DIALECTS.COMMAND_SHAPE_KEYS.some((key) => Object.hasOwn(args, key))) {
      return { name: SHELL_TOOL, arguments: args, rewrite: 'command-inference' };
    }
  }
  return unchanged;
}

/** A name that is only provider framing (`<|constrain|>json`): it names no tool. */
function isMarkerOnlyName(name: string): boolean {
  return name.startsWith(DIALECTS.HARMONY_FRAME_PREFIX);
}

/**
 * Arguments of a shell alias, reshaped for the shell tool: the first of `command`, `script`,
 * `cmd` becomes `command`; an argv of the form `["bash", "-lc", "<script>"]` becomes the script.
 */
function shellArguments(args: unknown): unknown {
  if (!isJsonObject(args)) return args;
  const key = DIALECTS.COMMAND_ARG_ALIASES.find((alias) => Object.hasOwn(args, alias));
  if (key === undefined) return args;
  const out: Record<string, unknown> = {};
  for (const other of Object.keys(args)) {
    if (other !== key && other !== COMMAND_KEY) setOwn(out, other, args[other]);
  }
  setOwn(out, COMMAND_KEY, scriptOfArgv(args[key]));
  return out;
}

function scriptOfArgv(value: unknown): unknown {
  if (!Array.isArray(value) || value.length !== 3) return value;
  const [binary, flag, script] = value as unknown[];
  if (typeof binary === 'string' && typeof flag === 'string' && typeof script === 'string'
    && SHELL_BINARIES.has(binary) && SCRIPT_FLAGS.has(flag)) return script;
  return value;
}

/** A copy of `args` with `key` set to `value` unless the model already gave one. */
function withDefault(args: Readonly<Record<string, unknown>>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Object.hasOwn(args, key)) setOwn(out, key, value);
  for (const other of Object.keys(args)) setOwn(out, other, args[other]);
  return out;
}
