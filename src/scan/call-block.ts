/**
 * Call blocks: branch 1 (reserved opener) and branches 6/7 (call tag opener)
 * (docs/design.md, "Scan steps"). The body is walked string- and heredoc-aware for the close tag and is
 * bounded by the next line-leading call opener, so an abandoned call never swallows a later one:
 *
 *     <tool_call>\nedit({})\n\nOops.\n\n<tool_call>\nlook({})\n</tool_call>
 *     ^ cursor                          ^ bound: unclosed_block ends here
 *
 * After a truncation (an unterminated quote or heredoc) string state means nothing, so the end
 * is the next line-leading opener found on raw characters.
 */
import type { SpanEnd } from '../lex/spans.js';
import { closedBlock, unclosedBlock } from './body-units.js';
import type { TagForms } from './compile.js';
import type { ScanState } from './state.js';
import type { BlockUnit, UnclosedBlockUnit } from './types.js';

/** Branches 6/7 for the call tag whose `<tag>` sits at the cursor. */
export function callBlock(state: Readonly<ScanState>, forms: TagForms): BlockUnit | UnclosedBlockUnit {
  const { source, length, cursor: start, walker, vocab } = state;
  const bodyStart = start + forms.open.length;
  const span: SpanEnd = walker.findSpanEnd(bodyStart, forms.close, vocab.callTagBounds);
  switch (span.kind) {
    case 'closed':
      return closedBlock(source, start, span.at + forms.close.length, forms.tag, bodyStart, span.at);
    case 'opener':
      return unclosedBlock(source, start, span.at, forms.tag, bodyStart);
    case 'not_found':
      return unclosedBlock(source, start, length, forms.tag, bodyStart);
    case 'truncated': {
      const resync = walker.findOpenerAfter(bodyStart, vocab.callTagBounds);
      return unclosedBlock(source, start, resync === -1 ? length : resync, forms.tag, bodyStart);
    }
  }
}

/**
 * Branch 1: a reserved stub (`[[CALL]`, one character short of the wire marker `[[CALL]]`)
 * stands in for the canonical call opener. Only a line-leading stub outside fences counts.
 *
 *     [[CALL]look({ path: "a.rs" })</tool_call>
 *     ^ cursor                     ^ only the canonical close ends it
 *
 * The reference walks a rewritten copy (`<tool_call>` + the rest); walking the source from the
 * end of the stub is the same walk with offsets already in source coordinates.
 */
export function reservedBlock(state: Readonly<ScanState>): BlockUnit | UnclosedBlockUnit | null {
  const { source, length, cursor: start, vocab, index, walker } = state;
  const candidates = vocab.reservedByFirstCode.get(source.charCodeAt(start));
  if (candidates === undefined) return null;
  let stub: string | undefined;
  for (const { opener, last } of candidates) {
    // `[[CALL]]` (the stub with its last character repeated) is the well-formed marker.
    if (source.startsWith(opener, start) && !source.startsWith(last, start + opener.length)) {
      stub = opener;
      break;
    }
  }
  const canonical = vocab.canonicalCall;
  if (stub === undefined || canonical === null) return null;
  if (!index.isLineLeading(start) || index.insideFence(start)) return null;
  const bodyStart = start + stub.length;
  const span = walker.findSpanEnd(bodyStart, canonical.close, vocab.callTagBounds);
  if (span.kind === 'closed') {
    return closedBlock(source, start, span.at + canonical.close.length, canonical.tag, bodyStart, span.at, true);
  }
  // Every other outcome resyncs on raw characters, even a string-aware opener bound (a
  // reference quirk kept for fixture parity; see DIFFERENCES.md).
  const resync = walker.findOpenerAfter(bodyStart, vocab.callTagBounds);
  return unclosedBlock(source, start, resync === -1 ? length : resync, canonical.tag, bodyStart, true);
}
