/**
 * Markers cut out of gateway prose. The reference blanks a turn whose only content broke the
 * protocol (project.ts); a gateway shows the model's words instead, so what the walk kept as
 * prose in such a turn, and the words around a stray protocol tag, lose their markers here: a
 * special token (`<|tool_call_end|>`, `<｜end▁of▁sentence｜>`) or a tag of the response
 * protocol (`</tool_call>`, `<user_response>`, `</done>`) or a field grammar's marker
 * (`</function>`, `<invoke name="x">`) is never prose.
 */
import { DIALECTS } from '../dialects/index.js';
import { FIELD_GRAMMARS } from '../dialects/field/index.js';
import { Code } from '../lex/codes.js';
import { startsWithFolded } from './ascii-fold.js';
import { literalTrieSource } from './literal-trie.js';

/** A special token written out: `<|name|>` or `<｜name｜>`, no blank inside. */
export const SPECIAL_TOKEN = /<[|｜][^\s|｜<>]{1,64}[|｜]>/;
const SPECIAL_TOKENS = new RegExp(SPECIAL_TOKEN.source, 'g');
const WHOLE_SPECIAL_TOKEN = new RegExp(`^${SPECIAL_TOKEN.source}$`);

/** Whether `raw` is one special token as tokenizers write them (`<|im_end|>`, `<｜end｜>`). */
export function isSpecialToken(raw: string): boolean {
  return WHOLE_SPECIAL_TOKEN.test(raw);
}

const RESPONSE_NAMES: ReadonlySet<string> = new Set(DIALECTS.TAGGED_DIALECT.flatMap((d) => [...d.spellings]).map((s) => s.toLowerCase()));
const CALL_SUFFIX = '_call';
/** A tag's name is this long at most; a longer `<…>` is text. */
const MAX_TAG_NAME = 64;

/**
 * Every field grammar's markers, longest first, in one RegExp; a marker that opens a tag with
 * attributes (`<invoke name=`, `<function=`) runs to the `>` that ends the tag on its line.
 */
let fieldMarkers: { readonly cut: RegExp; readonly any: RegExp } | null = null;

function fieldMarkerPatterns(): { readonly cut: RegExp; readonly any: RegExp } {
  if (fieldMarkers !== null) return fieldMarkers;
  const literals = [...new Set(FIELD_GRAMMARS.flatMap((g) => g.markers))].filter((m) => m.trim().length > 1).sort((a, b) => b.length - a.length);
  const escape = (m: string): string => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alternatives = literals.map((m) => (m.startsWith('<') && !m.endsWith('>') ? `${escape(m)}[^>\n]{0,${MAX_ATTRIBUTES}}>` : escape(m)));
  // perf: every alternative of `cut` begins with one of the literals, so a text where the trie of
  // them finds none has nothing to cut; its test costs a third of the flat alternation's pass,
  // and most prose pieces hold no marker.
  return (fieldMarkers = { cut: new RegExp(alternatives.join('|'), 'g'), any: new RegExp(literalTrieSource(literals)) });
}

/** How long a tag's attributes may run after its marker. */
const MAX_ATTRIBUTES = 256;

/** `text` with its markers (special tokens, field grammars' markers, protocol tags) cut out, trimmed. */
export function withoutMarkers(text: string): string {
  let out = text.indexOf('|') >= 0 || text.indexOf('｜') >= 0 ? text.replace(SPECIAL_TOKENS, '') : text;
  const markers = fieldMarkerPatterns();
  if (markers.any.test(out)) out = out.replace(markers.cut, '');
  if (out.indexOf('>') >= 0) out = withoutProtocolTags(out);
  return out.trim();
}

/** `text` with each `<name>` or `</name>` whose name ends in `_call` or spells a response tag cut out. */
function withoutProtocolTags(text: string): string {
  let kept = '';
  let copied = 0;
  for (let lt = text.indexOf('<'); lt >= 0; lt = text.indexOf('<', lt + 1)) {
    const nameAt = text.charCodeAt(lt + 1) === Code.Slash ? lt + 2 : lt + 1;
    let end = nameAt;
    while (end < text.length && end - nameAt <= MAX_TAG_NAME && isNameCode(text.charCodeAt(end))) end++;
    if (end === nameAt || text.charCodeAt(end) !== Code.GreaterThan) continue;
    const name = text.slice(nameAt, end).toLowerCase();
    if (!RESPONSE_NAMES.has(name) && !(name.length > CALL_SUFFIX.length && startsWithFolded(name, name.length - CALL_SUFFIX.length, CALL_SUFFIX))) continue;
    kept += text.slice(copied, lt);
    copied = end + 1;
  }
  return copied === 0 ? text : kept + text.slice(copied);
}

function isNameCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d || code === 0x3a || code === 0x2e;
}
