/**
 * The stray sniffer with the turn's profile: `harn` runs it against the registry plus the
 * implicit names, with alias folding; `gateway` against the registered names only, unfolded,
 * and with no registry it reads nothing but a text that is one whole native JSON payload
 * (Llama 3 and Ollama print their calls so), whatever its names.
 */
import { sniffWithNames, wholeNativePayload } from './sniff/bare-calls.js';
import { knownNamesOf, type KnownNames } from './sniff/names.js';
import type { ComposeContext } from './context.js';
import { isNameLike } from './field/admit.js';
import type { BareScan } from './sniff/sniff.js';

// The stray ladders read `prose` only when calls were found.
export const NOTHING_SNIFFED: BareScan = Object.freeze({ calls: Object.freeze([]), errors: Object.freeze([]), prose: '' });

/** Any name-like name, unfolded: a whole native JSON payload's names when no registry was given. */
const ANY_NAME: KnownNames = Object.freeze({ has: isNameLike, sorted: Object.freeze([]), folds: false, lookAlikes: true });

export function sniffForProfile(text: string, ctx: ComposeContext): BareScan {
  if (ctx.sniffNames === undefined) return sniffWithNames(text, knownNamesOf(ctx.registry), ctx.marks);
  if (ctx.profile === 'gateway' && ctx.registry === null) return wholeNativePayload(text, ANY_NAME, ctx.marks) ?? NOTHING_SNIFFED;
  return sniffWithNames(text, ctx.sniffNames, ctx.marks);
}
