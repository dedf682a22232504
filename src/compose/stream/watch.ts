/**
 * What a stream looks for in each new chunk, so that it never re-reads the text it holds: the
 * openers of the field grammars (where a region may begin) and the markers that can make a
 * region whole (closers.ts). Each chunk is searched together with the last characters
 * before it, enough to catch a marker split across chunks, so the work per chunk is its length.
 */
import { FIELD_GRAMMARS } from '../../dialects/field/index.js';
import { compileOpeners, type OpenerDetector } from '../field/detect.js';
import { wholeMarkerSource } from './closers.js';

export interface ChunkWatch {
  readonly openers: OpenerDetector;
  /** Any marker that can make a region whole. */
  readonly markers: RegExp;
  /** Characters kept from before a chunk: the longest marker or opener, less one, plus the character before it (line-start openers). */
  readonly overlap: number;
}

let watch: ChunkWatch | null = null;

export function chunkWatch(): ChunkWatch {
  if (watch !== null) return watch;
  const whole = wholeMarkerSource();
  let longest = whole.longest;
  for (const grammar of FIELD_GRAMMARS) for (const m of grammar.openers) longest = Math.max(longest, m.length + 1);
  const source = whole.source;
  watch = { openers: compileOpeners(FIELD_GRAMMARS), markers: new RegExp(source, 'g'), overlap: longest };
  return watch;
}

/** True when a marker ends inside `window` at or after `from` (where the new chunk begins). */
export function completesMarker(w: ChunkWatch, window: string, from: number): boolean {
  w.markers.lastIndex = Math.max(0, from - w.overlap);
  for (let m = w.markers.exec(window); m !== null; m = w.markers.exec(window)) {
    if (m.index + m[0].length > from) return true;
    w.markers.lastIndex = m.index + 1;
  }
  return false;
}
