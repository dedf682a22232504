/**
 * `json_chunks`: splits a JSON-lane turn into tool-fence bodies and prose
 * (docs/design.md, "Fence chunker"). Line oriented; one pass; each line is looked at a bounded
 * number of times, so the work is linear in the text.
 *
 *   Here is the call:          <- prose
 *   ```tool                    <- opens a tool fence (```json, ~~~tool, ... open one with a fence_dialect violation)
 *   {"name": "a", "args": {}}  <- body
 *   ```                        <- closes it, unless the JSON so far is still open
 *
 * Inside a tool fence, verbatim heredoc bodies (`<<TAG:N` counted, `<<TAG` uncounted) are
 * content wholesale: a fence line inside them does not close anything.
 */
import type { ProtocolViolation } from '../types.js';
import { fenceMarkerOf, jsonFenceKind } from './fence-info.js';
import { JsonProgress } from './json-progress.js';
import type { Profile } from '../context.js';
import { laneMessagesFor } from './messages.js';
import { appendAll, violation } from './result.js';
import { parseVerbatimOpener } from './verbatim-opener.js';

export { fenceInfoIntent } from './fence-info.js';
export type { FenceIntent } from './fence-info.js';

export interface FenceChunks {
  /** Tool-fence bodies (lines joined with `\n`, untrimmed), in document order. */
  bodies: string[];
  /** Everything else, trimmed; documentation fences come back verbatim. */
  prose: string;
  /** `fence_dialect` per drifted tool fence, then `bare_json` when the turn was a bare object. */
  violations: ProtocolViolation[];
  /** Lines visited (each once), for the linearity test. */
  steps: number;
}

interface ToolFence {
  marker: string;
  lines: string[];
  json: JsonProgress;
  /** Lines still owed to a counted verbatim body (its N lines plus the closing tag line). */
  countedLeft: number;
  /** The closing tag of an open uncounted verbatim body, or null. */
  uncountedTag: string | null;
}

/** `profile` picks the violations' wording (absent reads as `harn`). */
export function jsonChunks(text: string, profile?: Profile): FenceChunks {
  const laneMessages = laneMessagesFor(profile);
  const bodies: string[] = [];
  const prose: string[] = [];
  const violations: ProtocolViolation[] = [];
  let tool: ToolFence | null = null;
  let doc: { marker: string; lines: string[] } | null = null;
  let steps = 0;

  const openTool = (marker: string, drift: string | null): ToolFence => {
    if (drift !== null) violations.push(violation('fence_dialect', laneMessages.fenceDialect(drift)));
    return { marker, lines: [], json: new JsonProgress(), countedLeft: 0, uncountedTag: null };
  };
  const emit = (fence: ToolFence): void => {
    bodies.push(fence.lines.join('\n'));
  };

  for (const line of text.split('\n')) {
    steps++;
    const trimmed = line.trim();

    if (tool !== null) {
      if (tool.countedLeft > 0) {
        tool.lines.push(line);
        tool.countedLeft--;
        continue;
      }
      if (tool.uncountedTag !== null) {
        tool.lines.push(line);
        if (trimmed === tool.uncountedTag) tool.uncountedTag = null;
        continue;
      }
      const opener = parseVerbatimOpener(trimmed);
      if (opener !== null) {
        tool.lines.push(line);
        // A count too large to use protects nothing: the binding reports it, the fence closes as usual.
        if (opener.count === null) tool.uncountedTag = opener.tag;
        else tool.countedLeft = usableCount(opener.count) + 1;
        continue;
      }
      if (trimmed === tool.marker && !tool.json.incomplete) {
        emit(tool);
        tool = null;
        continue;
      }
      if (trimmed.startsWith(tool.marker + 'tool')) {
        // ```tool right after a body: the model separated two calls with a second opener.
        // The new info is read like any opener (```tools is documentation, not a tool fence).
        emit(tool);
        const marker = tool.marker;
        const kind = jsonFenceKind(marker, trimmed.slice(marker.length));
        tool = null;
        if (kind.tool) tool = openTool(marker, kind.drift);
        else doc = { marker, lines: [line] };
        continue;
      }
      tool.lines.push(line);
      tool.json.feedLine(line);
      continue;
    }

    if (doc !== null) {
      doc.lines.push(line);
      if (trimmed === doc.marker) {
        appendAll(prose, doc.lines);
        doc = null;
      }
      continue;
    }

    const marker = fenceMarkerOf(trimmed);
    if (marker === null) {
      prose.push(line);
      continue;
    }
    const kind = jsonFenceKind(marker, trimmed.slice(marker.length));
    if (kind.tool) tool = openTool(marker, kind.drift);
    else doc = { marker, lines: [line] };
  }

  if (tool !== null) emit(tool);
  if (doc !== null) appendAll(prose, doc.lines);

  let proseText = prose.join('\n').trim();
  if (bodies.length === 0 && (proseText.startsWith('{') || proseText.startsWith('['))) {
    violations.push(violation('bare_json', laneMessages.bareJson, proseText));
    bodies.push(proseText);
    proseText = '';
  }
  return { bodies, prose: proseText, violations, steps };
}

/** The line count of a counted opener, or -1 (no protected lines) when it is not a usable number. */
function usableCount(digits: string): number {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : -1;
}
