/**
 * A non-streaming chat completion, rewritten: each choice's assistant `content` is parsed with
 * the request's own `tools` (gateway profile, OpenAI shape), in the parse pool through the
 * service's own dispatch path, so a long text never holds the HTTP thread (a small one parses
 * inline there, as a small /parse body does). The message gains `tool_calls` and
 * `reasoning_content`, loses the markers from `content`; every other field of the completion,
 * `usage` included, is left as the upstream sent it.
 */
import type { OpenAIShaped } from '../../compose/index.js';
import type { ParseResult } from '../../compose/types.js';
import { dispatch, type Outcome } from '../dispatch.js';
import type { ParseRunner } from '../runner/types.js';
import { emptyDiagnostics, type ChoiceDiagnostics } from './diagnostics.js';
import { isHeld, keyOfHeld, type HeldCall } from './held-calls.js';

interface Message {
  role?: unknown;
  content?: unknown;
  reasoning_content?: unknown;
  tool_calls?: unknown;
  [key: string]: unknown;
}

interface Choice {
  index?: unknown;
  message?: Message;
  finish_reason?: unknown;
  [key: string]: unknown;
}

export interface Completion {
  choices: Choice[];
  [key: string]: unknown;
}

export function isCompletion(value: unknown): value is Completion {
  return value !== null && typeof value === 'object' && Array.isArray((value as { choices?: unknown }).choices);
}

/** A message's text: a string as is, or its text parts joined; null when there is none to read. */
function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  let text = '';
  for (const part of content) {
    const p = part as { type?: unknown; text?: unknown } | null;
    if (p?.type === 'text' && typeof p.text === 'string') text += p.text;
  }
  return text;
}

export interface RewriteContext {
  runner: ParseRunner;
  maxResponseBytes: number;
  /** The request's `tools` as JSON text. */
  toolsJson: string;
  callIdStart: number;
  signal: AbortSignal;
  /** `reasoning_started` for the parse (UPSTREAM_REASONING_STARTED); undefined: the text says. */
  reasoningStarted?: boolean;
  /**
   * The same parse on this thread, for when the pool is full (503): the upstream has already
   * spent the generation, so the answer is parsed here rather than refused.
   */
  inline?: (text: string) => OpenAIShaped;
}

/** A parse that did not answer 200: the outcome to send instead. */
export class ParseRefused extends Error {
  constructor(readonly outcome: Outcome) {
    super('the parse did not answer');
    this.name = 'ParseRefused';
  }
}

/** One text through the service's dispatch (inline when small, else the pool), in `shape`. */
async function dispatchParse(text: string, shape: 'openai' | 'tool-parse', context: RewriteContext): Promise<string> {
  // The registry's text goes first and unchanged, so the worker's registry cache finds it.
  const started = context.reasoningStarted === undefined ? '' : `,"reasoning_started":${context.reasoningStarted}`;
  const body = `{"tools":${context.toolsJson},"profile":"gateway","shape":"${shape}","call_id_start":${context.callIdStart}${started},"text":${JSON.stringify(text)}}`;
  const outcome = await dispatch(context.runner, 'parse', Buffer.from(body, 'utf8'), { maxResponseBytes: context.maxResponseBytes, signal: context.signal });
  if (outcome.status !== 200) throw new ParseRefused(outcome);
  return outcome.body;
}

async function parseText(text: string, context: RewriteContext): Promise<OpenAIShaped> {
  try {
    return JSON.parse(await dispatchParse(text, 'openai', context)) as OpenAIShaped;
  } catch (error) {
    if (error instanceof ParseRefused && error.outcome.status === 503 && context.inline !== undefined) return context.inline(text);
    throw error;
  }
}

/** The library's result for `text`, parsed through the dispatch (a stream's whole text at its end). */
export async function parseWithDispatch(text: string, context: RewriteContext): Promise<ParseResult> {
  return JSON.parse(await dispatchParse(text, 'tool-parse', context)) as ParseResult;
}

/** Ids the parse made that an upstream call already uses get a suffix. */
function uniqueIds<T extends { id: string }>(calls: T[], taken: Set<string>): T[] {
  return calls.map((call) => {
    let id = call.id;
    for (let k = 2; taken.has(id); k++) id = `${call.id}_${k}`;
    taken.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

async function rewriteChoice(choice: Choice, position: number, context: RewriteContext): Promise<ChoiceDiagnostics> {
  const diagnostics = emptyDiagnostics(typeof choice.index === 'number' ? choice.index : position);
  const message = choice.message;
  const held: HeldCall[] = Array.isArray(message?.tool_calls) ? (message.tool_calls as HeldCall[]) : [];
  diagnostics.upstream_calls = held.length;
  const text = message === undefined ? null : textOf(message.content);
  if (message === undefined || text === null || text === '') return diagnostics;

  const shaped = await parseText(text, context);
  const found = shaped.message.tool_calls ?? [];
  diagnostics.tool_parse_errors = shaped.diagnostics.tool_parse_errors ?? [];
  diagnostics.protocol_violations = shaped.diagnostics.protocol_violations ?? [];
  diagnostics.dropped = shaped.diagnostics.dropped ?? [];
  diagnostics.recovered_from_stray_count = shaped.diagnostics.recovered_from_stray_count ?? 0;
  const reasoning = shaped.message.reasoning_content;
  // Nothing taken out of the text (no call, no reasoning, nothing refused, and the prose is the
  // text itself, trimmed): the upstream's content stays byte for byte, rather than as the
  // parser's trimmed prose. Markers can go with no diagnostic (an answer wrapper, an
  // end-of-turn token, a Harmony `final` message's framing): then the content is the prose, as
  // a stream's is, without them.
  if (
    found.length === 0 && reasoning === undefined && diagnostics.tool_parse_errors.length === 0 && diagnostics.protocol_violations.length === 0 &&
    shaped.message.content === text.trim()
  ) {
    return diagnostics;
  }

  const heldKeys = held.map(keyOfHeld);
  const fresh = found.filter((call) => !isHeld({ name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }, heldKeys));
  diagnostics.duplicate_calls = found.length - fresh.length;
  diagnostics.parsed_calls = fresh.length;
  const taken = new Set(held.map((call) => String(call.id)));
  const calls = [...held, ...uniqueIds(fresh, taken)];

  message.content = shaped.message.content === null && calls.length === 0 ? '' : shaped.message.content;
  if (reasoning !== undefined) {
    const own = message.reasoning_content;
    message.reasoning_content = typeof own === 'string' && own !== '' ? `${own}\n\n${reasoning}` : reasoning;
  }
  if (calls.length > 0) {
    message.tool_calls = calls;
    // A cut-off answer stays `length`: the caller must know the text ended early.
    if (choice.finish_reason !== 'length') choice.finish_reason = 'tool_calls';
  }
  return diagnostics;
}

/**
 * Rewrites `completion` in place; answers each choice's diagnostics. Choices are parsed at the
 * same time. Each is an alternative answer to the same turn, so each numbers its calls from the
 * same start.
 */
export async function rewriteCompletion(completion: Completion, context: RewriteContext): Promise<ChoiceDiagnostics[]> {
  return Promise.all(completion.choices.map((choice, i) => rewriteChoice(choice, i, context)));
}
