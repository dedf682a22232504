/**
 * The `turn-end` family: the special tokens that end a turn, a message or the whole sequence, in
 * the spelling each model's tokenizer decodes them to. A server that does not skip special
 * tokens passes them on in the text; they carry no content and must not reach `prose`.
 *
 * Tokens a grammar already consumes as its own marker stay that grammar's where they stand in
 * its region (Llama 3's `<|eom_id|>` after a call, GigaChat's `<|message_sep|>` after its call
 * object); outside a region this record consumes them. Harmony's `<|end|>`, `<|return|>` and
 * `<|call|>` are Harmony's markers wherever they stand, so they are not listed here.
 */
import type { TurnEndGrammar } from './types.js';

const TOKENS = [
  // Llama 3.x (`<|eom_id|>` ends a turn that waits for a tool's result) and Llama 4.
  '<|eot_id|>',
  '<|eom_id|>',
  '<|end_of_text|>',
  '<|eot|>',
  '<|eom|>',
  // ChatML (Qwen, Kimi, InternLM, ...).
  '<|im_end|>',
  // DeepSeek, with its fullwidth bars and as some deployments decode it, with ASCII ones.
  '<｜end▁of▁sentence｜>',
  '<|end▁of▁sentence|>',
  // GPT-2 lineage (Phi, StarCoder, Granite-20B-FC, ...).
  '<|endoftext|>',
  // Cohere Command R / R7B / A.
  '<|END_OF_TURN_TOKEN|>',
  // Apertus.
  '<|assistant_end|>',
  // PLaMo-3.
  '<|plamo:eos|>',
  // GigaChat 3: the message ends here (a function-call message may follow).
  '<|message_sep|>',
  // Solar Open: the end of a content message, and of a tool-calls message.
  '<|flush|>',
  '<|calls|>',
  // Pangu / openPangu: end of sentence.
  '[unused10]',
  // Gemma 4.
  '<turn|>',
  // Kimi K3: the XTML message's close after the response and tools blocks, then its end token.
  '<|close|>message<|sep|>',
  '<|end_of_msg|>',
  // GLM-4.5 / 4.6 / 4.7: the role token that hands the turn to the tool's result.
  '<|observation|>',
  // Seed-OSS.
  '<seed:eos>',
  // MiniMax M2: its end-of-sequence token.
  '[e~[',
];

/** Spelled like HTML tags, so prose writes them too: only at the end of the text. */
const TRAILING_TOKENS = [
  // Llama 2, Mistral, Mixtral (and many SentencePiece models).
  '</s>',
  // Gemma 2 / 3.
  '<end_of_turn>',
  '<eos>',
];

export const TURN_END: TurnEndGrammar = {
  id: 'turn-end',
  family: 'turn-end',
  openers: [...TOKENS, ...TRAILING_TOKENS],
  markers: [],
  tokens: TOKENS,
  trailingTokens: TRAILING_TOKENS,
};

export const TURN_END_GRAMMARS: readonly TurnEndGrammar[] = [TURN_END];
