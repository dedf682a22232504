/**
 * What makes a value on a line code rather than a call standing in prose: a code lead
 * (`LOOKALIKE.codeLeads`: an assignment, an opening parenthesis, a quote) written just before
 * it. The gateway's look-alike sniffers (native JSON, pythonic lists) and the sniff gate share
 * this one reading of it.
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
