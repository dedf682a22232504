/**
 * Branch 2: a run of text up to the next structural `<` (docs/design.md, "Scan steps").
 *
 *     run({ command: <<EOF\n<b>\nEOF })\nMore prose.\n<tool_call>...
 *     ^ cursor      the heredoc's `<` are inside the run          ^ the run ends here
 *
 * The run crosses newlines and fences. A `<` does not end it when it opens a complete heredoc,
 * or when it is a Harmony message marker and the run so far holds the tool-call header prefix
 * (`tool_call to=look<|message|>look({})` stays one run).
 */
import { Code } from '../lex/codes.js';
import type { ScanState } from './state.js';
import type { TextUnit } from './types.js';

export function textRun(state: Readonly<ScanState>): TextUnit | null {
  const { source, length, cursor: start, walker, next } = state;
  if (source.charCodeAt(start) === Code.LessThan) return null;
  const { messageMarker, headerPrefix } = state.vocab;
  let probe = start;
  for (;;) {
    const lt = next.find('<', probe);
    probe = lt === -1 ? length : lt;
    if (probe + 1 < length && source.charCodeAt(probe + 1) === Code.LessThan) {
      const after = walker.heredocEnd(probe);
      if (after !== -1) {
        probe = after;
        continue;
      }
    }
    if (probe < length && source.startsWith(messageMarker, probe)) {
      const prefixAt = next.find(headerPrefix, start);
      if (prefixAt !== -1 && prefixAt + headerPrefix.length <= probe) {
        probe += messageMarker.length;
        continue;
      }
    }
    return { kind: 'text', start, end: probe, text: source.slice(start, probe), fenced: false };
  }
}
