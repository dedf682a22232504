/**
 * What makes a value on a line code or a quotation rather than a call standing in prose: a code
 * lead (`LOOKALIKE.codeLeads`: an assignment, an opening parenthesis, a quote) written just
 * before it, or a Markdown blockquote or bullet opening its line. The gateway's look-alike
 * sniffers (native JSON, pythonic lists) and the sniff gate share this one reading of it.
 */
import { LOOKALIKE } from '../../dialects/field/look-alikes.js';
import { skipBlanksBack } from '../../lex/codes.js';

const CODE_LEADS: ReadonlySet<number> = new Set(LOOKALIKE.codeLeads.map((lead) => lead.charCodeAt(0)));

/** Whether the character code is a code lead. */
export function isCodeLead(code: number): boolean {
  return CODE_LEADS.has(code);
}

/** Whether a code lead stands before `at` on its line, through spaces and tabs (`payload = {`, `post({`). */
export function afterCodeLead(text: string, at: number): boolean {
  const lead = skipBlanksBack(text, at);
  return lead > 0 && CODE_LEADS.has(text.charCodeAt(lead - 1));
}

const QUOTE_LEADS: ReadonlySet<number> = new Set(LOOKALIKE.quoteLeads.map((lead) => lead.charCodeAt(0)));
const BULLET_LEADS: ReadonlySet<number> = new Set(LOOKALIKE.bulletLeads.map((lead) => lead.charCodeAt(0)));

/**
 * Whether a value on a line whose first character that is not blank is `first` is a quotation:
 * the line is a Markdown blockquote (`> {…}`), or `first` is a list item's bullet and stands
 * alone before the value (`bulletOnly`: `- [f(a=1)]`).
 */
export function quotesLine(first: number, bulletOnly: boolean): boolean {
  return QUOTE_LEADS.has(first) || (bulletOnly && BULLET_LEADS.has(first));
}
