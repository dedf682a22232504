/**
 * Canonical parts (composer spec section 6.5): the turn re-rendered in the taught tagged
 * grammar, one part per accounted unit, joined with blank lines.
 */
import type { ToolCall } from './types.js';

export type CanonicalPart =
  | string
  | { readonly kind: 'call'; readonly name: string; readonly arguments: unknown }
  | { readonly kind: 'bare'; readonly calls: readonly ToolCall[]; readonly prose: string }
  | { readonly kind: 'prose' | 'answer'; readonly text: string }
  | { readonly kind: 'done'; readonly text: string };

const INDENT = '  ';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** 2-space JSON with object keys sorted by code unit; `{}` and `[]` stay on one line. */
export function prettyJson(value: unknown, depth = 0): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = INDENT.repeat(depth + 1);
    const items = value.map((item) => inner + (prettyJson(item, depth + 1) ?? 'null'));
    return `[\n${items.join(',\n')}\n${INDENT.repeat(depth)}]`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined && typeof value[k] !== 'function');
    if (keys.length === 0) return '{}';
    keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const inner = INDENT.repeat(depth + 1);
    const items = keys.map((k) => `${inner}${JSON.stringify(k)}: ${prettyJson(value[k], depth + 1)}`);
    return `{\n${items.join(',\n')}\n${INDENT.repeat(depth)}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function renderCall(name: string, args: unknown): string {
  return `<tool_call>\n${name}(${prettyJson(args ?? {})})\n</tool_call>`;
}

export function renderProse(text: string): string {
  return `<assistant_prose>\n${text.trim()}\n</assistant_prose>`;
}

export function renderAnswer(text: string): string {
  return `<user_response>\n${text.trim()}\n</user_response>`;
}

export function renderDone(body: string): string {
  return `<done>${body}</done>`;
}

export function renderPart(part: CanonicalPart): string {
  if (typeof part === 'string') return part;
  switch (part.kind) {
    case 'call':
      return renderCall(part.name, part.arguments);
    case 'prose':
      return renderProse(part.text);
    case 'answer':
      return renderAnswer(part.text);
    case 'done':
      return renderDone(part.text);
    case 'bare': {
      const blocks = part.calls.map((c) => renderCall(c.name, c.arguments));
      if (part.prose.trim() !== '') blocks.push(renderProse(part.prose));
      return blocks.join('\n\n');
    }
  }
}

export function renderParts(parts: readonly CanonicalPart[]): string {
  return parts.map(renderPart).filter((s) => s !== '').join('\n\n');
}

/** Call blocks only, joined with one newline (JSON lane, remainder merges, joins). */
export function renderCallBlocks(calls: readonly ToolCall[]): string {
  return calls.map((c) => renderCall(c.name, c.arguments)).join('\n');
}
