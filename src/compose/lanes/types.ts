/** Shapes exchanged between the lanes of this directory and their callers. */
import type { ComposeContext } from '../context.js';
import type { LaneResult, ToolCall } from '../types.js';

/**
 * The tagged body ladder as the envelope reader sees it (`callFromBody(body, ctx)` with no
 * head). Only `ok` and `call` are read: a direct envelope body counts only when it yields a call.
 */
export type BodyLadder = (body: string, ctx: ComposeContext) => { ok: boolean; call?: ToolCall | null | undefined };

/** Parses a leading or trailing remainder of an envelope with the caller's lane. */
export type RemainderLane = (text: string) => LaneResult;

/**
 * The caller lane's decision on a trailing remainder: the envelope it would take first on that
 * text (a match with calls), or null when it would read the text some other way.
 */
export type NextEnvelope = (trailing: string) => EnvelopeMatch | null;

/** A located chat-template envelope (docs/design.md, "Envelopes"). */
export interface EnvelopeMatch {
  /**
   * The envelope's own result: its calls with a `wrong_tool_format` violation, or, when the
   * envelope is malformed, no calls and one `tool_parse_errors` entry.
   */
  result: LaneResult;
  /** True when `result` carries the malformed-envelope error instead of calls. */
  malformed: boolean;
  /** Text before the opener, trimmed. */
  prose: string;
  /** Text after the envelope, trimmed (a suffix of the input); null for a malformed envelope. */
  trailing: string | null;
}

/**
 * A whole lane over one text. The tagged lane reaches the JSON lane through this shape, passed
 * in by the caller, so the lanes do not import each other.
 */
export type TextLane = (text: string, ctx: ComposeContext) => LaneResult;

export interface JsonLaneOptions {
  /**
   * Hand `<tool_call>` markup to this tagged lane first (heredoc recovery; only the pinned JSON
   * lane passes one). Absent: the markup is read as JSON-lane text.
   */
  taggedLane?: TextLane;
}
