/**
 * The one-shot invariant of a stream, as a list of what broke (empty when it holds): `end()`
 * returns exactly `parseToolCalls(text)`, and the events spell that result out in order.
 */
import { isDeepStrictEqual } from 'node:util';
import { createStreamParser, parseToolCalls, type ParseOptions, type ParseResult, type StreamEvent } from '../../src/index.js';
import { streamAudit, streamDivergence } from '../../src/internals.js';

// Every stream a test makes keeps what it said, so `end()` can tell where an event it sent is
// not in the final result (the remaining events would only say what follows it).
streamAudit.on = true;

export interface Streamed {
  readonly events: StreamEvent[];
  readonly result: unknown;
  /** For each event, the number of chunks pushed when it came (end() counts as one more). */
  readonly at: number[];
  /** What the stream said that its final result does not have (its audit at `end()`). */
  readonly divergence: readonly string[];
}

export function streamChunks(chunks: readonly string[], options: ParseOptions): Streamed {
  const stream = createStreamParser(options);
  const events: StreamEvent[] = [];
  const at: number[] = [];
  chunks.forEach((chunk, i) => {
    for (const e of stream.push(chunk)) {
      events.push(e);
      at.push(i + 1);
    }
  });
  const end = stream.end();
  for (const e of end.events) {
    events.push(e);
    at.push(chunks.length + 1);
  }
  return { events, result: end.result, at, divergence: streamDivergence(stream) ?? [] };
}

export function invariantFailures(text: string, chunks: readonly string[], options: ParseOptions): string[] {
  const failures: string[] = [];
  const one = parseToolCalls(text, options) as ParseResult;
  const { events, result, divergence } = streamChunks(chunks, options);
  for (const d of divergence) failures.push(`said before end(): ${d}`);
  if (!isDeepStrictEqual(result, one)) failures.push('end() result differs from parseToolCalls');
  const prose = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
  if (prose !== one.prose) failures.push(`text events ${JSON.stringify(prose)} != prose ${JSON.stringify(one.prose)}`);
  const reasoning = events.flatMap((e) => (e.type === 'reasoning' ? [e.text] : [])).join('');
  if (reasoning !== (one.reasoning ?? '')) failures.push(`reasoning events ${JSON.stringify(reasoning)} != ${JSON.stringify(one.reasoning ?? '')}`);
  const ended = events.flatMap((e) => (e.type === 'call_end' ? [e.call] : []));
  if (!isDeepStrictEqual(ended, one.calls)) failures.push(`call_end calls ${JSON.stringify(ended)} != ${JSON.stringify(one.calls)}`);
  const args = new Map<number, string>();
  let open = -1;
  for (const e of events) {
    if (e.type === 'call_start') {
      if (e.index !== args.size || open !== -1) failures.push(`call_start ${e.index} out of order`);
      args.set(e.index, '');
      open = e.index;
      if (one.calls[e.index]?.id !== e.id || one.calls[e.index]?.name !== e.name) failures.push(`call_start ${e.index} names ${e.name}/${e.id}`);
    } else if (e.type === 'call_arguments_delta') {
      if (e.index !== open) failures.push(`arguments for ${e.index} outside its call`);
      args.set(e.index, (args.get(e.index) ?? '') + e.delta);
    } else if (e.type === 'call_end') {
      if (e.index !== open) failures.push(`call_end ${e.index} without its start`);
      if (args.get(e.index) !== JSON.stringify(e.call.arguments)) failures.push(`arguments of ${e.index} do not concatenate to its JSON`);
      open = -1;
    }
  }
  const errors = events.flatMap((e) => (e.type === 'error' ? [e.message] : []));
  if (!isDeepStrictEqual(errors, one.tool_parse_errors)) failures.push('error events differ from tool_parse_errors');
  const violations = events.flatMap((e) => (e.type === 'violation' ? [e.violation] : []));
  if (!isDeepStrictEqual(violations, one.protocol_violations)) failures.push('violation events differ from protocol_violations');
  return failures;
}

/**
 * The invariant's failures for `text` under each of `options`, cut once at every position and
 * every 1, 3 and 7 characters: the cuts a marker's decision can fall between.
 */
export function everyCutFailures(text: string, options: readonly ParseOptions[]): string[] {
  const failures: string[] = [];
  for (const option of options) {
    for (let cut = 1; cut < text.length; cut++) failures.push(...invariantFailures(text, [text.slice(0, cut), text.slice(cut)], option));
    for (const size of [1, 3, 7]) failures.push(...invariantFailures(text, everyN(text, size), option));
  }
  return failures;
}

/** `text` cut every `size` characters. */
export function everyN(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** `text` cut at the given positions (taken modulo its length, deduplicated, sorted; empty chunks left out). */
export function cutAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % Math.max(1, text.length)))].filter((c) => c > 0).sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out.filter((c) => c !== '');
}
