/**
 * The one name/alias policy: how a tool name a model borrowed from another harness folds onto a
 * registered tool. The bare-call sniffer (`src/compose/sniff`) applies it to unregistered names, and
 * the ladders' `foldNameAlias` (`src/compose/ladders/names.ts`) exposes it to the composition.
 * Every spelling comes from `DIALECTS`. The policy sits beside `src/compose`, below it: the
 * composer imports it, it never imports the composer.
 *
 *   bash({ script: "zig build" })          -> run({ command: "zig build" })
 *   replace_range({ path, ... })           -> edit({ path, ..., action: "replace_range" })
 *   tool.call {name: "look", args: {...}}  -> look({...})
 *   functions.look / repo_browser.open_file -> look
 *
 * A fold only ever lands on a registered name, and a registered name is never folded.
 */
import { DIALECTS } from '../dialects/vocabulary.js';
import { isPlainRecord, setOwn } from '../lex/json-object.js';
import { readJsonCapped } from '../lex/json-read.js';

/** Which policy step folded a name, for tests and logs. */
export type NameRewrite =
  | 'channel-marker'
  | 'generic-wrapper'
  | 'namespace-prefix'
  | 'browser-alias'
  | 'shell-alias'
  | 'edit-action-verb'
  | 'intent-inference'
  | 'command-inference';

export interface FoldedCall {
  name: string;
  arguments: Record<string, unknown>;
  /** The step that decided the new name. */
  rewrite: NameRewrite;
}

/** Any set of dispatchable names (the sniffer's projection, the composition's `Set`). */
export interface NameSet {
  has(name: string): boolean;
  /** `false` turns alias folding off (the gateway profile); absent means folding applies. */
  readonly folds?: boolean;
}

/** The tool every shell alias folds to, and the one every edit action verb folds to. */
const SHELL_TOOL = 'run';
const EDIT_TOOL = 'edit';
const COMMAND_KEY = 'command';
const ACTION_KEY = 'action';
const INTENT_KEY = 'intent';
/**
 * The keys naming the wrapped tool inside a generic wrapper's arguments. The reference sniffer
 * reads these two only, not `tool_name` from `DIALECTS.NAME_ALIASES`.
 */
const WRAPPED_NAME_KEYS = ['name', 'tool'] as const;

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
 * True when an unregistered `name` written as `name({ ... })` could fold onto a registered tool,
 * so its arguments are worth parsing.
 */
export function mayFold(name: string, known: NameSet): boolean {
  if (known.folds === false) return false;
  if (GENERIC_WRAPPERS.has(name)) return true;
  if (SHELL_ALIASES.has(name)) return known.has(SHELL_TOOL);
  if (EDIT_VERBS.has(name)) return known.has(EDIT_TOOL);
  return false;
}

/** The registered call an unregistered `(name, args)` stands for, or null. */
export function foldAlias(name: string, args: Record<string, unknown>, known: NameSet): FoldedCall | null {
  if (known.folds === false) return null;
  const folded = normalizeShape(name, args);
  if (folded === null || folded.name === name || !known.has(folded.name)) return null;
  return folded;
}

/**
 * `name` cut at the first channel marker that leaves a non-empty name before it:
 * `run<|channel|>commentary` -> `run`. A marker with nothing before it is kept.
 */
export function stripChannelSuffix(name: string): string {
  const trimmed = name.trim();
  for (const marker of DIALECTS.NAME_CHANNEL_MARKERS) {
    const at = trimmed.indexOf(marker);
    if (at >= 0) {
      const head = trimmed.slice(0, at).trim();
      if (head !== '') return head;
    }
  }
  return trimmed;
}

/** A name that is only provider framing (`<|constrain|>json`): it names no tool. */
function isMarkerWrapper(name: string): boolean {
  return name.startsWith(DIALECTS.HARMONY_FRAME_PREFIX) && name.includes(DIALECTS.HARMONY_FRAME_SUFFIX);
}

function stripNamespace(name: string): string {
  if (GENERIC_WRAPPERS.has(name)) return name;
  for (const prefix of DIALECTS.NAME_NAMESPACE_PREFIXES) {
    if (name.startsWith(prefix)) {
      const rest = name.slice(prefix.length).trim();
      if (rest !== '') return rest;
    }
  }
  return name;
}

function normalizeShape(rawName: string, args: Record<string, unknown>): FoldedCall | null {
  const name = stripChannelSuffix(rawName);
  const marked: NameRewrite | null = name !== rawName.trim() ? 'channel-marker' : null;
  if (!GENERIC_WRAPPERS.has(name) && !isMarkerWrapper(name)) return semanticAlias(name, args, marked);
  const inner = unwrapGeneric(args);
  if (inner !== null) return semanticAlias(stripChannelSuffix(inner.name), inner.arguments, 'generic-wrapper');
  const inferred = inferFromArguments(args);
  return inferred === null ? null : { name: inferred.name, arguments: args, rewrite: inferred.rewrite };
}

/**
 * The namespace, browser, shell and edit-verb folds of one name; `earlier` is the step that
 * already rewrote it (reported when none of these applies).
 */
function semanticAlias(rawName: string, args: Record<string, unknown>, earlier: NameRewrite | null): FoldedCall {
  const name = stripNamespace(rawName);
  const unchanged: NameRewrite = name !== rawName ? 'namespace-prefix' : (earlier ?? 'namespace-prefix');
  if (name === SHELL_TOOL) return { name, arguments: remapCommand(args), rewrite: unchanged };
  const browser = DIALECTS.BROWSER_NAMESPACE_PREFIXES.find((prefix) => name.startsWith(prefix));
  if (browser !== undefined) {
    const verb = name.slice(browser.length).trim();
    if (verb !== '') return { name: lookup(DIALECTS.BROWSER_VERB_ALIASES, verb) ?? verb, arguments: args, rewrite: 'browser-alias' };
  }
  if (SHELL_ALIASES.has(name)) return { name: SHELL_TOOL, arguments: remapCommand(args), rewrite: 'shell-alias' };
  if (EDIT_VERBS.has(name)) {
    const withAction = copyRecord(args);
    if (!Object.hasOwn(withAction, ACTION_KEY)) setOwn(withAction, ACTION_KEY, name);
    return { name: EDIT_TOOL, arguments: withAction, rewrite: 'edit-action-verb' };
  }
  return { name, arguments: args, rewrite: unchanged };
}

function copyRecord(source: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) setOwn(copy, key, source[key]);
  return copy;
}

/** The first command alias (`command`, `script`, `cmd`) becomes a `command` string for `run`. */
function remapCommand(args: Record<string, unknown>): Record<string, unknown> {
  const key = DIALECTS.COMMAND_ARG_ALIASES.find((alias) => Object.hasOwn(args, alias));
  if (key === undefined) return args;
  const copy: Record<string, unknown> = {};
  for (const other of Object.keys(args)) if (other !== key) setOwn(copy, other, args[other]);
  setOwn(copy, COMMAND_KEY, commandString(args[key]));
  return copy;
}

/** An argv list becomes one shell string; `["bash", "-lc", script]` becomes `script`. */
function commandString(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return value;
  const argv = value as string[];
  const [binary, flag, script] = argv;
  if (argv.length === 3 && script !== undefined && SHELL_BINARIES.has(binary ?? '') && SCRIPT_FLAGS.has(flag ?? '')) return script;
  return argv.map(shellQuote).join(' ');
}

const SHELL_SAFE = /^[A-Za-z0-9_\-./:+=,@%]+$/;

function shellQuote(arg: string): string {
  if (arg === '') return "''";
  if (SHELL_SAFE.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'"'"'`)}'`;
}

/** `{name|tool, args|arguments|parameters}` inside a generic wrapper call. */
function unwrapGeneric(args: Record<string, unknown>): { name: string; arguments: Record<string, unknown> } | null {
  const nameKey = WRAPPED_NAME_KEYS.find((key) => Object.hasOwn(args, key));
  const rawName = nameKey === undefined ? undefined : args[nameKey];
  if (typeof rawName !== 'string' || rawName.trim() === '') return null;
  const name = rawName.trim();
  const slot = DIALECTS.ARGUMENT_ALIASES.find((key) => Object.hasOwn(args, key));
  const value = slot === undefined ? undefined : args[slot];
  if (value === undefined || value === null) return { name, arguments: {} };
  if (isPlainRecord(value)) return { name, arguments: value };
  if (typeof value === 'string') {
    const decoded = readJsonCapped(value);
    return decoded.ok && isPlainRecord(decoded.value) ? { name, arguments: decoded.value } : null;
  }
  return null;
}

/** A wrapper without an inner name: the tool its `intent` names, or `run` for a command shape. */
function inferFromArguments(args: Record<string, unknown>): { name: string; rewrite: NameRewrite } | null {
  const intent = Object.hasOwn(args, INTENT_KEY) ? args[INTENT_KEY] : undefined;
  const byIntent = typeof intent === 'string' ? lookup(DIALECTS.INTENT_TOOL_ALIASES, intent.trim().toLowerCase()) : undefined;
  if (byIntent !== undefined) return { name: byIntent, rewrite: 'intent-inference' };
  if (DIALECTS.COMMAND_SHAPE_KEYS.some((key) => Object.hasOwn(args, key))) return { name: SHELL_TOOL, rewrite: 'command-inference' };
  return null;
}
