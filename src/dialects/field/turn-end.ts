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
  // Nemotron Nano v2: its end of turn (llama.cpp's end token for the template).
  '<SPECIAL_12>',
  // PLaMo-3: its end of sequence, and the end of turn its template writes.
  '<|plamo:eos|>',
  '<|plamo:tag|>',
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
  // Ling 3 / Bailing: the end of a role's turn (llama.cpp strips it when it arrives as text).
  '<|role_end|>',
  // Inkling: the model's end of sampling, after its last message.
  '<|content_model_end_sampling|>',
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
  role: 'end',
  tokens: TOKENS,
  trailingTokens: TRAILING_TOKENS,
};

// The assistant turn's header as each template writes it; the generation prompt holds it, so
// it reaches the output only where a server echoed the prompt's end or did not skip tokens.
// Longer spellings first: the blank lines after a header are the header's.
const HEADERS = [
  // ChatML (Qwen, InternLM, Hermes, ...).
  '<|im_start|>assistant\n',
  '<|im_start|>assistant',
  // Kimi K2.
  '<|im_assistant|>assistant<|im_middle|>',
  // Kimi K3 (XTML): the message's open, with or without its role.
  '<|open|>message role="assistant"<|sep|>',
  '<|open|>message<|sep|>',
  // Llama 3.x and 4.
  '<|start_header_id|>assistant<|end_header_id|>\n\n',
  '<|start_header_id|>assistant<|end_header_id|>',
  '<|header_start|>assistant<|header_end|>\n\n',
  '<|header_start|>assistant<|header_end|>',
  // Gemma 2 / 3, and Gemma 4.
  '<start_of_turn>model\n',
  '<|turn>model\n',
  // DeepSeek V3 / R1.
  '<｜Assistant｜>',
  // Cohere Command R / A.
  '<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>',
];

export const TURN_HEADER: TurnEndGrammar = {
  id: 'turn-header',
  family: 'turn-end',
  openers: HEADERS,
  markers: [],
  openAt: 'response-start',
  role: 'header',
  tokens: HEADERS,
  trailingTokens: [],
};

export const TURN_END_GRAMMARS: readonly TurnEndGrammar[] = [TURN_END, TURN_HEADER];
