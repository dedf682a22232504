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
  // Qwen-Agent's stop word before the tool's result, left in as the last thing written.
  '✿RESULT✿',
  // Kimi K2.5 / K2 Thinking: its end-of-sequence stop, beside `<|im_end|>`.
  '[EOS]',
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
// it reaches the output where a server echoed the prompt's end or did not skip tokens, and
// mid-text where the model ended a turn and began another of its own (Qwen2.5's template
// writes parallel calls so). Longer spellings first: the blank lines after a header are the header's.
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
  // Granite 3 / 4.
  '<|start_of_role|>assistant<|end_of_role|>',
  // Seed-OSS.
  '<seed:bos>assistant\n',
  '<seed:bos>assistant',
];

// The same headers after the model's own end of turn: it ended a turn and began another of its
// own (Qwen2.5's template writes parallel calls as two turns). Alone, mid-text, a header is
// what answers about a template quote, so it counts only as the response's first text.
const HEADERS_AFTER_END: readonly (readonly [readonly string[], readonly string[]])[] = [
  [['<|im_end|>'], ['<|im_start|>assistant\n', '<|im_start|>assistant', '<|im_assistant|>assistant<|im_middle|>']],
  [['<|eot_id|>', '<|eom_id|>'], ['<|start_header_id|>assistant<|end_header_id|>\n\n', '<|start_header_id|>assistant<|end_header_id|>']],
  [['<|eot|>', '<|eom|>'], ['<|header_start|>assistant<|header_end|>\n\n', '<|header_start|>assistant<|header_end|>']],
  [['<end_of_turn>'], ['<start_of_turn>model\n']],
  [['<turn|>'], ['<|turn>model\n']],
  [['<｜end▁of▁sentence｜>'], ['<｜Assistant｜>']],
  [['<|END_OF_TURN_TOKEN|>'], ['<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>']],
  [['<|end_of_text|>'], ['<|start_of_role|>assistant<|end_of_role|>']],
  [['<seed:eos>'], ['<seed:bos>assistant\n', '<seed:bos>assistant']],
];

/** Each end token with each header glued to it, and on the next line. */
function afterEnd(table: readonly (readonly [readonly string[], readonly string[]])[]): string[] {
  return table.flatMap(([ends, headers]) => ends.flatMap((end) => headers.flatMap((header) => [`${end}${header}`, `${end}\n${header}`])));
}

const OWN_NEXT_TURNS = afterEnd(HEADERS_AFTER_END);

export const TURN_HEADER: TurnEndGrammar = {
  id: 'turn-header',
  family: 'turn-end',
  openers: OWN_NEXT_TURNS,
  responseOpeners: HEADERS,
  markers: [],
  role: 'header',
  tokens: [...OWN_NEXT_TURNS, ...HEADERS],
  trailingTokens: [],
};

// The sequence's first token, or the end of the user's instruction, echoed with the prompt.
// Spelled like text elsewhere (`<s>` is HTML's strike-through), so only as the response's
// first visible text.
const BEGINS = ['<|begin_of_text|>', '<bos>', '<s>'];
// Longer first: a first token with the assistant header after it is one marker.
const SEQUENCE_STARTS = [...BEGINS.flatMap((begin) => HEADERS.map((header) => begin + header)), ...BEGINS, '[/INST]'];

export const SEQUENCE_START: TurnEndGrammar = {
  id: 'sequence-start',
  family: 'turn-end',
  openers: SEQUENCE_STARTS,
  markers: [],
  openAt: 'response-start',
  role: 'header',
  tokens: SEQUENCE_STARTS,
  trailingTokens: [],
};

// Another role's turn as each template opens it, after the model's end of turn: the server did
// not stop there, so the model wrote on as the other side (a result that never ran, then calls
// resting on it). Only the header glued to the end token, or on the next line, counts: the same
// header alone is what answers about a template name and quote, and the model that ran on
// wrote its end token first. Each family's end tokens, then the headers of its other roles.
const FOREIGN_AFTER_END: readonly (readonly [readonly string[], readonly string[]])[] = [
  // ChatML (Qwen, Hermes, InternLM): every role but the assistant's.
  [['<|im_end|>'], ['<|im_start|>user', '<|im_start|>system', '<|im_start|>tool', '<|im_start|>function', '<|im_start|>observation', '<|im_start|>environment']],
  // Llama 3.x and 4.
  [
    ['<|eot_id|>', '<|eom_id|>'],
    ['<|start_header_id|>user<|end_header_id|>', '<|start_header_id|>system<|end_header_id|>', '<|start_header_id|>ipython<|end_header_id|>', '<|start_header_id|>tool<|end_header_id|>'],
  ],
  [['<|eot|>', '<|eom|>'], ['<|header_start|>user<|header_end|>', '<|header_start|>system<|header_end|>', '<|header_start|>ipython<|header_end|>', '<|header_start|>tool<|header_end|>']],
  // DeepSeek V3 / R1 / V3.1, with fullwidth bars and as some deployments decode them.
  [['<｜end▁of▁sentence｜>'], ['<｜User｜>', '<｜tool▁outputs▁begin｜>', '<｜tool▁output▁begin｜>']],
  [['<|end▁of▁sentence|>'], ['<|User|>', '<|tool▁outputs▁begin|>', '<|tool▁output▁begin|>']],
  // Kimi K2, and K3's XTML.
  [['<|im_end|>'], ['<|im_user|>', '<|im_system|>']],
  [['<|close|>message<|sep|>', '<|end_of_msg|>'], ['<|open|>message role="user"', '<|open|>message role="tool"', '<|open|>message role="system"']],
  // Gemma 2 / 3, and Gemma 4.
  [['<end_of_turn>'], ['<start_of_turn>user']],
  [['<turn|>'], ['<|turn>user']],
  // GLM (Phi-3 writes the same user and system tokens after `<|end|>`): the observation role
  // hands over to the tool's result.
  [['<|observation|>'], ['<tool_response>']],
  [['<|endoftext|>', '<|end|>'], ['<|user|>', '<|system|>']],
  // Mistral: a tool's results, a user's instruction.
  [['</s>'], ['[TOOL_RESULTS]', '[INST]']],
  // Cohere Command R / A.
  [['<|END_OF_TURN_TOKEN|>'], ['<|START_OF_TURN_TOKEN|><|USER_TOKEN|>', '<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>']],
  // Granite 3 / 4.
  [
    ['<|end_of_text|>'],
    ['<|start_of_role|>user<|end_of_role|>', '<|start_of_role|>system<|end_of_role|>', '<|start_of_role|>tool<|end_of_role|>', '<|start_of_role|>tool_response<|end_of_role|>'],
  ],
  // Seed-OSS.
  [['<seed:eos>'], ['<seed:bos>user', '<seed:bos>system', '<seed:bos>tool']],
];

/** Harmony's messages by another author: after an end marker, as the reader checks (harmony.ts). */
export const HARMONY_FOREIGN_STARTS: readonly string[] = ['<|start|>user', '<|start|>system', '<|start|>developer', '<|start|>functions.', '<|start|>tool'];

const FOREIGN_TURNS = [
  ...afterEnd(FOREIGN_AFTER_END),
  ...HARMONY_FOREIGN_STARTS,
  // Gemma 4's tool result has a token of its own; the model also writes that token alone as its
  // stop, so only with the result's head after it.
  '<|tool_response>response:',
];

export const TURN_FOREIGN: TurnEndGrammar = {
  id: 'foreign-turn',
  family: 'turn-end',
  openers: FOREIGN_TURNS,
  markers: [],
  role: 'foreign',
  tokens: FOREIGN_TURNS,
  trailingTokens: [],
};

// The foreign turns first: `<|observation|>⏎<tool_response>` begins with an end token.
export const TURN_END_GRAMMARS: readonly TurnEndGrammar[] = [TURN_FOREIGN, TURN_END, TURN_HEADER, SEQUENCE_START];
