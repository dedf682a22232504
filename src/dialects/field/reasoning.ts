/**
 * Field grammars of the `reasoning` family (spec section 8): the blocks in which models think
 * before they answer, and the wrappers around their answers. Markers are written exactly as the
 * models' decoded output shows them.
 *
 * Which closes may be orphans (the template put the open into the prompt) follows the models'
 * chat templates: Qwen3, DeepSeek R1 / V3.1, GLM-4.5 and Hunyuan end their generation prompt
 * with `<think>` (Hunyuan's carries its suffix); Kimi K3 may open `think` or `response` there. Closes that are ordinary frame ends
 * in another grammar (Solar's and Harmony's `<|end|>`) are never orphans, and are not detected
 * on their own either: only the block they close consumes them.
 */
import { HARMONY_BODY_STOPS } from './harmony.js';
import type { ReasoningGrammar } from './types.js';

interface BlockSpec {
  readonly id: string;
  readonly role: ReasoningGrammar['role'];
  readonly open: readonly string[];
  readonly close: readonly string[];
  readonly stop?: readonly string[];
  /** Detect a close standing alone (a stray close, stepped over as a marker). */
  readonly strayClose: boolean;
  /**
   * A close with no open may end reasoning the prompt opened: always (`true`), only under
   * `reasoning_started: true` (`'flagged'`), or never (`false`).
   */
  readonly orphan: boolean | 'flagged';
  readonly suffix?: ReasoningGrammar['suffix'];
  /** An answer whose body is prose as written up to one of these (`ReasoningGrammar.verbatimUntil`). */
  readonly verbatimUntil?: readonly string[];
  /** Plain-word markers (`ReasoningGrammar.closeRequired`), and where the open counts. */
  readonly closeRequired?: boolean;
  /** Plain-word markers ended by a stop anywhere (`ReasoningGrammar.stopRequired`). */
  readonly stopRequired?: boolean;
  readonly openAt?: ReasoningGrammar['openAt'];
}

function block(spec: BlockSpec): ReasoningGrammar {
  return {
    id: spec.id,
    family: 'reasoning',
    role: spec.role,
    openers: spec.strayClose ? [...spec.open, ...spec.close] : [...spec.open],
    // Plain words are no markers where they stand as text (a sentence may say them).
    markers: spec.closeRequired === true || spec.stopRequired === true ? [] : [...spec.open, ...spec.close],
    open: spec.open,
    close: spec.close,
    stop: spec.stop ?? [],
    orphanClose: spec.orphan !== false ? spec.close : [],
    orphanUnflagged: spec.orphan === true,
    suffix: spec.suffix ?? null,
    ...(spec.verbatimUntil === undefined ? {} : { verbatimUntil: spec.verbatimUntil }),
    ...(spec.closeRequired === true || spec.stopRequired === true ? { closeRequired: true } : {}),
    ...(spec.stopRequired === true ? { stopRequired: true } : {}),
    ...(spec.openAt === undefined ? {} : { openAt: spec.openAt }),
  };
}

/**
 * MiniMax M3's namespace token, which it may write before any tag, `<think>` and `</think>`
 * included, with a space or a line break between (it must never reach the text a client sees).
 */
const MINIMAX_M3_LEADS = ['', ']<]minimax[>[', ']<]minimax[>[ ', ']<]minimax[>[\n'];
const m3Led = (tag: string): string[] => MINIMAX_M3_LEADS.map((lead) => `${lead}${tag}`);

/**
 * Qwen3, DeepSeek R1 / V3.1+, GLM, MiniMax M2 and M3, Nemotron, Hunyuan, ERNIE, Granite 4,
 * Trinity. M3's token is part of the marker wherever it stands before one.
 */
export const THINK = block({
  id: 'think',
  role: 'reasoning',
  open: m3Led('<think>'),
  close: m3Led('</think>'),
  strayClose: true,
  orphan: true,
});

/**
 * MiniMax M3's own thinking tags, `<mm:think>…</mm:think>` (llama.cpp's MiniMax-M3 template):
 * the generation prompt does not open the block, so the model opens it itself, and a turn with
 * no reasoning begins with a bare `</mm:think>`, an orphan close with nothing before it. The
 * namespace token may stand right before either tag.
 */
export const MINIMAX_M3_THINK = block({
  id: 'minimax-m3-think',
  role: 'reasoning',
  open: ['<mm:think>', ']<]minimax[>[<mm:think>'],
  close: ['</mm:think>', ']<]minimax[>[</mm:think>'],
  strayClose: true,
  orphan: true,
});

/**
 * Hunyuan HY-V3 / V4: `<think:opensource>…</think:opensource>`, any deployment suffix. The
 * template opens the block in the generation prompt when reasoning is on, so its close may be
 * an orphan.
 */
export const HUNYUAN_THINK = block({
  id: 'hunyuan-think',
  role: 'reasoning',
  open: ['<think:'],
  close: ['</think:'],
  strayClose: true,
  orphan: true,
  suffix: { end: '>', max: 64 },
});

/** Hunyuan's answer wrapper, with the deployment suffix (`<answer:opensource>…</answer:opensource>`). */
export const HUNYUAN_SUFFIXED_ANSWER = block({
  id: 'hunyuan-answer-suffixed',
  role: 'answer',
  open: ['<answer:'],
  close: ['</answer:'],
  strayClose: true,
  orphan: false,
  suffix: { end: '>', max: 64 },
});

// Harmony frames may be written with a space after each special token (LLM-jp-4.1), and the
// output may begin mid-header, with no `<|start|>assistant`, or at the channel word itself (the
// template ended the prompt with `<|channel|>`).
function harmonyHeaders(channel: string): string[] {
  const headers: string[] = [];
  for (const start of ['<|start|>assistant', '<|start|> assistant', '']) {
    for (const space of ['', ' ']) headers.push(`${start}<|channel|>${space}${channel}<|message|>`);
  }
  headers.push(`${channel}<|message|>`);
  return headers;
}

/** gpt-oss: the `analysis` channel, up to `<|end|>` or the next frame. */
export const HARMONY_ANALYSIS = block({
  id: 'harmony-analysis',
  role: 'reasoning',
  open: harmonyHeaders('analysis'),
  close: ['<|end|>'],
  stop: ['<|start|>', '<|channel|>'],
  strayClose: false,
  orphan: false,
});

/**
 * gpt-oss: the `final` channel is the answer; `<|return|>` ends the turn. Its body is prose as
 * written up to the message's end: a call is only a message with a recipient, so JSON written in
 * the answer (`Here is the JSON: {"name": …}`) is part of it.
 */
export const HARMONY_FINAL = block({
  id: 'harmony-final',
  role: 'answer',
  open: harmonyHeaders('final'),
  close: ['<|return|>'],
  strayClose: true,
  orphan: false,
  verbatimUntil: HARMONY_BODY_STOPS,
});

/**
 * gpt-oss output whose special tokens a server stripped (`skip_special_tokens`): each message's
 * role and channel run together, `assistantanalysis…assistantcommentary to=functions.f json{…}
 * assistantfinal…`, and a response whose first header sat in the prompt begins with the bare
 * channel word (`analysis…`). The glued words are the markers; `commentary` with a recipient is
 * a call (the `harmony-flat` record), without one a preamble.
 */
export const HARMONY_FLAT_STARTS: readonly string[] = ['assistantanalysis', 'assistantcommentary', 'assistantfinal'];
const HARMONY_FLAT_STOPS = [...HARMONY_FLAT_STARTS, ...HARMONY_BODY_STOPS];

/** The first message's `analysis` (its header in the prompt): a plain word, reasoning only when a flattened message follows. */
export const HARMONY_FLAT_FIRST = block({
  id: 'harmony-flat-first',
  role: 'reasoning',
  open: ['analysis:', 'analysis'],
  close: [],
  stop: HARMONY_FLAT_STOPS,
  strayClose: false,
  orphan: false,
  stopRequired: true,
  openAt: 'response-start',
});

export const HARMONY_FLAT_ANALYSIS = block({ id: 'harmony-flat-analysis', role: 'reasoning', open: ['assistantanalysis'], close: [], stop: HARMONY_FLAT_STOPS, strayClose: false, orphan: false });

/** The flattened `final` answer, and a `commentary` preamble with no recipient: prose as written up to the next message. */
export const HARMONY_FLAT_FINAL = block({ id: 'harmony-flat-final', role: 'answer', open: ['assistantfinal'], close: [], strayClose: false, orphan: false, verbatimUntil: HARMONY_FLAT_STOPS });
export const HARMONY_FLAT_COMMENTARY = block({ id: 'harmony-flat-commentary', role: 'answer', open: ['assistantcommentary'], close: [], strayClose: false, orphan: false, verbatimUntil: HARMONY_FLAT_STOPS });

/**
 * Inkling (TMLv0): a model message is `<|message_model|>`, a content token and a body ending at
 * `<|end_message|>`; the first message's header sits in the prompt, so a response may begin at
 * the content token. `<|content_thinking|>` is reasoning, `<|content_text|>` the answer (a call is
 * `NAME<|content_invoke_tool_json|>`, the `inkling` record).
 */
export const INKLING_THINKING = block({
  id: 'inkling-thinking',
  role: 'reasoning',
  open: ['<|message_model|><|content_thinking|>', '<|content_thinking|>'],
  close: ['<|end_message|>'],
  strayClose: false,
  orphan: false,
});
// The answer's close is stepped over where it stands (the lane reads the answer's body up to it).
export const INKLING_TEXT = block({ id: 'inkling-text', role: 'answer', open: ['<|message_model|><|content_text|>', '<|content_text|>'], close: ['<|end_message|>'], strayClose: true, orphan: false });

/** Command R7B / Command A / Command 4. */
export const COMMAND_THINKING = block({
  id: 'command-thinking',
  role: 'reasoning',
  open: ['<|START_THINKING|>'],
  close: ['<|END_THINKING|>'],
  strayClose: true,
  orphan: true,
});

export const COMMAND_RESPONSE = block({
  id: 'command-response',
  role: 'answer',
  open: ['<|START_RESPONSE|>', '<|START_TEXT|>'],
  close: ['<|END_RESPONSE|>', '<|END_TEXT|>'],
  strayClose: true,
  orphan: false,
});

/**
 * Magistral, Ministral 3. The template never opens the block in the prompt, so a close with no
 * open is a stray marker and the text around it the answer (vLLM's Mistral reasoning parser),
 * unless the caller says the prompt opened it (`reasoning_started: true`).
 */
export const MAGISTRAL_THINK = block({ id: 'magistral-think', role: 'reasoning', open: ['[THINK]'], close: ['[/THINK]'], strayClose: true, orphan: 'flagged' });

export const SEED_THINK = block({ id: 'seed-think', role: 'reasoning', open: ['<seed:think>'], close: ['</seed:think>'], strayClose: true, orphan: true });

/** MiniCPM 3 / 4 (their function-calling template): `<|thought_start|>…<|thought_end|>` before the calls or the answer. */
export const MINICPM_THOUGHT = block({ id: 'minicpm-thought', role: 'reasoning', open: ['<|thought_start|>'], close: ['<|thought_end|>'], strayClose: true, orphan: true });

/** LongCat-Flash (vLLM's LongCat reasoning parser): its template ends the generation prompt with the open, so the close may be an orphan. */
export const LONGCAT_THINK = block({ id: 'longcat-think', role: 'reasoning', open: ['<longcat_think>'], close: ['</longcat_think>'], strayClose: true, orphan: true });

/** Kimi-VL Thinking (SGLang's Kimi reader): `◁think▷…◁/think▷`. */
export const KIMI_VL_THINK = block({ id: 'kimi-vl-think', role: 'reasoning', open: ['◁think▷'], close: ['◁/think▷'], strayClose: true, orphan: true });

/** PLaMo-3 (vLLM's PLaMo-3 reasoning parser); the template may open the block in the prompt. */
export const PLAMO_THINK = block({
  id: 'plamo-think',
  role: 'reasoning',
  open: ['<|plamo:begin_think:plamo|>'],
  close: ['<|plamo:end_think:plamo|>'],
  strayClose: true,
  orphan: true,
});

/** Apertus. */
export const APERTUS_INNER = block({
  id: 'apertus-inner',
  role: 'reasoning',
  open: ['<|inner_prefix|>'],
  close: ['<|inner_suffix|>'],
  strayClose: true,
  orphan: true,
});

/**
 * Kimi K3 (XTML blocks). A server that decodes with spaces between special tokens writes the
 * block's word spaced from its tokens (`<|open|> response <|sep|>`, as vLLM's K3 suite reads it).
 */
const k3 = (edge: '<|open|>' | '<|close|>', word: string): string[] => [`${edge}${word}<|sep|>`, `${edge} ${word} <|sep|>`];

export const KIMI_K3_THINK = block({
  id: 'kimi-k3-think',
  role: 'reasoning',
  open: k3('<|open|>', 'think'),
  close: k3('<|close|>', 'think'),
  strayClose: true,
  orphan: true,
});

export const KIMI_K3_RESPONSE = block({
  id: 'kimi-k3-response',
  role: 'answer',
  open: k3('<|open|>', 'response'),
  close: k3('<|close|>', 'response'),
  strayClose: true,
  orphan: false,
});

/**
 * Gemma 4: the thinking channel `<|channel>thought\n…<channel|>`. The `thought` label and its
 * newline are part of the open (vLLM's Gemma 4 reasoning parser strips them); the open is that
 * one literal, since a shorter one (`<|channel>`) would be a prefix a stream could not tell
 * from it before the label came. With thinking off the template writes an empty
 * `<|channel>thought\n<channel|>` into the prompt; with it on the model opens the channel
 * itself, so a close with no open is an orphan, as vLLM reads it.
 */
export const GEMMA4_THOUGHT = block({
  id: 'gemma4-thought',
  role: 'reasoning',
  // With a thinking budget of zero the sampler forces the close right after the label, before
  // its newline (`<|channel>thought<channel|>Hi`): the label alone opens an empty block too. A
  // channel opened with no label (`<|channel>first idea<channel|>`, which Ollama's reader takes)
  // is the thinking channel as well: the longest spelling present wins.
  open: ['<|channel>thought\n', '<|channel>thought', '<|channel>'],
  close: ['<channel|>'],
  // A bare call right after the close (its `<|tool_call>` skipped) takes the close as its opener.
  stop: ['<channel|>call:'],
  strayClose: true,
  orphan: true,
});

/**
 * The format GRPO recipes prompt small models for (`<reasoning>…</reasoning>` then
 * `<answer>…</answer>`, whose wrapper is Hunyuan's): the system prompt asks for it, never opens
 * it, so no close is an orphan, and a lone close stays text. A word that prose writes as a tag
 * too, so only as the response's first text, where the format puts it (a line start further on
 * would be one only in the whole text, never in the text a stream holds after a release).
 */
export const GRPO_REASONING: ReasoningGrammar = {
  ...block({ id: 'grpo-reasoning', role: 'reasoning', open: ['<reasoning>'], close: ['</reasoning>'], strayClose: false, orphan: false, openAt: 'response-start' }),
  // Elsewhere the tags are the sentence's own (`wrap it in <reasoning> tags`): no markers to keep out of prose.
  markers: [],
};

export const APRIEL_THINKING = block({ id: 'apriel-thinking', role: 'reasoning', open: ['<thinking>'], close: ['</thinking>'], strayClose: true, orphan: true });

/**
 * Solar Open: `<|think|>…<|end|>`, then the answer after `<|content|>` (no close of its own).
 * The public Solar parser also ends the reasoning where the answer or the tool calls begin,
 * the `<|end|>` left out: those tokens stop the block and open what follows.
 */
export const SOLAR_THINK = block({
  id: 'solar-think',
  role: 'reasoning',
  open: ['<|think|>'],
  close: ['<|end|>'],
  stop: ['<|content|>', '<|tool_calls|>'],
  strayClose: false,
  orphan: false,
});

/**
 * Solar Open 2 (Solar Pro 4): `<|think:start|>…<|think:end|>`, then the answer. The prompt
 * usually opens the block, so a response often begins inside it and shows only the close.
 */
export const SOLAR_OPEN2_THINK = block({ id: 'solar-open2-think', role: 'reasoning', open: ['<|think:start|>'], close: ['<|think:end|>'], strayClose: true, orphan: true });

/** The answer after `<|content|>`. */
export const SOLAR_CONTENT = block({ id: 'solar-content', role: 'answer', open: ['<|content|>'], close: [], strayClose: false, orphan: false });

/** GigaChat 3: `assistant<|role_sep|>` heads an assistant message (a marker, no content); it ends at `<|message_sep|>`. */
export const GIGACHAT_ASSISTANT = block({ id: 'gigachat-assistant', role: 'answer', open: ['assistant<|role_sep|>'], close: [], strayClose: false, orphan: false });

/** Qwen-Agent's answer after a tool's result: `✿RETURN✿: …` heads the visible reply (its calls are `qwen-agent`'s). */
export const QWEN_AGENT_RETURN = block({ id: 'qwen-agent-return', role: 'answer', open: ['✿RETURN✿:'], close: [], strayClose: false, orphan: false });

/** Pangu / openPangu: `[unused16]…[unused17]` (vLLM's Pangu reasoning parser). */
export const PANGU_THINK = block({ id: 'pangu-think', role: 'reasoning', open: ['[unused16]'], close: ['[unused17]'], strayClose: true, orphan: true });

/** K2 Horizon (K2-v3): three thinking modes, each its own tag. */
export const K2_HORIZON_THINK = block({
  id: 'k2-horizon-think',
  role: 'reasoning',
  open: ['<ifm|think>', '<ifm|think_fast>', '<ifm|think_faster>'],
  close: ['</ifm|think>', '</ifm|think_fast>', '</ifm|think_faster>'],
  strayClose: true,
  orphan: true,
});

/** ERNIE 4.5: the answer of a turn without calls. */
export const ERNIE_RESPONSE = block({ id: 'ernie-response', role: 'answer', open: ['<response>'], close: ['</response>'], strayClose: true, orphan: false });

/** Hunyuan A13B: `<think>\n…\n</think>\n<answer>\n…\n</answer>`. */
export const HUNYUAN_ANSWER = block({ id: 'hunyuan-answer', role: 'answer', open: ['<answer>'], close: ['</answer>'], strayClose: true, orphan: false });

/**
 * Apriel 1.5 / 1.6 Thinker: the reasoning has no open of its own (the template's prompt ends
 * with `Here are my reasoning steps:\n`, or the model writes it), and `[BEGIN FINAL RESPONSE]`
 * ends it; the answer runs to `[END FINAL RESPONSE]` where the template writes one.
 */
export const APRIEL_FINAL = block({ id: 'apriel-final', role: 'reasoning', open: [], close: ['[BEGIN FINAL RESPONSE]'], strayClose: true, orphan: true });

export const APRIEL_FINAL_END = block({ id: 'apriel-final-end', role: 'answer', open: [], close: ['[END FINAL RESPONSE]'], strayClose: true, orphan: false });

/**
 * Granite 3.2 with thinking on: `Here is my thought process:` … `Here is my response:` (or
 * `Here's`), plain words (vLLM's Granite reasoning parser). Plain words are risky, so the open
 * counts only as the response's first text and only when the close follows at a line's start;
 * otherwise both are prose.
 */
export const GRANITE_THOUGHT = block({
  id: 'granite-thought',
  role: 'reasoning',
  open: ['Here is my thought process:', "Here's my thought process:", 'Here’s my thought process:'],
  close: ['Here is my response:', "Here's my response:", 'Here’s my response:'],
  strayClose: false,
  orphan: false,
  closeRequired: true,
  openAt: 'response-start',
});

/** Solar Open: the header of a turn's next message (`<|end|><|begin|>assistant<|content|>…`), a marker. */
export const SOLAR_TURN = block({ id: 'solar-turn', role: 'answer', open: ['<|begin|>assistant'], close: [], strayClose: false, orphan: false });

export const REASONING_GRAMMARS: readonly ReasoningGrammar[] = [
  THINK,
  MINIMAX_M3_THINK,
  HUNYUAN_THINK,
  HUNYUAN_SUFFIXED_ANSWER,
  HARMONY_ANALYSIS,
  HARMONY_FINAL,
  HARMONY_FLAT_FIRST,
  HARMONY_FLAT_ANALYSIS,
  HARMONY_FLAT_FINAL,
  HARMONY_FLAT_COMMENTARY,
  INKLING_THINKING,
  INKLING_TEXT,
  COMMAND_THINKING,
  COMMAND_RESPONSE,
  MAGISTRAL_THINK,
  SEED_THINK,
  PLAMO_THINK,
  LONGCAT_THINK,
  MINICPM_THOUGHT,
  KIMI_VL_THINK,
  APERTUS_INNER,
  KIMI_K3_THINK,
  KIMI_K3_RESPONSE,
  APRIEL_THINKING,
  GRPO_REASONING,
  GEMMA4_THOUGHT,
  SOLAR_THINK,
  SOLAR_CONTENT,
  SOLAR_OPEN2_THINK,
  PANGU_THINK,
  GIGACHAT_ASSISTANT,
  QWEN_AGENT_RETURN,
  K2_HORIZON_THINK,
  ERNIE_RESPONSE,
  HUNYUAN_ANSWER,
  APRIEL_FINAL,
  APRIEL_FINAL_END,
  SOLAR_TURN,
  GRANITE_THOUGHT,
];
