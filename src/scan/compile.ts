/**
 * Compiles a validated spec once into the lookup tables the hot loop reads (cached per spec
 * object). Every string here comes from the spec; nothing names a dialect.
 *
 * Branches 6 to 13 all start on `<`, so their openers are keyed by the character code right
 * after the `<` (`t` for `<tool_call>`, `/` for `</tool_call>`), each key holding the entries
 * in branch order. Reserved openers are keyed by their own first character code.
 */
import type { ValidatedScanSpec } from './validate.js';

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
  readonly reservedByFirstCode: ReadonlyMap<number, readonly ReservedOpener[]>;
  readonly knownTools: ReadonlySet<string>;
  readonly headerMarkers: ReadonlySet<string>;
  readonly standaloneMarkers: ReadonlySet<string>;
  /** Length of the longest header or standalone marker name. */
  readonly longestMarkerName: number;
  /** Corrupted openers that end with the frame prefix (the others can never apply). */
  readonly corruptedOpeners: readonly string[];
  readonly framePrefix: string;
  readonly frameSuffix: string;
  readonly messageMarker: string;
  readonly headerPrefix: string;
}

function formsOf(tag: string): TagForms {
  return { tag, open: `<${tag}>`, close: `</${tag}>` };
}

function slotFor(table: Map<number, LessThanSlot>, needle: string): LessThanSlot {
  // Needles start with `<`; the key is what follows it (NaN for a bare `<`, which never occurs).
  const key = needle.charCodeAt(1);
  let slot = table.get(key);
  if (slot === undefined) {
    slot = { beforeAngle: [], afterAngle: [] };
    table.set(key, slot);
  }
  return slot;
}

const cache = new WeakMap<ValidatedScanSpec, CompiledScanSpec>();

export function compileScanSpec(spec: ValidatedScanSpec): CompiledScanSpec {
  const cached = cache.get(spec);
  if (cached) return cached;
  const callTags = spec.call_tags.map(formsOf);
  const lessThan = new Map<number, LessThanSlot>();
  for (const forms of callTags) slotFor(lessThan, forms.open).beforeAngle.push({ branch: 'call', forms });
  for (const tag of spec.block_tags) {
    const forms = formsOf(tag);
    slotFor(lessThan, forms.open).beforeAngle.push({ branch: 'block', forms });
  }
  for (const { opener, close } of spec.markup_openers) {
    // Branch 10 only runs on a `<` cursor: an opener starting with anything else never applies.
    if (opener.charCodeAt(0) === 0x3c) slotFor(lessThan, opener).afterAngle.push({ branch: 'markup', opener, close });
  }
  for (const forms of callTags) slotFor(lessThan, forms.close).afterAngle.push({ branch: 'stray_close', forms, needle: forms.close });
  for (const tag of spec.wrapper_tags) {
    const forms = formsOf(tag);
    slotFor(lessThan, forms.open).afterAngle.push({ branch: 'wrapper', forms, needle: forms.open });
    slotFor(lessThan, forms.close).afterAngle.push({ branch: 'wrapper', forms, needle: forms.close });
  }
  const reservedByFirstCode = new Map<number, ReservedOpener[]>();
  for (const opener of spec.reserved_openers) {
    const key = opener.charCodeAt(0);
    const entry = { opener, last: [...opener].pop() ?? '' };
    const list = reservedByFirstCode.get(key);
    if (list) list.push(entry);
    else reservedByFirstCode.set(key, [entry]);
  }
  const { harmony } = spec;
  const compiled: CompiledScanSpec = {
    spec,
    callTags,
    canonicalCall: callTags[0] ?? null,
    callTagOpens: spec.call_tags.map((tag) => `<${tag}`),
    callTagBounds: spec.call_tags.flatMap((tag) => [`<${tag}`, `</${tag}`]),
    lessThan,
    reservedByFirstCode,
    knownTools: new Set(spec.known_tools),
    headerMarkers: new Set(harmony.header_markers),
    standaloneMarkers: new Set(harmony.standalone_markers),
    longestMarkerName: Math.max(0, ...harmony.header_markers.map((m) => m.length), ...harmony.standalone_markers.map((m) => m.length)),
    corruptedOpeners: harmony.corrupted_openers.filter((opener) => opener.endsWith(harmony.frame_prefix)),
    framePrefix: harmony.frame_prefix,
    frameSuffix: harmony.frame_suffix,
    messageMarker: harmony.message_marker,
    headerPrefix: harmony.tool_call_header_prefix,
  };
  cache.set(spec, compiled);
  return compiled;
}
