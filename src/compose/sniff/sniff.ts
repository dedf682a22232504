/**
 * One sniff over one string (see `../bare-calls.ts` for the pipeline).
 *
 *     raw ─ thinking tags ─ wrapper tags ─ exact code wrapper? ─ line walk ─ prose ─ native JSON?
 *         ─ (gateway) a pythonic list?
 */
import type { CallMarks } from '../call-provenance.js';
import type { ToolCall } from '../types.js';
import { stripThinkingTags } from '../../lex/thinking.js';
import { scanLines } from './line-scan.js';
import type { WorkMeter } from './meter.js';
import type { KnownNames } from './names.js';
import { nativeJsonCalls } from './native-json.js';
import { pythonicListCalls } from './pythonic.js';
import { assembleProse } from './prose.js';
import { trimUnicode } from '../../lex/render.js';
import { isJsonSpace, skipBlanksBack } from '../../lex/codes.js';
import { collapseBlankLines, stripEmptyFences, stripToolCallWrappers, unwrapExactCodeWrapper } from './text-edits.js';

/** What the bare-call sniffer found in one string. */
export interface BareScan {
  readonly calls: readonly ToolCall[];
  readonly errors: readonly string[];
  readonly prose: string;
  /**
   * With errors, the start of the line in `raw` where the first one was found, when the sniff
   * read `raw` as it stands (no tags stripped, no wrapper opened); absent otherwise. The lines
   * before it are words the model wrote before a call that did not read.
   */
  readonly firstErrorLine?: number;
}

/**
 * How many nested exact wrappers (```` ``` ```` inside ```` ``` ````, ...) are opened. Each level
 * costs one more pass over the text, so the depth is capped to keep the sniff linear; real
 * responses use one.
 */
const MAX_WRAPPER_DEPTH = 4;

/**
 * Sniff `raw`; `depth` counts the exact code wrappers already opened around it. `marks`, when
 * the sniff is part of a parse, receives the text each call was read from.
 */
export function sniff(raw: string, known: KnownNames, meter: WorkMeter, depth: number, marks: CallMarks | null = null): BareScan {
  meter.steps += raw.length;
  const text = stripToolCallWrappers(stripThinkingTags(raw), meter);
  if (depth < MAX_WRAPPER_DEPTH) {
    const inner = unwrapExactCodeWrapper(text);
    if (inner !== null) {
      const wrapped = sniff(inner, known, meter, depth + 1, marks);
      if (wrapped.calls.length > 0 || wrapped.errors.length > 0) return wrapped;
    }
  }
  const scan = scanLines(text, known, meter);
  marks?.writtenEach(scan.calls, scan.written);
  const prose = assembleProse(text, scan, meter, known.lookAlikes === true);
  if (scan.calls.length === 0 && scan.errors.length === 0) {
    // Models trained on native function calling sometimes print the provider payload instead.
    const native = nativeJsonCalls(text, known, meter, marks);
    if (native.calls.length > 0 || native.errors.length > 0) return around(text, native.payload, native.calls, native.errors, meter, known.lookAlikes === true);
    // The gateway reads a pythonic list beside prose as it reads the JSON payload.
    const pythonic = pythonicListCalls(text, known, meter, marks);
    if (pythonic.calls.length > 0) return around(text, pythonic.payload, pythonic.calls, [], meter, known.lookAlikes === true);
  }
  if (scan.errors.length > 0 && scan.firstErrorLine > 0 && text === raw) return { calls: scan.calls, errors: scan.errors, prose, firstErrorLine: scan.firstErrorLine };
  return { calls: scan.calls, errors: scan.errors, prose };
}

/**
 * The calls of a payload at `[start, end)`, whose prose is the text around it. `joinTrimmed` (the
 * gateway): the blanks before the payload go with it when a blank, a line break or the end
 * follows it (`Hi {…}⏎⏎ok` reads `Hi⏎⏎ok`, `Call {…} now` reads `Call now`), as a stream
 * that released `Hi ` line by line holds its trailing blanks; the reference keeps them.
 */
function around(text: string, [start, end]: readonly [number, number], calls: readonly ToolCall[], errors: readonly string[], meter: WorkMeter, joinTrimmed = false): BareScan {
  const before = joinTrimmed && (end >= text.length || isJsonSpace(text.charCodeAt(end))) ? skipBlanksBack(text, start) : start;
  const rest = stripEmptyFences(text.slice(0, before) + text.slice(end), meter);
  return { calls, errors, prose: trimUnicode(collapseBlankLines(rest, meter)) };
}
