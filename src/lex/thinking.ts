/**
 * Thinking-tag stripping (docs/design.md, "Thinking tags"), applied to the whole response before the
 * scan; its output is the `source` every unit offset indexes.
 *
 * Only the exact markers `<think>` and `</think>` count. Quoted spans and complete heredocs are
 * copied verbatim, so think tags inside an argument survive:
 *
 *     edit({ content: "<think>x</think>" })      unchanged
 *     a<think>secret</think>b                     -> "ab"
 *     <think>unclosed                             -> "unclosed"   (only the marker goes)
 *     don't <think>x</think> can't                unchanged: the apostrophes open a span
 *
 * There is no nesting: the first `</think>` ends a block and a later one is a stray close,
 * which is dropped too. Text is copied in chunks between the dropped pieces, never per character.
 */
import { TAG_LITERALS } from '../dialects/vocabulary.js';
import { Code } from './codes.js';
import { SpanWalker, type ScanStats } from './spans.js';

const OPEN = TAG_LITERALS.think_open;
const CLOSE = TAG_LITERALS.think_close;

/**
 * Whether either marker occurs anywhere. Both end in `>`, which prose rarely holds, so hopping
 * from `>` to `>` with the native single-character search beats searching for the markers
 * themselves (whose first characters are common):
 *
 *     ... a < b ... <tool_call> ... <think>
 *                             ^ hop       ^ hop: the marker ends here
 */
function hasThinkMarker(text: string): boolean {
  for (let gt = text.indexOf('>'); gt !== -1; gt = text.indexOf('>', gt + 1)) {
    if (text.startsWith(OPEN, gt + 1 - OPEN.length) || text.startsWith(CLOSE, gt + 1 - CLOSE.length)) return true;
  }
  return false;
}

/** Strip `<think>...</think>` blocks and stray markers; returns `text` itself when none occur. */
export function stripThinkingTags(text: string, stats?: ScanStats): string {
  if (!hasThinkMarker(text)) return text;
  // "Is there a close later?" is asked at every opener; the last close answers it in O(1).
  const lastClose = text.lastIndexOf(CLOSE);
  const walker = new SpanWalker(text, undefined, stats);
  const length = text.length;
  let out = '';
  let copyFrom = 0;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === Code.Quote || code === Code.Apostrophe || code === Code.Backtick) {
      const end = walker.quoteEnd(i);
      if (end !== -1) {
        i = end;
        continue;
      }
    } else if (code === Code.LessThan) {
      if (text.charCodeAt(i + 1) === Code.LessThan) {
        const end = walker.heredocEnd(i);
        if (end !== -1) {
          i = end;
          continue;
        }
      }
      if (text.startsWith(OPEN, i)) {
        //     a<think>secret</think>b
        //      ^ i: keep "a", drop the marker, and the block when a close follows
        out += text.slice(copyFrom, i);
        i += OPEN.length;
        if (lastClose >= i) i = text.indexOf(CLOSE, i) + CLOSE.length;
        copyFrom = i;
        continue;
      }
      if (text.startsWith(CLOSE, i)) {
        out += text.slice(copyFrom, i);
        i += CLOSE.length;
        copyFrom = i;
        continue;
      }
    }
    i++;
  }
  if (stats) stats.work += length;
  return copyFrom === 0 ? text : out + text.slice(copyFrom);
}
