/**
 * The registry rule every field-grammar call passes through, in one place:
 *
 * - with a registry, only registered names are calls; a known namespace prefix (`functions.`),
 *   or any namespace before a separator (`Weather/`), is stripped when the rest is registered,
 *   and a name that differs from one registered name only by `_` for `-` or `.` is that name;
 * - with no registry, a call inside a grammar's own markers is a call whatever its name
 *   (`marked`), while a look-alike in plain prose (`lookalike`) never is.
 */
import { FIELD_NAME_MAX, FIELD_NAMESPACE_PREFIXES, FIELD_NAMESPACE_SEPARATORS } from '../../dialects/field/names.js';
import type { ToolRegistry } from '../../dialects/registry.js';

export type CallOrigin = 'marked' | 'lookalike';

export type Admission = { readonly ok: true; readonly name: string } | { readonly ok: false; readonly name: string; readonly why: 'unknown' | 'empty' };

export function isNameLike(name: string): boolean {
  if (name === '' || name.length > FIELD_NAME_MAX) return false;
  let word = false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    // Whitespace, quotes and brackets never stand in a tool name; they mean the head was misread.
    if (code <= 0x20 || code === 0x22 || code === 0x27 || code === 0x3c || code === 0x3e || code === 0x7b || code === 0x7d) return false;
    word ||= isWordCode(code);
  }
  // A name of separators alone (`::`, `.`) is what is left of a head with no name in it.
  return word;
}

/** A letter, digit or `_`, or any character beyond ASCII (names in other scripts). */
function isWordCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code >= 0x80;
}

export function admitName(raw: string, registry: ToolRegistry | null, origin: CallOrigin): Admission {
  const name = raw.trim();
  // A namespace with nothing after it (`functions.`, Kimi's `functions.:0`) names no tool.
  if (name === '' || FIELD_NAMESPACE_PREFIXES.includes(name)) return { ok: false, name, why: 'empty' };
  if (registry === null) {
    if (origin === 'lookalike') return { ok: false, name, why: 'unknown' };
    const bare = stripPrefix(name, null);
    return isNameLike(bare) ? { ok: true, name: bare } : { ok: false, name: bare, why: 'unknown' };
  }
  // The registry's own spelling (the same text): the engine has it interned, so the maps keyed by
  // tool name downstream find it without hashing a string cut from the model's text again.
  const tool = registry.byName.get(name);
  if (tool !== undefined) return { ok: true, name: tool.name };
  const bare = stripPrefix(name, registry);
  if (bare !== name) return { ok: true, name: bare };
  const folded = foldedName(name, registry) ?? foldedName(unprefixed(name), registry);
  if (folded !== null) return { ok: true, name: folded };
  return { ok: false, name, why: 'unknown' };
}

/**
 * The one registered name that `name` spells with `_` where it has `-` or `.` (or the other way
 * round), or null: servers rename tools so for models that take identifiers only (Ollama maps
 * `get-weather` to `get_weather` for gpt-oss), and models write MCP names (`resolve-library-id`)
 * in the underscored form they were trained on; or the same name in another Unicode normal form.
 * Two registered names that fold alike fold none.
 */
function foldedName(name: string, registry: ToolRegistry): string | null {
  let folds = FOLDS.get(registry);
  if (folds === undefined) {
    folds = new Map();
    for (const tool of registry.tools) {
      const key = foldKey(tool.name);
      folds.set(key, folds.has(key) ? null : tool.name);
    }
    FOLDS.set(registry, folds);
  }
  return folds.get(foldKey(name)) ?? null;
}

const FOLDS = new WeakMap<ToolRegistry, Map<string, string | null>>();

// NFC too: a name typed with combining accents (`me\u0301te\u0301o`) is the registered `météo`,
// and the refusal would otherwise show two names that look the same.
function foldKey(name: string): string {
  return name.normalize('NFC').replace(/[-.]/g, '_');
}

/** `name` without a known namespace prefix, whatever follows it. */
function unprefixed(name: string): string {
  for (const prefix of FIELD_NAMESPACE_PREFIXES) if (name.startsWith(prefix) && name.length > prefix.length) return name.slice(prefix.length);
  return name;
}

/** `name` without its namespace prefix when that is allowed, else `name` itself. */
function stripPrefix(name: string, registry: ToolRegistry | null): string {
  for (const prefix of FIELD_NAMESPACE_PREFIXES) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    if (rest !== '' && (registry === null || registry.byName.has(rest))) return rest;
  }
  if (registry === null) return name;
  for (const separator of FIELD_NAMESPACE_SEPARATORS) {
    const at = name.lastIndexOf(separator);
    if (at <= 0) continue;
    const rest = name.slice(at + separator.length);
    if (rest !== '' && registry.byName.has(rest)) return rest;
  }
  return name;
}

/** The names a caller registered (no implicit tools), for messages. */
export function registeredNames(registry: ToolRegistry | null): readonly string[] {
  return registry === null ? [] : registry.tools.map((tool) => tool.name);
}
