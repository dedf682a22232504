/**
 * The literals that start tool-call markup, for telling a reasoning block that holds a call
 * (a `call_in_reasoning` violation) from one that only thinks: every call grammar's opener
 * (the field grammars' records) and the reference grammar's call openers (the dialect
 * vocabulary). Built once, from data; the array is one object so `FieldScan.earliest` memoises
 * its search across the blocks of a parse.
 */
import { FIELD_GRAMMARS } from '../../dialects/field/index.js';
import { DIALECTS } from '../../dialects/vocabulary.js';

function tag(name: string): string {
  return `<${name}>`;
}

/**
 * Whether an opener is markup rather than words: it holds a bracket or bar of a special token
 * or tag. Thinking is prose and quotes code, so the look-alike openers (a `{` or `[` at a line's
 * start) and the word-like openers (`>>>`, `functools`, `to=functions.`, `**Tool Call:**`) stand
 * in it without any call being meant; only the field grammars' other openers say one is.
 */
function isMarkup(opener: string): boolean {
  return opener.length > 1 && /[<[\]|｜‹]/.test(opener);
}

function build(): readonly string[] {
  const needles = new Set<string>();
  for (const grammar of FIELD_GRAMMARS) {
    // A turn's end or header is no call markup: a block cut off by the end of the turn holds one.
    if (grammar.family === 'reasoning' || grammar.family === 'turn-end' || grammar.openAt === 'line-start') continue;
    // Harmony's end markers open a region only to account for a stray one; in thinking they end
    // the analysis message.
    const ends: readonly string[] = grammar.family === 'harmony' ? grammar.ends : [];
    for (const opener of grammar.openers) if (isMarkup(opener) && !ends.includes(opener)) needles.add(opener);
  }
  const toolCall = DIALECTS.TAGGED_DIALECT.find((d) => d.canonical === 'tool_call');
  for (const spelling of toolCall?.spellings ?? []) needles.add(tag(spelling));
  for (const envelope of DIALECTS.ENVELOPE_OPENERS) for (const spelling of envelope.spellings) needles.add(tag(spelling));
  for (const wrapper of DIALECTS.CONTENTLESS_WRAPPER_TAGS) needles.add(tag(wrapper));
  for (const markup of DIALECTS.MARKUP_DIALECTS) needles.add(markup.opener);
  needles.add(DIALECTS.MISTRAL_CALL_MARKER);
  needles.add(DIALECTS.DSML_MARKER);
  needles.add(DIALECTS.RESERVED_MALFORMED_CALL_OPENER);
  return Object.freeze([...needles]);
}

let needles: readonly string[] | null = null;

export function callMarkupNeedles(): readonly string[] {
  return (needles ??= build());
}

/** The first call-markup literal in text[start, end) that is not named in a sentence, or null. */
export function callMarkupWithin(earliest: (needles: readonly string[], from: number) => number, text: string, start: number, end: number): string | null {
  const list = callMarkupNeedles();
  for (let at = earliest(list, start); at >= 0 && at < end; at = earliest(list, at + 1)) {
    let found: string | null = null;
    for (const needle of list) {
      if (text.startsWith(needle, at) && (found === null || needle.length > found.length)) found = needle;
    }
    if (found !== null && !isNamed(text, at, at + found.length)) return found;
  }
  return null;
}

/**
 * Whether the marker at [at, end) is named rather than written: quoted (`` `<tool_call>` ``,
 * `"<tool_call>"`), or between words (`I will emit one <tool_call> for it.`), where thinking
 * talks about the markup it plans, and nothing was drafted.
 */
function isNamed(text: string, at: number, end: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(end);
  if (before === after && (before === 0x60 || before === 0x22 || before === 0x27)) return true;
  return before === 0x20 && after === 0x20 && isLetter(text.charCodeAt(end + 1)) && isLetter(text.charCodeAt(at - 2));
}

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code > 0x7f;
}

/** The reference grammar's call block tags (`<tool_call>` … `</tool_call>`), for the lane's guard. */
export function referenceBlockTags(): { readonly open: readonly string[]; readonly close: readonly string[] } {
  const toolCall = DIALECTS.TAGGED_DIALECT.find((d) => d.canonical === 'tool_call');
  const spellings = toolCall?.spellings ?? [];
  return { open: spellings.map(tag), close: spellings.map((s) => tag(`/${s}`)) };
}
