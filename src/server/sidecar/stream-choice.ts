/**
 * One choice of a streamed completion, relayed: the upstream's `delta.content` goes through the
 * stream parser and comes out as `OpenAIChunkEncoder` chunks (prose, reasoning, parsed calls);
 * the upstream's own `delta.tool_calls` and its other delta fields (`reasoning_content`, vLLM's
 * `reasoning`) pass straight through.
 *
 * Tool call indexes: the upstream numbers its calls, the parser numbers its own, both from 0.
 * Each call gets the next free index of the answer when it first appears, whichever side made it.
 * A parsed call is held back until complete only while the upstream has sent calls of its own,
 * so it can be left out when it restates one of them (held-calls.ts); otherwise its fragments
 * go out as the parser releases them. An upstream call is gathered until whole and left out
 * when it restates a parsed call already sent, so a restatement is caught whichever came first.
 *
 * The end: the whole text's one parse runs through `parseWhole` when given (the service's
 * dispatch: the parse pool for a large text, so it does not hold the HTTP thread), and what the
 * parser's events have not said yet is taken from its result. That is exact because a stream's
 * events are never taken back and concatenate to the final result (prose, reasoning, each
 * call's arguments as JSON text, calls in order). Without `parseWhole`, or when it fails, the
 * parser's own `end()` does the parse here.
 */
import { createStreamParser, OpenAIChunkEncoder, type ChunkIdentity, type OpenAIChunk, type StreamEvent, type StreamParser } from '../../compose/index.js';
import type { ParseResult } from '../../compose/types.js';
import { emptyDiagnostics, type ChoiceDiagnostics } from './diagnostics.js';
import { isHeld, keyOfHeld, type CallKey } from './held-calls.js';

/** A chunk of the answer; a string is an upstream event's data passed on as it came. */
export type OutChunk = OpenAIChunk | Record<string, unknown> | string;

interface UpstreamToolCallDelta {
  index?: unknown;
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
  [key: string]: unknown;
}

export interface UpstreamDelta {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  /** Any other field (`reasoning_content`, vLLM's `reasoning`, `refusal` ...): passed on as it came. */
  [field: string]: unknown;
}

interface HeldAccumulator {
  name: string;
  arguments: string;
}

/**
 * The whole text's parse elsewhere (the parse pool): its result; `gone` when no one is left to
 * answer (the client went away); `failed` when the parse itself failed there (past
 * TASK_TIMEOUT_MS, a crash, an answer over MAX_RESPONSE_BYTES), which running it here would
 * only repeat on the HTTP thread; rejects when the pool could not take it (full, closing).
 */
export type ParseWhole = (text: string, callIdStart: number) => Promise<ParseResult | 'gone' | 'failed'>;

/** What a parse that was not run leaves: nothing more said, nothing to report. */
const NOT_PARSED: ParseResult = {
  calls: [], prose: '', reasoning: null, user_response: null, done_marker: null, canonical_text: '',
  tool_parse_errors: [], protocol_violations: [], dropped: [], recovered_from_stray_count: 0,
};

/** What the parser's events have said so far. */
interface Said {
  text: number;
  reasoning: number;
  /** Argument characters said, by the parser's call index (present once the call started). */
  calls: Map<number, number>;
  ended: Set<number>;
}

/** The events `result` holds beyond `said`: reasoning, prose, then each call's rest, then diagnostics. */
function remainderEvents(result: ParseResult, said: Said): StreamEvent[] {
  const events: StreamEvent[] = [];
  const reasoning = result.reasoning ?? '';
  if (reasoning.length > said.reasoning) events.push({ type: 'reasoning', text: reasoning.slice(said.reasoning) });
  if (result.prose.length > said.text) events.push({ type: 'text', text: result.prose.slice(said.text) });
  result.calls.forEach((call, index) => {
    if (said.ended.has(index)) return;
    const json = JSON.stringify(call.arguments);
    const sent = said.calls.get(index);
    if (sent === undefined) events.push({ type: 'call_start', index, id: call.id, name: call.name });
    if (json.length > (sent ?? 0)) events.push({ type: 'call_arguments_delta', index, delta: json.slice(sent ?? 0) });
    events.push({ type: 'call_end', index, call });
  });
  for (const message of result.tool_parse_errors) events.push({ type: 'error', message });
  for (const violation of result.protocol_violations) events.push({ type: 'violation', violation });
  return events;
}

export class ChoiceRelay {
  private readonly parser: StreamParser;
  private readonly encoder: OpenAIChunkEncoder;
  private nextIndex = 0;
  private readonly parsedIndex = new Map<number, number>();
  private readonly upstreamIndex = new Map<number, number>();
  private readonly held = new Map<number, HeldAccumulator>();
  /** The upstream call being gathered (see `upstreamCalls`). */
  private gathering: { own: number; first: UpstreamToolCallDelta; name: string; arguments: string } | null = null;
  /** The calls read from the text and sent, to leave out an upstream call that restates one. */
  private readonly sentParsed: CallKey[] = [];
  /** Parsed calls held back (see above), by the parser's index. */
  private readonly waiting = new Map<number, StreamEvent[]>();
  private readonly said: Said = { text: 0, reasoning: 0, calls: new Map(), ended: new Set() };
  /** The text as it came, for `parseWhole` (the parser keeps its own copy and does not show it). */
  private readonly text: string[] = [];
  readonly diagnostics: ChoiceDiagnostics;
  finished = false;

  constructor(
    readonly index: number,
    private readonly identity: ChunkIdentity,
    tools: unknown[],
    private readonly callIdStart: number,
    private readonly parseWhole: ParseWhole | null = null,
    reasoningStarted?: boolean,
  ) {
    this.parser = createStreamParser({ tools, profile: 'gateway', call_id_start: callIdStart, ...(reasoningStarted === undefined ? {} : { reasoning_started: reasoningStarted }) });
    this.encoder = new OpenAIChunkEncoder(identity);
    this.diagnostics = emptyDiagnostics(index);
  }

  /** The opening chunk: the role, and no text yet. */
  open(out: OutChunk[]): void {
    this.encode([{ type: 'text', text: '' }], out);
  }

  private passThrough(delta: Record<string, unknown>, logprobs?: unknown): OutChunk {
    const choice = logprobs === undefined ? { index: this.index, delta, finish_reason: null } : { index: this.index, delta, logprobs, finish_reason: null };
    return { ...this.identity, object: 'chat.completion.chunk', choices: [choice] };
  }

  /**
   * The upstream's log probabilities of this choice's tokens, in a chunk of their own as they
   * come: the text they score is re-cut into prose, reasoning and calls (and may go out later,
   * once it is read), so they cannot ride on its chunks; a client joins `logprobs.content` across chunks.
   */
  logprobs(logprobs: unknown, out: OutChunk[]): void {
    out.push(this.passThrough({}, logprobs));
  }

  private encode(events: readonly StreamEvent[], out: OutChunk[]): void {
    for (const chunk of this.encoder.encode(events)) {
      const choice = chunk.choices[0] as { index: number; delta: OpenAIChunk['choices'][0]['delta'] };
      choice.index = this.index;
      for (const call of choice.delta.tool_calls ?? []) call.index = this.parsedIndex.get(call.index) ?? call.index;
      out.push(chunk);
    }
  }

  private assign(parserIndex: number): void {
    if (!this.parsedIndex.has(parserIndex)) this.parsedIndex.set(parserIndex, this.nextIndex++);
  }

  private note(event: StreamEvent): void {
    const said = this.said;
    if (event.type === 'text') said.text += event.text.length;
    else if (event.type === 'reasoning') said.reasoning += event.text.length;
    else if (event.type === 'call_start') said.calls.set(event.index, 0);
    else if (event.type === 'call_arguments_delta') said.calls.set(event.index, (said.calls.get(event.index) ?? 0) + event.delta.length);
    else if (event.type === 'call_end') said.ended.add(event.index);
  }

  /** The parser's events, calls renumbered, restatements of upstream calls left out. */
  private relay(events: readonly StreamEvent[], out: OutChunk[]): void {
    for (const event of events) {
      this.note(event);
      switch (event.type) {
        case 'call_start':
          if (this.held.size > 0) {
            this.waiting.set(event.index, [event]);
          } else {
            this.assign(event.index);
            this.encode([event], out);
          }
          break;
        case 'call_arguments_delta': {
          const waiting = this.waiting.get(event.index);
          if (waiting !== undefined) waiting.push(event);
          else this.encode([event], out);
          break;
        }
        case 'call_end': {
          const waiting = this.waiting.get(event.index);
          this.waiting.delete(event.index);
          if (waiting !== undefined && isHeld(event.call, [...this.held.values()].map((h) => keyOfHeld({ function: h })))) {
            this.diagnostics.duplicate_calls++;
            break;
          }
          this.diagnostics.parsed_calls++;
          this.sentParsed.push({ name: event.call.name, arguments: event.call.arguments });
          if (waiting !== undefined) {
            this.assign(event.index);
            this.encode(waiting, out);
          }
          break;
        }
        case 'error':
          this.diagnostics.tool_parse_errors.push(event.message);
          break;
        case 'violation':
          this.diagnostics.protocol_violations.push(event.violation);
          break;
        default:
          this.encode([event], out);
      }
    }
  }

  /**
   * The upstream's call deltas. A call is gathered until it is whole (the next call begins, the
   * text goes on, or the choice ends), then goes out in one chunk, unchanged, unless it restates
   * a call already read from the text and sent (a server that parsed and also left the markup
   * in its text): a client must never run one call twice.
   */
  private upstreamCalls(calls: readonly UpstreamToolCallDelta[], out: OutChunk[]): void {
    for (const call of calls) {
      const own = typeof call.index === 'number' ? call.index : 0;
      if (this.gathering !== null && this.gathering.own !== own) this.flushUpstream(out);
      if (this.gathering === null) {
        this.gathering = { own, first: { ...call }, name: '', arguments: '' };
        this.held.set(own, { name: '', arguments: '' });
      }
      const acc = this.held.get(own)!;
      if (typeof call.function?.name === 'string') acc.name += call.function.name;
      if (typeof call.function?.arguments === 'string') acc.arguments += call.function.arguments;
    }
  }

  private flushUpstream(out: OutChunk[]): void {
    const gathering = this.gathering;
    if (gathering === null) return;
    this.gathering = null;
    const acc = this.held.get(gathering.own)!;
    const key = keyOfHeld({ function: acc });
    if (key !== null && isHeld(key, this.sentParsed)) {
      this.held.delete(gathering.own);
      this.diagnostics.duplicate_calls++;
      return;
    }
    let index = this.upstreamIndex.get(gathering.own);
    if (index === undefined) {
      index = this.nextIndex++;
      this.upstreamIndex.set(gathering.own, index);
    }
    this.diagnostics.upstream_calls++;
    const fn = { ...(gathering.first.function ?? {}), name: acc.name, arguments: acc.arguments };
    out.push(this.passThrough({ tool_calls: [{ ...gathering.first, index, function: fn }] }));
  }

  /**
   * One upstream delta of this choice. Its fields other than the text, the calls and the role
   * (the encoder's first chunk says it) go on as they came, in one chunk: the upstream's own
   * reasoning, whether it names it `reasoning_content` or, as vLLM does since it renamed it,
   * `reasoning`, reaches the client as it does in a whole answer, where every other field of the
   * message is kept. Empty ones (`refusal: null`, `reasoning: ""`) say nothing and are left out.
   */
  delta(delta: UpstreamDelta, out: OutChunk[]): void {
    const { role: _role, content, tool_calls: calls, ...rest } = delta;
    const other: Record<string, unknown> = {};
    let others = 0;
    for (const [field, value] of Object.entries(rest)) {
      if (value === null || value === undefined || value === '') continue;
      other[field] = value;
      others++;
    }
    if (others > 0) out.push(this.passThrough(other));
    if (Array.isArray(calls) && calls.length > 0) this.upstreamCalls(calls as UpstreamToolCallDelta[], out);
    if (typeof content === 'string' && content !== '') {
      this.flushUpstream(out);
      if (this.parseWhole !== null) this.text.push(content);
      this.relay(this.parser.push(content), out);
    }
  }

  /** The whole text's parse, its events not said yet relayed; the result. */
  private async endParse(out: OutChunk[]): Promise<ParseResult> {
    if (this.parseWhole !== null) {
      try {
        const text = this.text.join('');
        const result = await this.parseWhole(text, this.callIdStart);
        if (result === 'gone') return NOT_PARSED;
        if (result === 'failed') {
          // Nothing is dropped silently: a text the parse could not read goes on as it came
          // (when nothing of it was said yet), with the failure in the diagnostics.
          const message = 'tool-parse could not parse this text (the parse failed or ran past TASK_TIMEOUT_MS); it is passed on unparsed';
          this.relay([...(this.said.text === 0 && this.said.calls.size === 0 ? [{ type: 'text' as const, text }] : []), { type: 'error', message }], out);
          return NOT_PARSED;
        }
        this.relay(remainderEvents(result, this.said), out);
        return result;
      } catch {
        // The pool could not take it (full, closing, timed out): parsed here instead.
      }
    }
    const end = this.parser.end();
    this.relay(end.events, out);
    return end.result as ParseResult;
  }

  /**
   * The choice cut short by the upstream's error event: what the text said so far, which the
   * parser still held, goes out before the error, and no final chunk follows (the error ends
   * the answer, as OpenAI's stream ends at one). False when the choice had already ended.
   */
  async abandon(out: OutChunk[]): Promise<boolean> {
    if (this.finished) return false;
    this.finished = true;
    const result = await this.endParse(out);
    this.flushUpstream(out);
    this.diagnostics.dropped = result.dropped;
    this.diagnostics.recovered_from_stray_count = result.recovered_from_stray_count;
    return true;
  }

  /**
   * The choice's end: the parser's remaining events, then the final chunk. `upstreamReason` is
   * the upstream's finish_reason (`length` when its stream broke off); a cut-off answer stays
   * `length`, one with calls is `tool_calls`, anything else keeps the upstream's reason.
   */
  async finish(upstreamReason: string, out: OutChunk[], extension: ((d: ChoiceDiagnostics) => Record<string, unknown>) | null): Promise<void> {
    // The text's end as when the answer is cut short, then the final chunk.
    if (!(await this.abandon(out))) return;
    const calls = this.diagnostics.parsed_calls + this.diagnostics.upstream_calls;
    const reason = upstreamReason === 'length' ? 'length' : calls > 0 ? 'tool_calls' : upstreamReason;
    const last = this.encoder.finish('stop');
    const choice = last.choices[0] as { index: number; finish_reason: string };
    choice.index = this.index;
    choice.finish_reason = reason;
    out.push(extension === null ? last : { ...last, ...extension(this.diagnostics) });
  }
}
