/**
 * Chat-template envelopes (docs/design.md, "Envelopes"): `<tool_calls>`, `<tool_code>`,
 * `<tool_call>`, `<tool_use>`, `<tool>`, `[[tool]]` wrapping JSON calls (or, for all but
 * `<tool_call>`, a body the tagged ladder can read).
 *
 *   I will read it.<tool_use>{"name": "look", ...}</tool_use> Done.
 *   \_ prose ______/^ earliest opener                        \_ trailing
 *
 * The reader returns null when the text holds no envelope it can claim; a malformed envelope
 * is a match carrying one error and no calls (nothing in it runs).
 */
import { ENVELOPE_OPENERS, TAG_LITERALS } from '../../dialects/vocabulary.js';
import { labelBody } from '../ladders/label.js';
import type { ComposeContext } from '../context.js';
import type { ToolCall } from '../types.js';
import { readJsonListEnvelope } from './envelope-json-list.js';
import { readToolCallsEnvelope } from './envelope-tool-calls.js';
import { laneMessagesFor } from './messages.js';
import { emptyLane, providerResult, violation } from './result.js';
import type { BodyLadder, EnvelopeMatch } from './types.js';

type Opener = (typeof ENVELOPE_OPENERS)[number];

/**
 * The earliest envelope opener at or after an offset, for one text read many times (a chain of
 * envelopes). Each opener remembers its next occurrence; a search starts where the last one
 * ended and an absent opener is never searched again, so a whole chain costs one pass per
 * opener instead of one pass per envelope.
 */
export class EnvelopeOpeners {
  private readonly next: number[];
  constructor(private readonly text: string) {
    this.next = ENVELOPE_OPENERS.map(() => -2);
  }

  /** Openers never share a start, so there are no ties. */
  earliest(from: number): { opener: Opener; at: number } | null {
    // perf: a plain loop with the best index kept as a number (no closure, one object at the
    // end); part of the per-piece setup cut measured in compose/earliest-needle.ts.
    let bestAt = -1;
    let bestK = -1;
    for (let k = 0; k < ENVELOPE_OPENERS.length; k++) {
      let at = this.next[k]!;
      if (at === -1) continue;
      if (at < from) {
        at = this.text.indexOf(ENVELOPE_OPENERS[k]!.open, from);
        this.next[k] = at;
        if (at < 0) continue;
      }
      if (bestAt < 0 || at < bestAt) {
        bestAt = at;
        bestK = k;
      }
    }
    return bestK < 0 ? null : { opener: ENVELOPE_OPENERS[bestK]!, at: bestAt };
  }
}

function matched(calls: ToolCall[], prose: string, trailing: string, ctx: ComposeContext): EnvelopeMatch {
  return {
    result: providerResult(calls, [], prose, [violation('wrong_tool_format', laneMessagesFor(ctx.profile).envelopeOnJsonPin)]),
    malformed: false,
    prose,
    trailing,
  };
}

function malformed(detail: string, prose: string, ctx: ComposeContext): EnvelopeMatch {
  return {
    result: { ...emptyLane(), tool_parse_errors: [laneMessagesFor(ctx.profile).envelopeMalformed(detail)], prose },
    malformed: true,
    prose,
    trailing: null,
  };
}

export function readEnvelope(text: string, ctx: ComposeContext, bodyLadder: BodyLadder): EnvelopeMatch | null {
  return readEnvelopeAt(text, 0, ctx, bodyLadder, new EnvelopeOpeners(text));
}

/**
 * `readEnvelope` over `text.slice(start)` without copying it, sharing `openers` across calls
 * on the same text (the envelope chain of the JSON lane).
 */
export function readEnvelopeAt(text: string, start: number, ctx: ComposeContext, bodyLadder: BodyLadder, openers: EnvelopeOpeners): EnvelopeMatch | null {
  const found = openers.earliest(start);
  if (found === null) return null;
  const { opener, at } = found;
  const prose = text.slice(start, at).trim();
  const rawBody = text.slice(at + opener.open.length);

  if (opener.kind === 'tool_calls') {
    const read = readToolCallsEnvelope(rawBody, ctx.marks);
    return read.ok ? matched(read.calls, prose, read.rest, ctx) : malformed(read.detail, prose, ctx);
  }

  let jsonBody: string | null = rawBody;
  let nameHint = '';
  if (opener.kind === 'tool_call') {
    const labelled = labelBody(rawBody);
    jsonBody = labelled.ok ? labelled.body : null;
    if (labelled.ok) nameHint = labelled.nameHint;
  }
  if (jsonBody === null) {
    // `<tool_use>run({ ... })</tool_use>`: let the tagged ladder read the body. A bare
    // `<tool_call>` block is the tagged lane's own grammar, never an envelope's.
    if (opener.open === TAG_LITERALS.tool_call_open) return null;
    const closeAt = rawBody.indexOf(opener.close);
    if (closeAt < 0) return null;
    const outcome = bodyLadder(rawBody.slice(0, closeAt).trim(), ctx);
    if (!outcome.ok || !outcome.call) return null;
    const written = text.slice(at, at + opener.open.length + closeAt + opener.close.length);
    return matched([ctx.marks.writtenAs(outcome.call, written)], prose, rawBody.slice(closeAt + opener.close.length).trim(), ctx);
  }
  const read = readJsonListEnvelope(jsonBody, nameHint, opener.close, ctx.marks);
  return read.ok ? matched(read.calls, prose, read.trailing, ctx) : malformed(read.detail, prose, ctx);
}
