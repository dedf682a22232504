/**
 * The gateway's pythonic look-alike after a label: a list of pythonic calls standing in prose
 * mid-line (`Sure: [get_weather(city='Paris'), search(query='x')]`), read as the native JSON
 * payload beside prose is (native-json.ts): a call only when every name in the list is
 * registered; the prose is the text around the list. A list at a line start is the field lane's
 * look-alike (src/compose/field/readers/look-alike.ts) and never reaches here.
 *
 *     Sure: [get_weather(city='Paris'), search(query='x')]
 *           ^ the first `[` after a blank that opens `ident(` and reads as a whole list of
 *             registered calls
 *
 * Linear: each candidate is read forward from its `[`; a list that does not read, or names a
 * tool the registry lacks, is stepped over to where its reading stopped, so no character is
 * read by two candidates.
 */
import { Code, endsLineAt, skipJsonSpace } from '../../lex/codes.js';
import { LOOKALIKE } from '../../dialects/field/look-alikes.js';
import { afterCodeLead, quotesLine } from './code-lead.js';
import { pyCallStartsAt, readPyCallListAt } from '../../lex/py-call.js';
import type { CallMarks } from '../call-provenance.js';
import type { ToolCall } from '../types.js';
import type { WorkMeter } from './meter.js';
import type { KnownNames } from './names.js';

export interface PythonicCalls {
  readonly calls: ToolCall[];
  /** `[start, end)` of the list that was read (both 0 when none was found). */
  readonly payload: readonly [number, number];
}

const NONE: PythonicCalls = Object.freeze({ calls: [], payload: [0, 0] as const });

export function pythonicListCalls(text: string, known: KnownNames, meter: WorkMeter, marks: CallMarks | null = null): PythonicCalls {
  if (known.lookAlikes !== true) return NONE;
  let at = text.indexOf('[');
  while (at >= 0) {
    const first = skipJsonSpace(text, at + 1);
    meter.steps += first - at;
    let next = at + 1;
    // A list stands after a blank (`Sure: [`), not glued to a word (`items[f(x)]` indexes).
    if ((at === 0 || isBlank(text.charCodeAt(at - 1))) && pyCallStartsAt(text, first)) {
      const read = readPyCallListAt(text, at);
      if (read.ok && read.calls.length > 0 && read.calls.every((call) => known.has(call.name)) && standsInProse(text, at, read.end)) {
        const calls = read.calls.map((call, i) => {
          const found: ToolCall = { id: `pythonic_${i}`, name: call.name, arguments: call.arguments };
          return marks === null ? found : marks.writtenAs(found, text.slice(call.start, call.end));
        });
        return { calls, payload: [at, read.end] };
      }
      // Cut off by the end of the text: every later `[` is inside this list.
      if (!read.ok && read.eof) break;
      next = Math.max(next, read.ok ? read.end : read.at);
    }
    meter.steps += next - at;
    at = text.indexOf('[', next);
  }
  return NONE;
}

/**
 * Whether the list at `[start, end)` stands as calls would: not the text of a Markdown link
 * (`[search(q='x')](https://…)`), not after a code lead on its line (`calls = [`). Only the
 * blanks just before the `[` are read back, and they are not before any other candidate.
 */
function standsInProse(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(end) === Code.LeftParen) return false;
  // A list that a sentence goes on after (`- [f(a=1)] is the call.`) is named in it.
  return !afterCodeLead(text, start) && endsLineAt(text, end) && !quotedOrCode(text, start);
}

/** How far back the start of a list's line is looked for. */
const LEAD_WINDOW = 64;
const CODE_WORDS: ReadonlySet<string> = new Set(LOOKALIKE.codeLeadWords);

/**
 * Whether the list at `start` stands on a quoted line (`> [f(a=1)]`), right after a list
 * item's bullet (`- [f(a=1)]`) or after a code word (`return [f(a=1)]`). Only `LEAD_WINDOW`
 * characters before it are read, so many lists on one long line cost a bounded look each.
 */
function quotedOrCode(text: string, start: number): boolean {
  let lineStart = start;
  while (lineStart > 0 && start - lineStart < LEAD_WINDOW && text.charCodeAt(lineStart - 1) !== Code.LineFeed) lineStart--;
  const before = text.slice(lineStart, start).trim();
  if (before === '') return false;
  return quotesLine(before.charCodeAt(0), before.length === 1) || CODE_WORDS.has(before);
}

function isBlank(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.CarriageReturn;
}
