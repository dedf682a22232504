/**
 * A transcript (OpenAI-style messages) parsed as one task: each assistant message is one
 * response, parsed in order so numeric call ids continue across messages (`call_id_start`
 * carries on from the previous message's count). Ids the library derives from names
 * (`tc_fnmarkup_run`) can still repeat across messages; a repeat gets the message index as a
 * suffix, so every id in the answer is unique.
 */
import type { ParseResult } from '../../compose/types.js';

export interface TranscriptMessage {
  role: string;
  content?: string | readonly { type: string; text?: string }[] | null;
  /** OpenAI tool calls the message already carries. */
  tool_calls?: readonly { id?: string; function: { name: string; arguments?: string | Record<string, unknown> } }[];
}

/** A held call's arguments: OpenAI sends JSON text; null when the text is not a JSON object. */
function heldArguments(raw: string | Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (raw === undefined) return {};
  if (typeof raw !== 'string') return raw;
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** How much of an unreadable arguments text an error quotes. */
const EXCERPT_MAX = 200;

/** The error for a held call whose arguments text is no JSON object: the call is kept with `{}`, and nothing is lost silently. */
function unreadableHeldArguments(index: number, id: string, name: string, raw: string): string {
  const excerpt = raw.length > EXCERPT_MAX ? `${raw.slice(0, EXCERPT_MAX)}…` : raw;
  return `The tool call ${id} to '${name}' that message ${index} already carries has arguments that are not a JSON object (${JSON.stringify(excerpt)}); it is kept with empty arguments.`;
}

/** Same name and deep-equal arguments (key order ignored): the text restates a held call. */
function sameCall(a: { name: string; arguments: unknown }, b: { name: string; arguments: unknown }): boolean {
  return a.name === b.name && deepEqual(a.arguments, b.arguments);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The text of a message: a string as is, or its text parts joined. */
export function contentText(content: TranscriptMessage['content']): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  let text = '';
  for (const part of content) if (part.type === 'text' && typeof part.text === 'string') text += part.text;
  return text;
}

export interface TranscriptEntry {
  index: number;
  result: ParseResult;
}

export function parseTranscript(
  messages: readonly TranscriptMessage[],
  callIdStart: number,
  parse: (text: string, callIdStart: number) => ParseResult,
): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const seen = new Set<string>();
  let next = callIdStart;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    const result = parse(contentText(message.content), next);
    next += result.calls.length;
    if (message.tool_calls !== undefined && message.tool_calls.length > 0) {
      // The field's calls are kept first, as sent; the text adds only calls the field lacks.
      const held = message.tool_calls.map((call, k) => {
        const id = call.id ?? `held_${index}_${k}`;
        const args = heldArguments(call.function.arguments);
        if (args === null) result.tool_parse_errors = [...result.tool_parse_errors, unreadableHeldArguments(index, id, call.function.name, call.function.arguments as string)];
        return { id, name: call.function.name, arguments: args ?? {} };
      });
      result.calls = [...held, ...result.calls.filter((call) => !held.some((h) => sameCall(h, call)))];
    }
    result.calls = result.calls.map((call) => {
      const id = uniqueId(call.id, index, seen);
      seen.add(id);
      return id === call.id ? call : { ...call, id };
    });
    entries.push({ index, result });
  }
  return entries;
}

function uniqueId(id: string, index: number, seen: ReadonlySet<string>): string {
  if (!seen.has(id)) return id;
  let candidate = `${id}_m${index}`;
  for (let k = 2; seen.has(candidate); k++) candidate = `${id}_m${index}_${k}`;
  return candidate;
}
