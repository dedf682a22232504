/**
 * A streamed chat completion, relayed as it arrives. The upstream's server-sent events are read
 * with eventsource-parser (maintained, spec-complete: it handles events split across reads, CR/LF
 * line ends, comments and multi-line data, which a hand-written splitter gets wrong), each
 * `chat.completion.chunk` goes to its choice's relay, and the answer is written as server-sent
 * events again, ending with `data: [DONE]`.
 *
 * When the upstream's stream ends without `[DONE]` (it broke off, or stalled past
 * UPSTREAM_TIMEOUT_MS), every unfinished choice is closed with what was found so far and a final
 * chunk with `finish_reason: "length"`, then `[DONE]`.
 */
import { randomUUID } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ChoiceDiagnostics } from './diagnostics.js';
import { DIAGNOSTICS_FIELD } from './diagnostics.js';
import type { ChunkIdentity } from '../../compose/stream/openai-chunks.js';
import { ChoiceRelay, type OutChunk, type ParseWhole, type UpstreamDelta } from './stream-choice.js';

export interface StreamRelayOptions {
  /** The upstream's body, as it arrives. */
  body: AsyncIterable<Uint8Array>;
  tools: unknown[];
  callIdStart: number;
  /** Put the diagnostics in each choice's final chunk. */
  diagnosticsInBody: boolean;
  /** Where each choice's whole text is parsed at its end (see stream-choice.ts); null: here. */
  parseWhole: ParseWhole | null;
  /** `reasoning_started` for every choice (UPSTREAM_REASONING_STARTED); undefined: the text says. */
  reasoningStarted?: boolean;
}

export interface StreamSummary {
  choices: ChoiceDiagnostics[];
  /** `done`: the upstream ended with [DONE]; `cut`: it ended (or failed) without it; `error`: it sent an error event. */
  ending: 'done' | 'cut' | 'error';
  /** What ended the upstream's body early, for the log. */
  failure: unknown;
}

interface UpstreamChunk {
  id?: unknown;
  created?: unknown;
  model?: unknown;
  system_fingerprint?: unknown;
  choices?: unknown;
  usage?: unknown;
  error?: unknown;
}

interface UpstreamChoice {
  index?: unknown;
  delta?: UpstreamDelta;
  finish_reason?: unknown;
  logprobs?: unknown;
}

const frame = (chunk: OutChunk): string => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`;

/**
 * Yields the answer's server-sent events, a batch per piece of the upstream's body; `summary`
 * is filled in when the generator finishes.
 */
export async function* relayStream(options: StreamRelayOptions, summary: StreamSummary): AsyncGenerator<string> {
  const relays = new Map<number, ChoiceRelay>();
  let identity: ChunkIdentity = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: '' };
  let seenIdentity = false;
  let done = false;
  let errored = false;
  const out: OutChunk[] = [];
  const extension = options.diagnosticsInBody ? (d: ChoiceDiagnostics) => ({ [DIAGNOSTICS_FIELD]: [d] }) : null;

  const relayOf = (index: number): ChoiceRelay => {
    let relay = relays.get(index);
    if (relay === undefined) {
      relay = new ChoiceRelay(index, identity, options.tools, options.callIdStart, options.parseWhole, options.reasoningStarted);
      relays.set(index, relay);
      relay.open(out);
    }
    return relay;
  };

  const onChunk = async (data: string): Promise<void> => {
    let chunk: UpstreamChunk;
    try {
      chunk = JSON.parse(data) as UpstreamChunk;
    } catch {
      // Not JSON: not ours to read; the client gets it as sent.
      out.push(data);
      return;
    }
    if (chunk === null || typeof chunk !== 'object') {
      out.push(data);
      return;
    }
    if (!seenIdentity && typeof chunk.id === 'string') {
      seenIdentity = true;
      identity = {
        id: chunk.id,
        created: typeof chunk.created === 'number' ? chunk.created : identity.created,
        model: typeof chunk.model === 'string' ? chunk.model : '',
        ...(typeof chunk.system_fingerprint === 'string' ? { system_fingerprint: chunk.system_fingerprint } : {}),
      };
    }
    if (chunk.error !== undefined) {
      // An error event (vLLM sends one mid-stream) ends the answer: each choice's text so far
      // goes out first, in its order, then the error as sent; no choice gets a final chunk.
      for (const relay of relays.values()) await relay.abandon(out);
      out.push(data);
      errored = true;
      done = true;
      return;
    }
    if (!Array.isArray(chunk.choices)) {
      // A chunk that is not a delta: passed on.
      out.push(data);
      return;
    }
    for (const choice of chunk.choices as UpstreamChoice[]) {
      const relay = relayOf(typeof choice.index === 'number' ? choice.index : 0);
      if (relay.finished) continue;
      if (choice.delta !== undefined && choice.delta !== null) relay.delta(choice.delta, out);
      if (choice.logprobs !== undefined && choice.logprobs !== null) relay.logprobs(choice.logprobs, out);
      if (typeof choice.finish_reason === 'string') await relay.finish(choice.finish_reason, out, extension);
    }
    if (chunk.usage !== undefined && chunk.usage !== null) {
      out.push({ ...identity, object: 'chat.completion.chunk', choices: [], usage: chunk.usage });
    }
  };

  // Events are queued as the parser finds them and handled after each feed, in order: a
  // choice's end may wait for the parse pool.
  const queued: string[] = [];
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (done) return;
      if (event.data.trim() === '[DONE]') {
        done = true;
        return;
      }
      queued.push(event.data);
    },
  });
  const handleQueued = async (): Promise<void> => {
    for (const data of queued.splice(0)) {
      if (errored) break;
      await onChunk(data);
    }
  };

  /** The frames of what the last piece of the body produced, in order. */
  const drain = (): string => {
    let text = '';
    for (const chunk of out) text += frame(chunk);
    out.length = 0;
    return text;
  };

  const decoder = new TextDecoder();
  try {
    for await (const piece of options.body) {
      parser.feed(decoder.decode(piece, { stream: true }));
      await handleQueued();
      const text = drain();
      if (text !== '') yield text;
      if (done) break;
    }
    parser.feed(decoder.decode());
    await handleQueued();
  } catch (error) {
    summary.failure = error;
  }
  summary.ending = errored ? 'error' : done ? 'done' : 'cut';
  // A stream that said nothing at all still answers one choice, so the client sees an ending.
  if (relays.size === 0 && !errored) relayOf(0);
  for (const relay of relays.values()) await relay.finish(done ? 'stop' : 'length', out, extension);
  summary.choices = [...relays.values()].map((relay) => relay.diagnostics);
  yield drain() + frame('[DONE]');
}
