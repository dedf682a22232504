/**
 * One reader per family. A reader gets the parse's `FieldScan`, the index of an opener of its
 * grammar, the grammar's record and a fresh sink; it returns where its region ends, or -1 when
 * the text there is not its grammar after all (it must then have reported nothing).
 */
import type { FieldFamily, FieldGrammar } from '../../../dialects/field/index.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';
import { readCallObjects } from './call-objects.js';
import { readParamMarkup } from './param-markup.js';
import { readHarmony } from './harmony.js';
import { readLookalike } from './look-alike.js';
import { readReasoning } from './reasoning.js';
import { readTokenSection, readUnmarkedSegment } from './token-section.js';
import { readTurnEnd } from './turn-end.js';
import { readValueGrammar } from './value-grammar.js';

export type FieldReader<G extends FieldGrammar = FieldGrammar> = (scan: FieldScan, at: number, grammar: G, sink: RegionSink) => number;

type ReaderTable = { readonly [F in FieldFamily]?: FieldReader<Extract<FieldGrammar, { family: F }>> };

const READERS: ReaderTable = {
  'token-section': readTokenSection,
  'call-objects': readCallObjects,
  'param-markup': readParamMarkup,
  'value-grammar': readValueGrammar,
  harmony: readHarmony,
  'look-alike': readLookalike,
  reasoning: readReasoning,
  'turn-end': readTurnEnd,
};

/**
 * The first segment of a response whose opener the template put in the prompt, read by its
 * grammar's family (token sections only); the segment's end, or -1. Visible text in it ends by
 * `proseStop` at the latest (where another grammar's region may begin).
 */
export function readUnmarkedRegion(scan: FieldScan, grammar: FieldGrammar, sink: RegionSink, proseStop: number): number {
  return grammar.family === 'token-section' ? readUnmarkedSegment(scan, grammar, sink, proseStop) : -1;
}

export function readRegion(scan: FieldScan, at: number, grammar: FieldGrammar, sink: RegionSink): number {
  const reader = READERS[grammar.family] as FieldReader | undefined;
  return reader === undefined ? -1 : reader(scan, at, grammar, sink);
}
