/**
 * Value spellings the field grammars use: spaced JSON (as chat templates print it), Python
 * literals (pythonic calls), the Gemma value grammar, raw text (markup grammars) and XML
 * escaping (Anthropic's entity-decoded form).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Call {
  name: string;
  arguments: Record<string, Json>;
}

export interface RenderOptions {
  /** Leave off the closing markers after the last call's (complete) arguments. */
  unclosed?: boolean;
}

export type Renderer = (calls: readonly Call[], opts?: RenderOptions) => string;

/** JSON with `", "` and `": "` separators, the way Python's json.dumps (and most templates) print it. */
export function spacedJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}: ${spacedJson(item)}`)
    .join(', ')}}`;
}

/** A Python literal: single-quoted strings with escapes, True/False/None, dicts and lists. */
export function pythonLiteral(value: Json): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${pythonString(key)}: ${pythonLiteral(item)}`)
    .join(', ')}}`;
}

function pythonString(text: string): string {
  let out = "'";
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return `${out}'`;
}

/** `k=v, k=v`: pythonic keyword arguments. */
export function pythonKeywords(args: Record<string, Json>): string {
  return Object.entries(args)
    .map(([key, value]) => `${key}=${pythonLiteral(value)}`)
    .join(', ');
}

/** The Gemma value grammar: unquoted keys, strings between a delimiter pair taken verbatim. */
export function gemmaValue(value: Json, quote: string): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return `${quote}${value}${quote}`;
  if (Array.isArray(value)) return `[${value.map((item) => gemmaValue(item, quote)).join(',')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${key}:${gemmaValue(item, quote)}`)
    .join(',')}}`;
}

/** A raw-text value: strings as they are, anything else as its JSON text. */
export function rawText(value: Json): string {
  return typeof value === 'string' ? value : spacedJson(value);
}

/** The JSON Schema type name a typed-attribute grammar writes for a value. */
export function typeName(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function attrEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** Per-call framing: a section opener, each call's head, body and tail, a section closer. */
export interface Frame {
  open?: string;
  close?: string;
  join?: string;
  call(call: Call, index: number): { head: string; body: string; tail: string };
}

/** With `unclosed`, the last call's tail and the section closer are left off. */
export function framed(frame: Frame): Renderer {
  return (calls, opts = {}) => {
    let out = frame.open ?? '';
    calls.forEach((call, index) => {
      const part = frame.call(call, index);
      if (index > 0) out += frame.join ?? '';
      out += part.head + part.body;
      if (!(opts.unclosed === true && index === calls.length - 1)) out += part.tail;
    });
    if (opts.unclosed !== true) out += frame.close ?? '';
    return out;
  };
}

/** One wrapped JSON list of call objects: `open [ obj, obj ] close`. */
export function jsonList(open: string, close: string, item: (call: Call) => Json): Renderer {
  return (calls, opts = {}) => `${open}[${calls.map((call) => spacedJson(item(call))).join(', ')}]${opts.unclosed === true ? '' : close}`;
}

export const nameArguments = (call: Call): Json => ({ name: call.name, arguments: call.arguments });
export const nameParameters = (call: Call): Json => ({ name: call.name, parameters: call.arguments });
