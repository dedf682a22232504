/**
 * What one scan carries from step to step. Branches read it; only the emit funnel and the
 * whitespace skipper in `scanner.ts` write `cursor` and `lastBlockEnd`.
 */
import { ScanMemo } from '../lex/scan-memo.js';
import { SpanWalker, type ScanStats } from '../lex/spans.js';
import { TextIndex } from '../lex/text-index.js';
import type { CompiledScanSpec } from './compile.js';
import { NextOccurrences } from './next-occurrence.js';

export interface ScanState {
  readonly source: string;
  readonly length: number;
  readonly vocab: CompiledScanSpec;
  readonly index: TextIndex;
  readonly walker: SpanWalker;
  readonly next: NextOccurrences;
  /** What the angle-call branch's argument parses share, so failed attempts stay linear together. */
  readonly callMemo: ScanMemo;
  readonly stats: ScanStats | undefined;
  /** Where the next unit starts (after skipping whitespace). */
  cursor: number;
  /** End of the last unit that counts as a block for adjacency (0: none yet). */
  lastBlockEnd: number;
  /** First non-Unicode-whitespace offset at or after `lastBlockEnd` (-1: not computed yet). */
  blockGapEnd: number;
}

/** A branch: looks at the state, returns the unit starting at the cursor, or null to pass. */
export type Branch<U> = (state: Readonly<ScanState>) => U | null;

export function createScanState(source: string, vocab: CompiledScanSpec, stats: ScanStats | undefined): ScanState {
  const index = new TextIndex(source);
  return {
    source,
    length: source.length,
    vocab,
    index,
    walker: new SpanWalker(source, index, stats),
    next: new NextOccurrences(source, stats),
    callMemo: new ScanMemo(source),
    stats,
    cursor: 0,
    lastBlockEnd: 0,
    blockGapEnd: -1,
  };
}
