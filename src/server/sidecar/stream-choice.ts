/**
 * One choice of a streamed completion, relayed: the upstream's `delta.content` goes through the
 * stream parser and comes out as `OpenAIChunkEncoder` chunks (prose, reasoning, parsed calls);
 * the upstream's own `delta.reasoning_content` and `delta.tool_calls` pass straight through.
 *
 * Tool call indexes: the upstream numbers its calls, the parser numbers its own, both from 0.
 * Each call gets the next free index of the answer when it first appears, whichever side made it.
 * A parsed call is held back until complete only while the upstream has sent calls of its own,
 * so it can be left out when it restates one of them (held-calls.ts); otherwise its fragments
 * go out as the parser releases them.
 */
import { createStreamParser, OpenAIChunkEncoder, type ChunkIdentity, type OpenAIChunk, type StreamEvent, type StreamParser } from '../../compose/index.js';
import type { ParseResult } from '../../compose/types.js';
import { emptyDiagnostics, type ChoiceDiagnostics } from './diagnostics.js';
import { isHeld, keyOfHeld } from './held-calls.js';

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
  content?: unknown;
  reasoning_content?: unknown;
  tool_calls?: unknown;
}

interface HeldAccumulator {
  name: string;
  arguments: string;
}

export class ChoiceRelay {
  private readonly parser: StreamParser;
  private readonly encoder: OpenAIChunkEncoder;
  private nextIndex = 0;
  private readonly parsedIndex = new Map<number, number>();
  private readonly upstreamIndex = new Map<number, number>();
  private readonly held = new Map<number, HeldAccumulator>();
  /** Parsed calls held back (see above), by the parser's index. */
  private readonly waiting = new Map<number, StreamEvent[]>();
  readonly diagnostics: ChoiceDiagnostics;
  finished = false;

  constructor(readonly index: number, private readonly identity: ChunkIdentity, tools: unknown[], callIdStart: number) {
    this.parser = createStreamParser({ tools, profile: 'gateway', call_id_start: callIdStart });
    this.encoder = new OpenAIChunkEncoder(identity);
    this.diagnostics = emptyDiagnostics(index);
  }

  /** The opening chunk: the role, and no text yet. */
  open(out: OutChunk[]): void {
    this.encode([{ type: 'text', text: '' }], out);
  }

  private passThrough(delta: Record<string, unknown>): OutChunk {
    const { id, created, model } = this.identity;
    return { id, object: 'chat.completion.chunk', created, model, choices: [{ index: this.index, delta, finish_reason: null }] };
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

  /** The parser's events, calls renumbered, restatements of upstream calls left out. */
  private relay(events: readonly StreamEvent[], out: OutChunk[]): void {
    for (const event of events) {
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

  private upstreamCalls(calls: readonly UpstreamToolCallDelta[], out: OutChunk[]): void {
    const renumbered: UpstreamToolCallDelta[] = [];
    for (const call of calls) {
      const own = typeof call.index === 'number' ? call.index : 0;
      let index = this.upstreamIndex.get(own);
      if (index === undefined) {
        index = this.nextIndex++;
        this.upstreamIndex.set(own, index);
        this.held.set(own, { name: '', arguments: '' });
        this.diagnostics.upstream_calls++;
      }
      const acc = this.held.get(own)!;
      if (typeof call.function?.name === 'string') acc.name += call.function.name;
      if (typeof call.function?.arguments === 'string') acc.arguments += call.function.arguments;
      renumbered.push({ ...call, index });
    }
    out.push(this.passThrough({ tool_calls: renumbered }));
  }

  /** One upstream delta of this choice. */
  delta(delta: UpstreamDelta, out: OutChunk[]): void {
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') out.push(this.passThrough({ reasoning_content: delta.reasoning_content }));
    if (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) this.upstreamCalls(delta.tool_calls as UpstreamToolCallDelta[], out);
    if (typeof delta.content === 'string' && delta.content !== '') this.relay(this.parser.push(delta.content), out);
  }

  /**
   * The choice's end: the parser's remaining events, then the final chunk. `upstreamReason` is
   * the upstream's finish_reason (`length` when its stream broke off); a cut-off answer stays
   * `length`, one with calls is `tool_calls`, anything else keeps the upstream's reason.
   */
  finish(upstreamReason: string, out: OutChunk[], extension: ((d: ChoiceDiagnostics) => Record<string, unknown>) | null): void {
    if (this.finished) return;
    this.finished = true;
    const end = this.parser.end();
    this.relay(end.events, out);
    const result = end.result as ParseResult;
    this.diagnostics.dropped = result.dropped;
    this.diagnostics.recovered_from_stray_count = result.recovered_from_stray_count;
    const calls = this.diagnostics.parsed_calls + this.diagnostics.upstream_calls;
    const reason = upstreamReason === 'length' ? 'length' : calls > 0 ? 'tool_calls' : upstreamReason;
    const last = this.encoder.finish('stop');
    const choice = last.choices[0] as { index: number; finish_reason: string };
    choice.index = this.index;
    choice.finish_reason = reason;
    out.push(extension === null ? last : { ...last, ...extension(this.diagnostics) });
  }
}
