import { sniffForProfile } from '../profile-sniff.js';
import type { ComposeContext } from '../context.js';
import type { ToolCall } from '../types.js';

export interface Sniffed {
  calls: readonly ToolCall[];
  errors: readonly string[];
  /** The body's text with the calls cut out. */
  prose: string;
}

/**
 * The bare-call sniffer over one body, run at most once per body even though two rungs ask
 * (narration's plain-prose check and the final bare-call rung).
 */
export function lazySniff(text: string, ctx: ComposeContext): () => Sniffed {
  let memo: Sniffed | undefined;
  return () => (memo ??= sniffForProfile(text, ctx));
}
