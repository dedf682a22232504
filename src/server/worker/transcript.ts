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
