/**
 * Response tags and the pending-response rule (docs/design.md, "Pending responses").
 *
 * A response tag without its close arrives as a `tag` unit; the text that follows is its body
 * until some other kind of unit interrupts it:
 *
 *   <user_response>All done.\n<done>##DONE##</done>
 *   ^ pending      ^ pending_prose  ^ interrupts: unclosed_response, then handled normally
 */
import type { Unit } from '../scan/types.js';
import { DIALECTS } from '../dialects/index.js';
import { consume, structural, type WalkState } from './funnel.js';
import { messagesFor } from './messages.js';
import type { ComposeContext } from './context.js';

export type ResponseRole = 'assistant_prose' | 'user_response' | 'done';

const ROLE_BY_SPELLING: ReadonlyMap<string, ResponseRole> = new Map(
  DIALECTS.TAGGED_DIALECT.filter((d) => d.canonical !== 'tool_call').flatMap((d) =>
    d.spellings.map((s) => [s, d.canonical as ResponseRole] as const),
  ),
);

const CALL_TAGS: ReadonlySet<string> = new Set(DIALECTS.TAGGED_DIALECT.find((d) => d.canonical === 'tool_call')?.spellings ?? []);

/** The response role of a tag spelling, or null for call tags and anything else. */
export function responseRole(spelling: string): ResponseRole | null {
  return ROLE_BY_SPELLING.get(spelling) ?? null;
}

export function isUserResponseSpelling(spelling: string): boolean {
  return ROLE_BY_SPELLING.get(spelling) === 'user_response';
}

export function isCallTag(tag: string): boolean {
  return CALL_TAGS.has(tag);
}

export function isTextKind(unit: Unit): unit is Extract<Unit, { kind: 'text' | 'fenced_line' | 'harmony_line' }> {
  return unit.kind === 'text' || unit.kind === 'fenced_line' || unit.kind === 'harmony_line';
}

/**
 * Handles `unit` while a response is pending. Returns true when the unit was consumed as the
 * pending body; false when it interrupted the response (the caller then handles it normally).
 */
export function handlePending(state: WalkState, unit: Unit, ctx: ComposeContext): boolean {
  const spelling = state.pendingResponse;
  if (spelling === null) return false;
  if (isTextKind(unit)) {
    const body = unit.text.trim();
    if (body === '') {
      consume(state, unit, structural('empty_text'));
      return true;
    }
    state.prose.push(body);
    state.canonical.push({ kind: 'prose', text: body });
    consume(state, unit, structural('pending_prose'));
    return true;
  }
  state.violations.push({ kind: 'unclosed_response', message: messagesFor(ctx.profile).unclosedResponse(spelling), excerpt: null, dropped_reason: null });
  state.unclosedResponseProse = isUserResponseSpelling(spelling);
  state.pendingResponse = null;
  return false;
}
