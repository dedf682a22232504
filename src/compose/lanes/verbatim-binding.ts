/**
 * Verbatim binding (docs/design.md, "Verbatim binding"): heredoc bodies written after the JSON
 * objects of one tool fence replace the argument values that declared them.
 *
 *   {"name": "write_file", "args": {"path": "a.txt", "content": "<<END:2"}}   <- declaration
 *   <<END:2                                                                   <- opener
 *   line one                                                                  <- 2 counted lines
 *   END                                                                       <- line 3: exactly the tag
 *   line two
 *   END
 *
 * Binding is all or nothing: any failure returns one error and the caller drops every call of
 * that body (never half-apply a write).
 */
import { setOwn } from '../ladders/json.js';
import type { ToolCall } from '../types.js';
import { laneMessages } from './messages.js';
import { parseVerbatimOpener } from './verbatim-opener.js';

interface Declaration {
  call: number;
  key: string;
  opener: string;
  tag: string;
  count: string | null;
  bound: boolean;
}

export type BindingOutcome = { ok: true; calls: ToolCall[] } | { ok: false; detail: string };

/** True when some argument value is exactly `<<TAG` or `<<TAG:N`. */
export function hasVerbatimDeclaration(calls: readonly ToolCall[]): boolean {
  return calls.some((call) => Object.values(call.arguments).some((v) => typeof v === 'string' && parseVerbatimOpener(v) !== null));
}

function declarationsOf(calls: readonly ToolCall[]): Declaration[] {
  const out: Declaration[] = [];
  calls.forEach((call, index) => {
    for (const key of Object.keys(call.arguments)) {
      const value = call.arguments[key];
      if (typeof value !== 'string') continue;
      const opener = parseVerbatimOpener(value);
      if (opener !== null) out.push({ call: index, key, opener: value, tag: opener.tag, count: opener.count, bound: false });
    }
  });
  return out;
}

/**
 * @param trailing the fence body after the last JSON value, trimmed (starts at an opener line
 *   when there are bodies at all).
 */
export function bindVerbatim(calls: readonly ToolCall[], trailing: string): BindingOutcome {
  const declarations = declarationsOf(calls);
  const lines = trailing === '' ? [] : trailing.split('\n');
  if (declarations.length === 0) {
    return trailing.startsWith('<<') ? { ok: false, detail: laneMessages.verbatimUndeclared(lines[0] ?? '') } : { ok: true, calls: [...calls] };
  }

  // Cardinality first: each opener spelling needs at least as many opener lines as declarations.
  const openerLines = new Map<string, number>();
  for (const line of lines) {
    const t = line.trim();
    if (t.startsWith('<<')) openerLines.set(t, (openerLines.get(t) ?? 0) + 1);
  }
  const required = new Map<string, number>();
  for (const d of declarations) required.set(d.opener, (required.get(d.opener) ?? 0) + 1);
  for (const d of declarations) {
    const need = required.get(d.opener) ?? 0;
    const have = openerLines.get(d.opener) ?? 0;
    if (have < need) return { ok: false, detail: laneMessages.verbatimCardinality(d.opener, have, need) };
  }

  // Bodies bind by opener spelling, in any order: each spelling keeps a queue of its declarations.
  const waiting = new Map<string, Declaration[]>();
  for (const d of declarations) {
    const queue = waiting.get(d.opener);
    if (queue === undefined) waiting.set(d.opener, [d]);
    else queue.push(d);
  }
  const contents = new Map<Declaration, string>();
  let i = 0;
  let lastUncounted: string | null = null;
  while (i < lines.length) {
    const t = (lines[i] ?? '').trim();
    if (t === '') {
      i++;
      continue;
    }
    const d = waiting.get(t)?.shift();
    if (d === undefined) {
      return {
        ok: false,
        detail: lastUncounted !== null ? laneMessages.verbatimClosedEarly(lastUncounted, t) : laneMessages.verbatimUnmatched(t),
      };
    }
    d.bound = true;
    i++;
    if (d.count !== null) {
      const n = Number(d.count);
      if (!Number.isSafeInteger(n)) return { ok: false, detail: laneMessages.verbatimBadCount(d.opener, d.tag) };
      //   <<T:2 / a / b / T
      //           ^ i        ^ i + n must be exactly the tag
      const closeAt = i + n;
      if (closeAt >= lines.length || (lines[closeAt] ?? '').trim() !== d.tag) {
        return { ok: false, detail: laneMessages.verbatimCountMismatch(d.opener, d.tag) };
      }
      contents.set(d, n === 0 ? '' : lines.slice(i, closeAt).join('\n') + '\n');
      i = closeAt + 1;
      lastUncounted = null;
    } else {
      let closeAt = i;
      while (closeAt < lines.length && (lines[closeAt] ?? '').trim() !== d.tag) closeAt++;
      if (closeAt >= lines.length) return { ok: false, detail: laneMessages.verbatimNeverClosed(d.tag) };
      contents.set(d, lines.slice(i, closeAt).join('\n'));
      i = closeAt + 1;
      lastUncounted = d.tag;
    }
  }
  const unbound = declarations.find((d) => !d.bound);
  if (unbound !== undefined) return { ok: false, detail: laneMessages.verbatimCardinality(unbound.opener, 0, 1) };

  const out = calls.map((call) => ({ ...call, arguments: copyArgs(call.arguments) }));
  for (const [d, content] of contents) {
    const target = out[d.call];
    if (target !== undefined) setOwn(target.arguments, d.key, content);
  }
  return { ok: true, calls: out };
}

/** A shallow copy that keeps `__proto__` and friends as own keys. */
function copyArgs(args: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(args)) setOwn(copy, key, args[key]);
  return copy;
}
