/**
 * Field grammars of the `call-objects` family: a tag or special token followed by JSON call
 * objects (`{"name", "arguments"}` and its variants), one, several, or a list. Where a tag is
 * shared with grammars whose body is not JSON (`<tool_call>`, `<tool_calls>`,
 * `<|tool_call_start|>`), the reader takes only a JSON body and leaves the rest.
 */
import { JSON_FENCE } from './fences.js';
import { BASE_FIELDS, uniformRecord } from './layout.js';
import type { CallObjectsGrammar } from './types.js';

/** Every field of the family's records, in the order each record is built with (layout.ts). */
const CALL_OBJECTS_FIELDS = [
  ...BASE_FIELDS,
  'close',
  'closeOptional',
  'extraClose',
  'glued',
  'openerAlone',
  'shapes',
  'methodItems',
  'fence',
  'bodyDecides',
] as const satisfies readonly (keyof CallObjectsGrammar)[];

// A body may stand in a ```json fence after the opener (models trained on Markdown write one);
// a body glued to its opener (`functools[…]`) has no room for one.
function tagged(id: string, open: readonly string[], close: readonly string[], extra: Partial<CallObjectsGrammar> = {}): CallObjectsGrammar {
  const record: CallObjectsGrammar = { id, family: 'call-objects', openers: open, markers: [...open, ...close, ...(extra.extraClose ?? [])], close, shapes: [], ...(extra.glued === true ? {} : { fence: JSON_FENCE }), ...extra };
  return uniformRecord(record, CALL_OBJECTS_FIELDS);
}

/**
 * Hermes / Qwen 2.5 / Qwen 3 `<tool_call>{…}</tool_call>`, also ERNIE 4.5, Granite 4, Trinity
 * and xLAM's list in the same tag.
 */
export const HERMES = tagged('hermes', ['<tool_call>'], ['</tool_call>'], { openerAlone: 'left' });

/**
 * Qwen2.5-Coder: `<tools>{…}</tools>`, the tag its fine-tune writes in place of Hermes'
 * `<tool_call>`; the same tag holds the tool definitions in the system prompt, so its body decides.
 */
export const QWEN25_CODER = tagged('qwen2.5-coder', ['<tools>'], ['</tools>'], { openerAlone: 'left', bodyDecides: true });

/** Granite 3: `<|tool_call|>[…]`, closed by nothing; Phi-4-mini closes the same body with `<|/tool_call|>`. */
export const GRANITE = tagged('granite', ['<|tool_call|>'], [], { closeOptional: true, extraClose: ['<|/tool_call|>'] });

/** Hunyuan, Jamba, Apriel 1.5 (`<tool_calls>[…]</tool_calls>`) and MiniMax M1 (one object per line). */
export const TOOL_CALLS_JSON = tagged('tool-calls-json', ['<tool_calls>'], ['</tool_calls>']);

/**
 * Phi-4 mini `functools[…]`, Firefunction v2 ` functools[…]`: the list follows the word, glued to
 * it or after a space. The word alone is prose (Python's module).
 */
export const PHI4_MINI = tagged('phi-4-mini', ['functools'], [], { closeOptional: true, openerAlone: 'left' });

/** Apertus: name-keyed objects, `<|tools_prefix|>[{"NAME": {args}}]<|tools_suffix|>`. */
export const APERTUS = tagged('apertus', ['<|tools_prefix|>'], ['<|tools_suffix|>'], { shapes: ['name-keyed'] });

/** Command R7B, Command A / 4: `<|START_ACTION|>[{"tool_call_id", "tool_name", "parameters"}]<|END_ACTION|>`. */
export const COMMAND_R = tagged('command-r', ['<|START_ACTION|>'], ['<|END_ACTION|>']);

/** Nemotron Nano v2: `<TOOLCALL>[…]</TOOLCALL>`, where a missing `[` or `]` occurs. */
export const NEMOTRON = tagged('nemotron', ['<TOOLCALL>'], ['</TOOLCALL>']);

/**
 * Glaive's function-calling data (and the fine-tunes trained on it): `<functioncall> {"name": …,
 * "arguments": '{…}'}`, the arguments JSON text in Python's single quotes, one call, closed by
 * nothing but the end of the turn.
 */
export const GLAIVE = tagged('glaive', ['<functioncall>'], [], { closeOptional: true });

/** Llama 3.x JSON: `<|python_tag|>{"name", "parameters"}`, several joined by `;` (a built-in `NAME.call(…)` among them). */
export const LLAMA_3_JSON = tagged('llama-3-json', ['<|python_tag|>'], ['<|eom_id|>', '<|eot_id|>'], { closeOptional: true, methodItems: 'call' });

/** Pangu / openPangu: `[unused11][…][unused12]`. */
export const PANGU = tagged('pangu', ['[unused11]'], ['[unused12]']);

/** LFM2 with a JSON body (a pythonic body is another family's). */
export const LFM2_JSON = tagged('lfm2-json', ['<|tool_call_start|>'], ['<|tool_call_end|>']);

/** Llama 4 with a JSON body (`<|python_start|>{"name": …, "parameters": …}<|python_end|>`, as Llama 3 writes after `<|python_tag|>`); a pythonic list is another family's. */
export const LLAMA4_JSON = tagged('llama4-json', ['<|python_start|>'], ['<|python_end|>']);

/** LongCat-Flash: `<longcat_tool_call>{…}</longcat_tool_call>`. */
export const LONGCAT = tagged('longcat', ['<longcat_tool_call>'], ['</longcat_tool_call>']);

/** Granite-20B-FC: `<function_call>{…}`, repeated, closed by nothing (a `</function_call>` some write is stepped over). */
export const GRANITE_20B_FC = tagged('granite-20b-fc', ['<function_call>'], [], { closeOptional: true, extraClose: ['</function_call>'] });

/**
 * HyperCLOVA X SEED Think 14B: the message's role header ` -> tool/function_call` and a
 * newline, then a list of call objects, then `<|im_end|>` (often cut off by the server).
 */
export const HYPERCLOVAX = tagged('hyperclovax', ['-> tool/function_call\n'], ['<|im_end|>'], { closeOptional: true });

/** dots with a JSON body (its `<invoke>` body is another family's). */
export const DOTS_JSON = tagged('dots-json', ['<dots_function_call>'], ['</dots_function_call>']);

export const CALL_OBJECT_GRAMMARS: readonly CallObjectsGrammar[] = [
  GRANITE,
  APERTUS,
  COMMAND_R,
  NEMOTRON,
  LLAMA_3_JSON,
  LLAMA4_JSON,
  PANGU,
  LONGCAT,
  GRANITE_20B_FC,
  GLAIVE,
  PHI4_MINI,
  HERMES,
  QWEN25_CODER,
  TOOL_CALLS_JSON,
  LFM2_JSON,
  DOTS_JSON,
  HYPERCLOVAX,
];
