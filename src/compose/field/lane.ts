/**
 * The field lane (gateway profile): the regions of the text written in an open model's own
 * tool-call grammar, read by their family's reader, with the text between them read by the
 * caller's lane (the tagged or JSON lane, so the reference grammar and prose read as before).
 *
 *   text --detect openers--> [rest][region][rest][region][rest]
 *        rest   -> restLane(piece)            (prose, reference-grammar calls)
 *        region -> family reader -> sink      (calls through the registry rule, errors, drops)
 *        --> one result, everything in document order
 *
 * Returns null when no region was found, so a text without field markers costs one probe and
 * reads exactly as the other lanes read it.
 */
import { FIELD_GRAMMARS } from '../../dialects/field/index.js';
import { renderParts, type CanonicalPart } from '../canonical.js';
import type { ComposeContext } from '../context.js';
import type { DroppedFragment, LaneResult, ProtocolViolation, ToolCall } from '../types.js';
import { compileOpeners, type OpenerDetector } from './detect.js';
import { readRegion } from './readers/index.js';
import { RegionSink, type FieldRegion } from './region.js';
import { FieldScan } from './scan.js';

export type RestLane = (piece: string) => LaneResult;

let detector: OpenerDetector | null = null;

function openers(): OpenerDetector {
  return (detector ??= compileOpeners(FIELD_GRAMMARS));
}

/** The regions of `text`, in order. */
export function fieldRegions(text: string, ctx: ComposeContext): FieldRegion[] {
  const found: FieldRegion[] = [];
  const detect = openers();
  if (detect.none(text)) return found;
  const scan = new FieldScan(text, ctx.registry);
  let from = 0;
  for (let hit = detect.next(text, from); hit !== null; hit = detect.next(text, from)) {
    let end = -1;
    for (const grammar of hit.grammars) {
      const sink = new RegionSink(text, grammar, ctx.registry);
      end = readRegion(scan, hit.index, grammar, sink);
      if (end > hit.index) {
        found.push(sink.region(hit.index, end));
        break;
      }
    }
    from = end > hit.index ? end : hit.index + 1;
  }
  return found;
}

export function fieldLane(text: string, ctx: ComposeContext, restLane: RestLane): LaneResult | null {
  const regions = fieldRegions(text, ctx);
  if (regions.length === 0) return null;
  const calls: ToolCall[] = [];
  const errors: string[] = [];
  const dropped: DroppedFragment[] = [];
  const violations: ProtocolViolation[] = [];
  const prose: string[] = [];
  const parts: CanonicalPart[] = [];
  let userResponse: string | null = null;
  let doneMarker: string | null = null;
  let recovered = 0;
  const takeRest = (piece: string): void => {
    if (piece.trim() === '') return;
    const rest = restLane(piece);
    calls.push(...rest.calls);
    errors.push(...rest.tool_parse_errors);
    dropped.push(...rest.dropped);
    violations.push(...rest.protocol_violations);
    if (rest.prose !== '') {
      prose.push(rest.prose);
      parts.push({ kind: 'prose', text: rest.prose });
    }
    for (const call of rest.calls) parts.push({ kind: 'call', name: call.name, arguments: call.arguments });
    userResponse ??= rest.user_response;
    doneMarker ??= rest.done_marker;
    recovered += rest.recovered_from_stray_count;
  };
  let cursor = 0;
  for (const region of regions) {
    takeRest(text.slice(cursor, region.start));
    calls.push(...region.calls);
    errors.push(...region.errors);
    dropped.push(...region.dropped);
    violations.push(...region.violations);
    for (const piece of region.prose) {
      prose.push(piece);
      parts.push({ kind: 'prose', text: piece });
    }
    for (const call of region.calls) parts.push({ kind: 'call', name: call.name, arguments: call.arguments });
    cursor = region.end;
  }
  takeRest(text.slice(cursor));
  return {
    calls,
    prose: prose.join('\n\n'),
    user_response: userResponse,
    done_marker: doneMarker,
    canonical_text: renderParts(parts),
    tool_parse_errors: errors,
    protocol_violations: violations,
    dropped,
    recovered_from_stray_count: recovered,
  };
}
