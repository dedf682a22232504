/**
 * The reasoning family's reader: a thinking block, an answer wrapper's marker, or a stray close.
 *
 *     <think>BODY</think>      BODY -> sink.reasoningSpan; the first close ends it (no nesting)
 *     <think>BODY<end>         cut off: BODY runs to the end of the text
 *     <|channel|>analysis<|message|>BODY<|start|>…   a stop ends BODY and is left for what follows
 *     <|START_RESPONSE|>       an answer marker: the region is the marker; the answer's text is
 *                              read as the text around it (prose, or calls)
 *     </think>                 a stray close: the region is the marker
 *
 * Forward only: nothing before `at` is read. The search for the close is memoised per record
 * (`FieldScan.earliest`), and a suffixed close (Hunyuan) is searched once per block, from the
 * body to the close, which the region then covers; so the work is the bytes of the regions.
 */
import type { ReasoningGrammar } from '../../../dialects/field/index.js';
import { matchAt } from '../cursor.js';
import type { RegionSink } from '../region.js';
import type { FieldScan } from '../scan.js';

function isSuffixCode(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d || code === 0x2e
  );
}

/** The end of a `SUFFIX` + `end` after a stem (Hunyuan's `opensource>`), or -1; `at` for a grammar with no suffix. */
export function suffixEnd(text: string, at: number, grammar: ReasoningGrammar): number {
  const suffix = grammar.suffix;
  if (suffix === null) return at;
  let i = at;
  const stop = Math.min(text.length, at + suffix.max);
  while (i < stop && isSuffixCode(text.charCodeAt(i))) i++;
  return i > at && text.startsWith(suffix.end, i) ? i + suffix.end.length : -1;
}

interface BlockEnd {
  /** Where the body stops. */
  readonly body: number;
  /** Where the region stops (after a consumed close). */
  readonly region: number;
}

function blockEnd(scan: FieldScan, bodyStart: number, grammar: ReasoningGrammar, closeLiteral: string | null): BlockEnd {
  const text = scan.text;
  let close: number;
  let closeLength = 0;
  if (closeLiteral !== null) {
    close = text.indexOf(closeLiteral, bodyStart);
    closeLength = closeLiteral.length;
  } else {
    close = grammar.close.length === 0 ? -1 : scan.earliest(grammar.close, bodyStart);
    if (close >= 0) closeLength = matchAt(text, close, grammar.close)!.length;
  }
  const stop = grammar.stop.length === 0 ? -1 : scan.earliest(grammar.stop, bodyStart);
  if (close >= 0 && (stop < 0 || close <= stop)) return { body: close, region: close + closeLength };
  if (stop >= 0) return { body: stop, region: stop };
  return { body: text.length, region: text.length };
}

export function readReasoning(scan: FieldScan, at: number, grammar: ReasoningGrammar, sink: RegionSink): number {
  const text = scan.text;
  const open = matchAt(text, at, grammar.open);
  if (open === null) {
    const close = matchAt(text, at, grammar.close);
    if (close === null) return -1;
    return suffixEnd(text, at + close.length, grammar);
  }
  const bodyStart = suffixEnd(text, at + open.length, grammar);
  if (bodyStart < 0) return -1;
  if (grammar.role === 'answer') return bodyStart;
  // Hunyuan: the close carries the open's suffix, `<think:abc>` … `</think:abc>`.
  const closeLiteral = grammar.suffix === null ? null : `${grammar.close[0] ?? ''}${text.slice(at + open.length, bodyStart)}`;
  const end = blockEnd(scan, bodyStart, grammar, closeLiteral);
  sink.reasoningSpan(bodyStart, end.body);
  return end.region;
}
