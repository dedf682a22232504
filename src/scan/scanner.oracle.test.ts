/**
 * Differential test: `scanUnits` against a plain transcription of the branch rules of
 * docs/design.md, "Scan steps" (no dispatch table, no memos, fresh searches from every position,
 * the reserved stub walked on a rewritten copy as the reference does). Any disagreement is a
 * bug in a memo, in the dispatch table, or in the port's shortcuts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { callHead } from '../lex/call-head.js';
import { parseCallExpr } from '../lex/call-expr.js';
import { isUnicodeWhitespace } from '../lex/codes.js';
import { scanHeredoc } from '../lex/heredoc.js';
import { identLength } from '../lex/ident.js';
import { findOpenerAfter, findSpanEnd } from '../lex/spans.js';
import { stripThinkingTags } from '../lex/thinking.js';
import { scanUnits } from './scanner.js';
import type { ScanResult, ScanSpec, Unit } from './types.js';
import { scanSpecArbitrary } from '../../test/support/scan-spec-arbitrary.js';
import { validateScanSpec } from './validate.js';

function plainScan(text: string, spec: ScanSpec): ScanResult {
  const source = spec.strip_thinking === false ? text : stripThinkingTags(text);
  const h = spec.harmony;
  const bounds = spec.call_tags.flatMap((t) => [`<${t}`, `</${t}`]);
  const opens = spec.call_tags.map((t) => `<${t}`);
  const units: Unit[] = [];
  let cursor = 0;
  let lastBlockEnd = 0;
  const lineLeading = (p: number): boolean => [...source.slice(source.lastIndexOf('\n', p - 1) + 1, p)].every((c) => c === ' ' || c === '\t' || c === '\r');
  const insideFence = (p: number): boolean => {
    const markers: number[] = [];
    for (let at = source.indexOf('```'); at !== -1; at = source.indexOf('```', at + 3)) markers.push(at);
    const before = markers.filter((m) => m < p).length;
    return before % 2 === 1 && markers.some((m) => m >= p);
  };
  const withHead = (unit: Unit & { body: string }, reserved: boolean): Unit => {
    const head = callHead(unit.body);
    if (head) Object.assign(unit, { head_name: head.name, head_sep: head.sep });
    if (reserved) Object.assign(unit, { reserved: true });
    return unit;
  };
  const frameMarker = (p: number): number => {
    if (!source.startsWith(h.frame_prefix, p)) return -1;
    const m = source.indexOf(h.frame_suffix, p);
    if (m === -1 || m - p < h.frame_prefix.length) return -1;
    const name = source.slice(p + h.frame_prefix.length, m);
    const after = m + h.frame_suffix.length;
    if (h.header_markers.includes(name)) {
      const tail = source.slice(after);
      const nextFrame = tail.indexOf(h.frame_prefix);
      const calls = opens.map((o) => tail.indexOf(o)).filter((i) => i !== -1);
      const k = tail.indexOf(h.message_marker);
      if (k !== -1 && !tail.slice(0, k).includes('\n') && !opens.some((o) => tail.slice(0, k).includes(o)) && nextFrame === k) return after + k + h.message_marker.length;
      const stops = [nextFrame, calls.length ? Math.min(...calls) : -1, tail.indexOf('\n')].filter((i) => i !== -1);
      return stops.length ? after + Math.min(...stops) : after;
    }
    return h.standalone_markers.includes(name) ? after : -1;
  };
  const step = (c: number): [number, Unit, boolean] => {
    const lineEnd = source.indexOf('\n', c) === -1 ? source.length : source.indexOf('\n', c);
    const stub = spec.reserved_openers.find((o) => source.startsWith(o, c) && !source.startsWith([...o].pop()!, c + o.length));
    if (stub !== undefined && lineLeading(c) && !insideFence(c) && spec.call_tags.length > 0) {
      const t = spec.call_tags[0]!;
      const open = `<${t}>`;
      const close = `</${t}>`;
      const synthetic = open + source.slice(c + stub.length);
      const r = findSpanEnd(synthetic, open.length, close, bounds);
      if (r.kind === 'closed') {
        const end = c + stub.length + (r.at + close.length - open.length);
        return [end, withHead({ kind: 'block', start: c, end, tag: t, body: synthetic.slice(open.length, r.at), closed: true }, true), true];
      }
      const bodyStart = c + stub.length;
      const bound = findOpenerAfter(source, bodyStart, bounds);
      const end = bound === -1 ? source.length : bound;
      return [end, withHead({ kind: 'unclosed_block', start: c, end, tag: t, body: source.slice(bodyStart, end), closed: false }, true), true];
    }
    if (source[c] !== '<') {
      let probe = c;
      for (;;) {
        while (probe < source.length && source[probe] !== '<') probe++;
        if (source.startsWith('<<', probe)) {
          const hd = scanHeredoc(source, probe);
          if (hd !== null && hd.ok) {
            probe = hd.end;
            continue;
          }
        }
        if (source.startsWith(h.message_marker, probe) && source.slice(c, probe).includes(h.tool_call_header_prefix)) {
          probe += h.message_marker.length;
          continue;
        }
        return [probe, { kind: 'text', start: c, end: probe, text: source.slice(c, probe), fenced: false }, false];
      }
    }
    if (source.startsWith(h.message_marker, c)) {
      let at = c + h.message_marker.length;
      while (at < source.length && isUnicodeWhitespace(source.charCodeAt(at))) at++;
      if (source.startsWith(h.tool_call_header_prefix, at)) {
        const nl = source.indexOf('\n', c + h.message_marker.length);
        const end = nl === -1 ? source.length : nl;
        return [end, { kind: 'harmony_line', start: c, end, text: source.slice(c, end) }, true];
      }
    }
    const corrupted = h.corrupted_openers.find((o) => o.endsWith(h.frame_prefix) && source.startsWith(o, c));
    let frameEnd = corrupted === undefined ? -1 : frameMarker(c + corrupted.length - h.frame_prefix.length);
    if (frameEnd === -1) frameEnd = frameMarker(c);
    if (frameEnd !== -1) return [frameEnd, { kind: 'harmony_skip', start: c, end: frameEnd }, true];
    const adjacent = lastBlockEnd > 0 && c >= lastBlockEnd && [...source.slice(lastBlockEnd, c)].every((ch) => isUnicodeWhitespace(ch.charCodeAt(0)));
    if ((!adjacent && !lineLeading(c)) || insideFence(c)) return [lineEnd, { kind: 'fenced_line', start: c, end: lineEnd, text: source.slice(c, lineEnd) }, false];
    for (const t of spec.call_tags) {
      if (!source.startsWith(`<${t}>`, c)) continue;
      const bodyStart = c + t.length + 2;
      const close = `</${t}>`;
      const r = findSpanEnd(source, bodyStart, close, bounds);
      if (r.kind === 'closed') {
        const end = r.at + close.length;
        return [end, withHead({ kind: 'block', start: c, end, tag: t, body: source.slice(bodyStart, r.at), closed: true }, false), true];
      }
      const bound = r.kind === 'opener' ? r.at : r.kind === 'truncated' ? findOpenerAfter(source, bodyStart, bounds) : -1;
      const end = bound === -1 ? source.length : bound;
      return [end, withHead({ kind: 'unclosed_block', start: c, end, tag: t, body: source.slice(bodyStart, end), closed: false }, false), true];
    }
    for (const t of spec.block_tags) {
      if (!source.startsWith(`<${t}>`, c)) continue;
      const bodyStart = c + t.length + 2;
      const at = source.indexOf(`</${t}>`, bodyStart);
      if (at === -1) continue;
      const end = at + t.length + 3;
      return [end, withHead({ kind: 'block', start: c, end, tag: t, body: source.slice(bodyStart, at), closed: true }, false), true];
    }
    const n = identLength(source, c + 1);
    const name = source.slice(c + 1, c + 1 + n);
    if (n > 0 && source[c + 1 + n] === '(' && spec.known_tools.includes(name)) {
      const parsed = parseCallExpr(source.slice(c + 1), name);
      if (parsed.ok) {
        let end = c + 1 + parsed.consumed;
        while (source[end] === ' ' || source[end] === '\t') end++;
        if (source[end] === '>') end++;
        return [end, { kind: 'angle_call', start: c, end, name, arguments: parsed.arguments }, true];
      }
    }
    for (const { opener, close } of spec.markup_openers) {
      if (!source.startsWith(opener, c)) continue;
      const at = source.indexOf(close, c);
      const bound = at !== -1 ? at + close.length : findOpenerAfter(source, c + opener.length, bounds);
      const end = bound === -1 ? source.length : bound;
      return [end, { kind: 'markup', start: c, end, opener, text: source.slice(c, end) }, true];
    }
    for (const t of spec.call_tags) {
      if (source.startsWith(`</${t}>`, c)) return [c + t.length + 3, { kind: 'stray_close', start: c, end: c + t.length + 3, tag: t }, true];
    }
    for (const t of spec.wrapper_tags) {
      for (const form of [`<${t}>`, `</${t}>`]) {
        if (source.startsWith(form, c)) return [c + form.length, { kind: 'wrapper', start: c, end: c + form.length, tag: t }, true];
      }
    }
    let end = c + 1;
    while (end < source.length && source[end] !== '>' && source[end] !== '\n') end++;
    if (source[end] === '>') end++;
    const raw = source.slice(c, end);
    let inner = raw.replace(/^<+/, '');
    if (inner.startsWith('/')) inner = inner.slice(1);
    return [end, { kind: 'tag', start: c, end, raw, name: inner.slice(0, identLength(inner)) }, false];
  };
  while (cursor < source.length) {
    while (cursor < source.length && ' \t\n\f\r'.includes(source[cursor]!)) cursor++;
    if (cursor >= source.length) break;
    const [end, unit, isBlock] = step(cursor);
    units.push(unit);
    cursor = end;
    if (isBlock) lastBlockEnd = end;
  }
  return { source, units };
}

const pieces = [
  '<', '>', '/', '<tool_call>', '</tool_call>', '<toolcall>', '</toolcall>', '<tool_call >', '<tool_calls>', '<<EOF\n',
  '<<EOF\\n', '<<E:1\n', 'EOF', ' EOF })', '})', '"', "'", '`', '```', '\\', '\n', ' ', '\t', '\f', '\u00a0', '<|',
  '|>', '<|message|>', '<|start|>', '<|channel|>', '<|end|>', '<|foo|>', 'tool_call to=', '<tool_call<|', '</tool_call<|',
  '<assistant<|', '[[CALL]', '[[CALL]]', '<think>', '</think>', 'look({', 'look({})', '<look(', '<look({ a: 1 })>',
  '<done>', '</done>', '<assistant_prose>', '</assistant_prose>', '<function=', '</function>', '<invoke name=',
  '</invoke>', '<function_calls>', '</function_calls>', '<notes>', 'prose', 'x<<2',
];

describe('scanUnits agrees with a plain transcription of the rules', () => {
  const spec = validateScanSpec(buildScanSpec(['look', 'edit', 'run']));
  it('on the standard vocabulary', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(JSON.parse(JSON.stringify(scanUnits(text, spec)))).toEqual(JSON.parse(JSON.stringify(plainScan(text, spec))));
      }),
      { numRuns: 4000 },
    );
  });

  it('on random vocabulary', () => {
    const word = fc.string({ unit: fc.constantFrom('<', '>', '|', '/', 'a', 'b', '[', '"', '\n'), minLength: 1, maxLength: 3 });
    const randomSpec = scanSpecArbitrary(word, fc.constant(['a', 'look']));
    fc.assert(
      fc.property(randomSpec, fc.array(fc.oneof(word, fc.constantFrom(...pieces)), { maxLength: 25 }), (raw, parts) => {
        const validated = validateScanSpec(raw);
        const text = parts.join('');
        expect(JSON.parse(JSON.stringify(scanUnits(text, validated)))).toEqual(JSON.parse(JSON.stringify(plainScan(text, validated))));
      }),
      { numRuns: 4000 },
    );
  });
});
