/**
 * Renders calls in a `param-markup` grammar from its record alone (the record's own open, end
 * and close literals), so the reader's tests and properties cover every record, including ones
 * added later, without a hand-written renderer per grammar.
 */
import type { MarkupTag, ParamMarkupGrammar } from '../../src/dialects/field/index.js';

export interface RenderedCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export interface RenderOptions {
  /** Leave off every closing marker after the last call's last complete argument. */
  readonly unclosed?: boolean;
  /** The deployment suffix of a suffixed record. */
  readonly suffix?: string;
}

const HUNYUAN_SUFFIX = ':opensource';

function fill(text: string, grammar: ParamMarkupGrammar, options: RenderOptions): string {
  return grammar.suffixed ? text.split('{S}').join(options.suffix ?? HUNYUAN_SUFFIX) : text;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function openTag(tag: MarkupTag, name: string, extra = ''): string {
  if (tag.nameAttribute === null) return `${tag.open[0]}${name}${tag.end}`;
  return `${tag.open[0]} ${tag.nameAttribute}="${escapeXml(name).replace(/"/g, '&quot;')}"${extra}${tag.end}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A value as the grammar writes it: strings raw (entity-escaped where the grammar decodes), the rest as JSON. */
export function rawValue(grammar: ParamMarkupGrammar, value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  return grammar.values.entities ? escapeXml(value) : value;
}

function typeAttribute(grammar: ParamMarkupGrammar, value: unknown): string {
  const attribute = grammar.values.typeAttribute;
  // Anthropic XML reads `string=` only for DeepSeek's DSML-less form; its own form writes none.
  if (attribute === null || grammar.values.entities) return '';
  const written = attribute.form === 'string-flag' ? String(typeof value === 'string') : typeName(value);
  return ` ${attribute.name}="${written}"`;
}

/** MiniMax M3: the key is the tag; objects nest, arrays repeat the list item, the token before every tag. */
function namedTag(grammar: ParamMarkupGrammar, listItem: string, key: string, value: unknown): string {
  const token = grammar.tagToken ?? '';
  let inner: string;
  if (Array.isArray(value)) inner = value.map((item) => namedTag(grammar, listItem, listItem, item)).join('');
  else if (value !== null && typeof value === 'object') inner = Object.entries(value).map(([k, v]) => namedTag(grammar, listItem, k, v)).join('');
  else inner = typeof value === 'string' ? value : JSON.stringify(value);
  return `${token}<${key}>${inner}${token}</${key}>`;
}

function renderArguments(grammar: ParamMarkupGrammar, args: Readonly<Record<string, unknown>>): string {
  const spec = grammar.args;
  let out = '';
  for (const [key, value] of Object.entries(args)) {
    if (spec.kind === 'tags') out += `${openTag(spec.tag, key, typeAttribute(grammar, value))}${rawValue(grammar, value)}${spec.tag.close[0]}`;
    else if (spec.kind === 'pairs') out += `${spec.keyOpen}${key}${spec.keyClose}${spec.valueOpen}${rawValue(grammar, value)}${spec.valueClose}`;
    else out += namedTag(grammar, spec.listItem, key, value);
  }
  return out;
}

/** The calls as one region of `grammar`, in its section when it has one. */
export function renderParamMarkup(grammar: ParamMarkupGrammar, calls: readonly RenderedCall[], options: RenderOptions = {}): string {
  const parts: string[] = [];
  if (grammar.envelope !== null) parts.push(`${grammar.envelope.open[0]!}functions${grammar.envelope.headEnd}`);
  const token = grammar.tagToken ?? '';
  if (grammar.section !== null) parts.push(`${token}${grammar.section.open[0]!}`);
  calls.forEach((call, i) => {
    const cut = i === calls.length - 1 && options.unclosed === true;
    if (grammar.callWrap !== null) parts.push(`${grammar.callWrap.open[0]}${grammar.callWrap.prefix[0] ?? ''}`);
    if (grammar.call.kind === 'tag') parts.push(`${token}${openTag(grammar.call.tag, call.name)}`);
    else parts.push(`${grammar.call.open[0]}${call.name}\n`);
    parts.push(renderArguments(grammar, call.arguments));
    if (cut) return;
    parts.push(token + (grammar.call.kind === 'tag' ? grammar.call.tag.close[0]! : grammar.call.close[0]!));
    if (grammar.callWrap !== null) parts.push(grammar.callWrap.close[0]!);
  });
  if (options.unclosed !== true) {
    if (grammar.section !== null) parts.push(`${token}${grammar.section.close[0]!}`);
    if (grammar.envelope !== null) parts.push(grammar.envelope.close[0]!);
  }
  return fill(parts.join(''), grammar, options);
}
