/**
 * Branches 3 and 4: OpenAI Harmony frames (docs/design.md, "Scan steps"). Both run
 * before the line-leading test, so a frame token is consumed wherever a step lands on it.
 *
 * A frame token is `frame_prefix + NAME + frame_suffix`. Header names (`start`, `channel`,
 * `constrain`) also take their header tail; standalone names (`message`, `end`, `call`) take
 * only themselves:
 *
 *     <|start|>assistant<|message|>Hi there
 *     ^ cursor          ^ the tail reaches the message marker, the very next frame token,
 *                         so the unit runs through it and "Hi there" is left as text
 */
import { isUnicodeWhitespace } from '../lex/codes.js';
import type { ScanState } from './state.js';
import type { HarmonyLineUnit, HarmonySkipUnit } from './types.js';

/** Branch 3: `<|message|>` then (after any whitespace) `tool_call to=`: one line, marker included. */
export function harmonyLine(state: Readonly<ScanState>): HarmonyLineUnit | null {
  const { source, length, cursor: start } = state;
  const { messageMarker, headerPrefix } = state.vocab;
  if (!source.startsWith(messageMarker, start)) return null;
  const afterMarker = start + messageMarker.length;
  let at = afterMarker;
  while (at < length && isUnicodeWhitespace(source.charCodeAt(at))) at++;
  if (!source.startsWith(headerPrefix, at)) return null;
  // The prefix test crossed newlines; the unit still ends at the first one after the marker.
  const newline = state.next.find('\n', afterMarker);
  const end = newline === -1 ? length : newline;
  return { kind: 'harmony_line', start, end, text: source.slice(start, end) };
}

/** Branch 4: a corrupted wrapper (`<tool_call<|message|>`) or a frame token at the cursor. */
export function harmonySkip(state: Readonly<ScanState>): HarmonySkipUnit | null {
  const { source, cursor: start } = state;
  const { corruptedOpeners, framePrefix, framePrefixReach } = state.vocab;
  // Every form needs the frame prefix within reach of the cursor; most `<` have none nearby.
  const prefixAt = state.next.find(framePrefix, start);
  if (prefixAt === -1 || prefixAt > start + framePrefixReach) return null;
  let end = -1;
  for (const opener of corruptedOpeners) {
    if (!source.startsWith(opener, start)) continue;
    // Only the first corrupted opener that matches is tried; its trailing prefix starts the frame.
    end = frameMarkerEnd(state, start + opener.length - framePrefix.length);
    break;
  }
  if (end === -1) end = frameMarkerEnd(state, start);
  return end === -1 ? null : { kind: 'harmony_skip', start, end };
}

/** End of the frame token at `at` (with its header tail for header names), or -1. */
function frameMarkerEnd(state: Readonly<ScanState>, at: number): number {
  const { source, vocab } = state;
  const { framePrefix, frameSuffix } = vocab;
  if (!source.startsWith(framePrefix, at)) return -1;
  const suffixAt = state.next.find(frameSuffix, at);
  if (suffixAt === -1 || suffixAt - at < framePrefix.length) return -1;
  const nameStart = at + framePrefix.length;
  // Longer than any marker name: not a frame (and no point slicing a long stretch of text).
  if (suffixAt - nameStart > vocab.longestMarkerName) return -1;
  const name = source.slice(nameStart, suffixAt);
  const afterMarker = suffixAt + frameSuffix.length;
  if (vocab.headerMarkers.has(name)) return headerTailEnd(state, afterMarker);
  if (vocab.standaloneMarkers.has(name)) return afterMarker;
  return -1;
}

/**
 * Where a role/channel header that starts at `from` ends: through the message marker when it
 * is the very next frame token on the same line with no call opener before it; otherwise at
 * the first of next frame token, call opener or newline; with none of those, at `from` itself.
 */
function headerTailEnd(state: Readonly<ScanState>, from: number): number {
  const { next, vocab } = state;
  const nextFrame = next.find(vocab.framePrefix, from);
  const newline = next.find('\n', from);
  const message = next.find(vocab.messageMarker, from);
  let nextCall = -1;
  let callBeforeMessage = false;
  for (const open of vocab.callTagOpens) {
    const at = next.find(open, from);
    if (at === -1) continue;
    if (nextCall === -1 || at < nextCall) nextCall = at;
    if (message !== -1 && at + open.length <= message) callBeforeMessage = true;
  }
  if (message !== -1 && message === nextFrame && (newline === -1 || newline >= message) && !callBeforeMessage) {
    return message + vocab.messageMarker.length;
  }
  let end = -1;
  for (const stop of [nextFrame, nextCall, newline]) if (stop !== -1 && (end === -1 || stop < end)) end = stop;
  return end === -1 ? from : end;
}
