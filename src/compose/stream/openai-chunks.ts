/**
 * Stream events as OpenAI `chat.completion.chunk` objects, the body of each server-sent event
 * of a streamed chat completion: `delta.content` for prose, `delta.reasoning_content` for
 * reasoning, `delta.tool_calls` for calls (the first fragment of a call carries its `id`, `type`
 * and name, the later ones only `function.arguments`), then a chunk with `finish_reason`.
 */
import type { StreamEvent } from './events.js';

export interface OpenAIChunkToolCall {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

export interface OpenAIChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  tool_calls?: OpenAIChunkToolCall[];
}

export interface OpenAIChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint?: string;
  choices: [{ index: 0; delta: OpenAIChunkDelta; finish_reason: 'stop' | 'tool_calls' | 'length' | null }];
}

export type FinishReason = 'stop' | 'tool_calls' | 'length';

export interface ChunkIdentity {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  /** The upstream's, where a relayed stream had one: every chunk carries it, as OpenAI's do. */
  readonly system_fingerprint?: string;
}

/** Turns one stream's events into chunks; remembers whether the role was sent and if a call was seen. */
export class OpenAIChunkEncoder {
  private started = false;
  private calls = 0;

  constructor(private readonly identity: ChunkIdentity) {}

  private chunk(delta: OpenAIChunkDelta, finish: OpenAIChunk['choices'][0]['finish_reason'] = null): OpenAIChunk {
    if (!this.started) {
      this.started = true;
      delta = { role: 'assistant', ...delta };
    }
    const { id, created, model, system_fingerprint: fingerprint } = this.identity;
    const chunk: OpenAIChunk = { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] };
    if (fingerprint !== undefined) chunk.system_fingerprint = fingerprint;
    return chunk;
  }

  /** The chunks for `events` (diagnostics and `call_end` make none). */
  encode(events: readonly StreamEvent[], out: OpenAIChunk[] = []): OpenAIChunk[] {
    for (const event of events) {
      switch (event.type) {
        case 'text':
          out.push(this.chunk({ content: event.text }));
          break;
        case 'reasoning':
          out.push(this.chunk({ reasoning_content: event.text }));
          break;
        case 'call_start':
          this.calls++;
          out.push(this.chunk({ tool_calls: [{ index: event.index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] }));
          break;
        case 'call_arguments_delta':
          out.push(this.chunk({ tool_calls: [{ index: event.index, function: { arguments: event.delta } }] }));
          break;
        default:
          break;
      }
    }
    return out;
  }

  /** The last chunk: `tool_calls` when the stream held a call, else `stop` (or the reason given). */
  finish(reason?: FinishReason): OpenAIChunk {
    return this.chunk({}, reason ?? (this.calls > 0 ? 'tool_calls' : 'stop'));
  }
}
