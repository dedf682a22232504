/**
 * Compatibility folding of tool names models borrow from other harnesses, applied by the
 * sniffer only to names that are NOT registered, and kept only when the folded name is:
 *
 *   bash({ script: "zig build" })          -> run({ command: "zig build" })
 *   replace_range({ path, ... })           -> edit({ action: "replace_range", path, ... })
 *   tool.call {name: "look", args: {...}}  -> look({...})            (native JSON items)
 *   functions.look / repo_browser.open_file -> look
 *
 * A registered tool is never renamed: the registry always wins over an alias.
 */
import { isPlainRecord, setOwn } from '../json-object.js';
import type { KnownNames } from './names.js';

export interface FoldedCall {
  name: string;
  arguments: Record<string, unknown>;
}

const CHANNEL_MARKERS = ['<|channel|>', '<|message|>', '<|recipient|>', '<|end|>'];
const NAMESPACE_PREFIXES = ['tool.', 'tools.', 'functions.', 'function.'];
const BROWSER_PREFIXES = ['repo_browser.', 'repository_browser.', 'workspace_browser.', 'file_browser.'];
const BROWSER_LOOK_VERBS = new Set(['open_file', 'view_file', 'cat_file', 'read_file', 'print_tree', 'list_tree', 'list_dir', 'list_directory', 'ls']);
const BROWSER_SEARCH_VERBS = new Set(['search', 'find', 'grep']);
const SHELL_ALIASES = new Set(['container.exec', 'container_exec', 'exec', 'sh', 'shell', 'bash']);
/** `edit` actions models call as tools of their own (never standalone tool names). */
const EDIT_ACTION_VERBS = new Set(['replace_range', 'replace_body', 'insert_after', 'insert_function', 'delete_range', 'exact_patch', 'add_import']);
const GENERIC_WRAPPERS = new Set(['tool', 'tool.call', 'tool.exec', 'tool_call', 'function', 'function.call', 'call']);

/** True when `name` could fold onto a registered tool, so its arguments are worth parsing. */
export function mayFold(name: string, known: KnownNames): boolean {
  if (GENERIC_WRAPPERS.has(name)) return true;
  if (SHELL_ALIASES.has(name)) return known.has('run');
  if (EDIT_ACTION_VERBS.has(name)) return known.has('edit');
  return false;
}

/** The registered call an unregistered `(name, args)` stands for, or null. */
export function foldAlias(name: string, args: Record<string, unknown>, known: KnownNames): FoldedCall | null {
  const folded = normalizeShape(name, args);
  if (folded === null || folded.name === name || !known.has(folded.name)) return null;
  return folded;
}

function stripChannelSuffix(name: string): string {
  const trimmed = name.trim();
  for (const marker of CHANNEL_MARKERS) {
    const at = trimmed.indexOf(marker);
    if (at >= 0) {
      const head = trimmed.slice(0, at).trim();
      if (head !== '') return head;
    }
  }
  return trimmed;
}

function isMarkerWrapper(name: string): boolean {
  return name.startsWith('<|') && name.includes('|>');
}

function stripNamespace(name: string): string {
  if (GENERIC_WRAPPERS.has(name)) return name;
  for (const prefix of NAMESPACE_PREFIXES) {
    if (name.startsWith(prefix)) {
      const rest = name.slice(prefix.length).trim();
      if (rest !== '') return rest;
    }
  }
  return name;
}

function normalizeShape(rawName: string, args: Record<string, unknown>): FoldedCall | null {
  const name = stripChannelSuffix(rawName);
  const wrapper = GENERIC_WRAPPERS.has(name) || isMarkerWrapper(name);
  if (!wrapper) return semanticAlias(stripNamespace(name), args);
  const inner = unwrapGeneric(args);
  if (inner !== null) return semanticAlias(stripNamespace(stripChannelSuffix(inner.name)), inner.arguments);
  const inferred = inferFromArguments(args);
  return inferred === null ? null : { name: inferred, arguments: args };
}

function semanticAlias(name: string, args: Record<string, unknown>): FoldedCall {
  if (name === 'run') return { name, arguments: remapCommand(args) };
  const browser = BROWSER_PREFIXES.find((prefix) => name.startsWith(prefix));
  if (browser !== undefined) {
    const verb = name.slice(browser.length).trim();
    if (verb !== '') {
      if (BROWSER_LOOK_VERBS.has(verb)) return { name: 'look', arguments: args };
      if (BROWSER_SEARCH_VERBS.has(verb)) return { name: 'search', arguments: args };
      return { name: verb, arguments: args };
    }
  }
  if (SHELL_ALIASES.has(name)) return { name: 'run', arguments: remapCommand(args) };
  if (EDIT_ACTION_VERBS.has(name)) {
    const withAction = copyRecord(args);
    if (!Object.hasOwn(withAction, 'action')) setOwn(withAction, 'action', name);
    return { name: 'edit', arguments: withAction };
  }
  return { name, arguments: args };
}

function copyRecord(source: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) setOwn(copy, key, source[key]);
  return copy;
}

/** `command` (or `script` / `cmd`) becomes a `command` string for `run`. */
function remapCommand(args: Record<string, unknown>): Record<string, unknown> {
  const key = ['command', 'script', 'cmd'].find((k) => Object.hasOwn(args, k));
  if (key === undefined) return args;
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(args)) if (k !== key) setOwn(copy, k, args[k]);
  setOwn(copy, 'command', commandString(args[key]));
  return copy;
}

/** An argv list becomes one shell string; `["bash", "-lc", script]` becomes `script`. */
function commandString(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return value;
  const argv = value as string[];
  const [binary, flag, script] = argv;
  if (argv.length === 3 && script !== undefined && isShellBinary(binary) && isShellFlag(flag)) return script;
  return argv.map(shellQuote).join(' ');
}

function isShellBinary(value: string | undefined): boolean {
  return value === 'bash' || value === 'sh' || value === '/bin/bash' || value === '/bin/sh';
}

function isShellFlag(value: string | undefined): boolean {
  return value === '-lc' || value === '-c' || value === 'lc' || value === 'c';
}

const SHELL_SAFE = /^[A-Za-z0-9_\-./:+=,@%]+$/;

function shellQuote(arg: string): string {
  if (arg === '') return "''";
  if (SHELL_SAFE.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'"'"'`)}'`;
}

/** `{name|tool, args|arguments|parameters}` inside a generic wrapper call. */
function unwrapGeneric(args: Record<string, unknown>): FoldedCall | null {
  const rawName = Object.hasOwn(args, 'name') ? args.name : args.tool;
  if (typeof rawName !== 'string' || rawName.trim() === '') return null;
  const slot = ['args', 'arguments', 'parameters'].find((k) => Object.hasOwn(args, k));
  const value = slot === undefined ? undefined : args[slot];
  if (value === undefined || value === null) return { name: rawName.trim(), arguments: {} };
  if (isPlainRecord(value)) return { name: rawName.trim(), arguments: value };
  if (typeof value === 'string') {
    try {
      const decoded: unknown = JSON.parse(value);
      return isPlainRecord(decoded) ? { name: rawName.trim(), arguments: decoded } : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** A wrapper without an inner name: guess the tool from an `intent` or a command shape. */
function inferFromArguments(args: Record<string, unknown>): string | null {
  const intent = typeof args.intent === 'string' ? args.intent.trim().toLowerCase() : '';
  if (['read', 'open', 'look', 'view', 'list', 'ls'].includes(intent)) return 'look';
  if (['search', 'grep', 'find'].includes(intent)) return 'search';
  if (Object.hasOwn(args, 'command') || Object.hasOwn(args, 'commands') || Object.hasOwn(args, 'cmd')) return 'run';
  return null;
}
