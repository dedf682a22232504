/**
 * Compiles a validated spec once into the lookup tables the hot loop reads (cached per spec
 * object). Every string here comes from the spec; nothing names a dialect.
 *
 * Branches 6 to 13 all start on `<`, so their openers are keyed by the character code right
 * after the `<` (`t` for `<tool_call>`, `/` for `</tool_call>`), each key holding the entries
 * in branch order. Reserved openers are keyed by their own first character code.
 */
import { Code } from '../lex/codes.js';
import type { ValidatedScanSpec } from './validate.js';

const LESS_THAN = Code.LessThan;

/** One tag's literal forms. */
export interface TagForms {
  readonly tag: string;
  /** `<tag>` */
  readonly open: string;
  /** `</tag>` */
  readonly close: string;
}

/** A reserved stub and its last character (a whole code point), which must not follow it. */
export interface ReservedOpener {
  readonly opener: string;
  readonly last: string;
}

/** An opener tried at a `<` cursor, in branch order. */
export type LessThanEntry =
  | { readonly branch: 'call'; readonly forms: TagForms }
  | { readonly branch: 'block'; readonly forms: TagForms }
  | { readonly branch: 'markup'; readonly opener: string; readonly close: string }
  | { readonly branch: 'stray_close'; readonly forms: TagForms; readonly needle: string }
  | { readonly branch: 'wrapper'; readonly forms: TagForms; readonly needle: string };

/** Entries for one character code: those tried before the angle-call branch, and after it. */
export interface LessThanSlot {
  readonly beforeAngle: LessThanEntry[];
  readonly afterAngle: LessThanEntry[];
}

export interface CompiledScanSpec {
  readonly spec: ValidatedScanSpec;
  readonly callTags: readonly TagForms[];
  /** `call_tags[0]`: what a reserved opener is normalised to (null when there are no call tags). */
  readonly canonicalCall: TagForms | null;
  /** `<t` per call tag: where a Harmony header tail stops. */
  readonly callTagOpens: readonly string[];
  /** `<t` and `</t` per call tag: where a call span stops when line-leading. */
  readonly callTagBounds: readonly string[];
  readonly lessThan: ReadonlyMap<number, LessThanSlot>;
  /** The slot for a character after `<` that no needle names (only bare-`<` entries). */
  readonly lessThanAny: LessThanSlot;
  readonly reservedByFirstCode: ReadonlyMap<number, readonly ReservedOpener[]>;
  readonly knownTools: ReadonlySet<string>;
  readonly headerMarkers: ReadonlySet<string>;
  readonly standaloneMarkers: ReadonlySet<string>;
  /** Length of the longest header or standalone marker name. */
  readonly longestMarkerName: number;
  /** Corrupted openers that end with the frame prefix (the others can never apply). */
  readonly corruptedOpeners: readonly string[];
  /**
   * How far past a `<` the frame prefix can start for branch 4 to apply: 0 for a frame token
   * at the cursor, more for the prefix that ends a corrupted opener.
   */
  readonly framePrefixReach: number;
  readonly framePrefix: string;
  readonly frameSuffix: string;
  readonly messageMarker: string;
  readonly headerPrefix: string;
}

function formsOf(tag: string): TagForms {
  return { tag, open: `<${tag}>`, close: `</${tag}>` };
}

interface KeyedEntry {
  /** The character code after the `<`, or -1 for the bare `<` (it applies at every `<`). */
  readonly key: number;
  readonly before: boolean;
  readonly entry: LessThanEntry;
}

function keyed(needle: string, before: boolean, entry: LessThanEntry): KeyedEntry {
  return { key: needle.length > 1 ? needle.charCodeAt(1) : -1, before, entry };
}

/** Groups the entries (already in branch order) by key; bare-`<` entries go into every slot. */
function slotsOf(entries: readonly KeyedEntry[]): { table: Map<number, LessThanSlot>; anyChar: LessThanSlot } {
  const slotWith = (matches: (key: number) => boolean): LessThanSlot => {
    const slot: LessThanSlot = { beforeAngle: [], afterAngle: [] };
    for (const { key, before, entry } of entries) {
      if (matches(key)) (before ? slot.beforeAngle : slot.afterAngle).push(entry);
    }
    return slot;
  };
  const table = new Map<number, LessThanSlot>();
  for (const { key } of entries) {
    if (key !== -1 && !table.has(key)) table.set(key, slotWith((k) => k === key || k === -1));
  }
  return { table, anyChar: slotWith((k) => k === -1) };
}

const cache = new WeakMap<ValidatedScanSpec, CompiledScanSpec>();

export function compileScanSpec(spec: ValidatedScanSpec): CompiledScanSpec {
  const cached = cache.get(spec);
  if (cached) return cached;
  const callTags = spec.call_tags.map(formsOf);
  const entries: KeyedEntry[] = [];
  for (const forms of callTags) entries.push(keyed(forms.open, true, { branch: 'call', forms }));
  for (const tag of spec.block_tags) {
    const forms = formsOf(tag);
    entries.push(keyed(forms.open, true, { branch: 'block', forms }));
  }
  for (const { opener, close } of spec.markup_openers) {
    // Branch 10 only runs on a `<` cursor: an opener starting with anything else never applies.
    if (opener.charCodeAt(0) === LESS_THAN) entries.push(keyed(opener, false, { branch: 'markup', opener, close }));
  }
  for (const forms of callTags) entries.push(keyed(forms.close, false, { branch: 'stray_close', forms, needle: forms.close }));
  for (const tag of spec.wrapper_tags) {
    const forms = formsOf(tag);
    entries.push(keyed(forms.open, false, { branch: 'wrapper', forms, needle: forms.open }));
    entries.push(keyed(forms.close, false, { branch: 'wrapper', forms, needle: forms.close }));
  }
  const { table: lessThan, anyChar: lessThanAny } = slotsOf(entries);
  const reservedByFirstCode = new Map<number, ReservedOpener[]>();
  for (const opener of spec.reserved_openers) {
    const key = opener.charCodeAt(0);
    const entry = { opener, last: [...opener].pop() ?? '' };
    const list = reservedByFirstCode.get(key);
    if (list) list.push(entry);
    else reservedByFirstCode.set(key, [entry]);
  }
  const { harmony } = spec;
  const corruptedOpeners = harmony.corrupted_openers.filter((opener) => opener.endsWith(harmony.frame_prefix));
  const compiled: CompiledScanSpec = {
    spec,
    callTags,
    canonicalCall: callTags[0] ?? null,
    callTagOpens: spec.call_tags.map((tag) => `<${tag}`),
    callTagBounds: spec.call_tags.flatMap((tag) => [`<${tag}`, `</${tag}`]),
    lessThan,
    lessThanAny,
    reservedByFirstCode,
    knownTools: new Set(spec.known_tools),
    headerMarkers: new Set(harmony.header_markers),
    standaloneMarkers: new Set(harmony.standalone_markers),
    longestMarkerName: Math.max(0, ...harmony.header_markers.map((m) => m.length), ...harmony.standalone_markers.map((m) => m.length)),
    corruptedOpeners,
    framePrefixReach: Math.max(0, ...corruptedOpeners.map((opener) => opener.length - harmony.frame_prefix.length)),
    framePrefix: harmony.frame_prefix,
    frameSuffix: harmony.frame_suffix,
    messageMarker: harmony.message_marker,
    headerPrefix: harmony.tool_call_header_prefix,
  };
  cache.set(spec, compiled);
  return compiled;
}
