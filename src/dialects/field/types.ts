/**
 * The shape of a field grammar: how an open model writes tool calls in its own chat template.
 *
 * Every grammar is one frozen record. `openers` are the literal strings that may start its
 * region (the detector looks for nothing else); `family` names the reader that reads it, and
 * the remaining fields are that family's vocabulary. A new model whose calls have a known
 * shape is one more record; only a new shape needs a new reader (see docs/design.md, "Where a
 * new grammar goes").
 */

/** The reader families. Each has one reader in `src/compose/field/readers/`. */
export type FieldFamily = 'token-section' | 'call-objects' | 'param-markup' | 'value-grammar' | 'harmony' | 'reasoning';

export interface FieldGrammarBase {
  /** Stable id (`kimi-k2`, `deepseek-v3`): used in messages, traces and conformance tables. */
  readonly id: string;
  readonly family: FieldFamily;
  /**
   * Literal strings that may start a region of this grammar. Several grammars may share an
   * opener (`<tool_call>`, `<tool_calls>`): they are tried in record order and the first
   * reader that recognises the text wins.
   */
  readonly openers: readonly string[];
  /**
   * Every marker of the grammar. None may reach `prose`, and the tool-shape detector treats
   * dropped text holding one as call syntax.
   */
  readonly markers: readonly string[];
}

/**
 * How the head of one call (the text between the call opener and the arguments) is written,
 * for `token-section` grammars. Forms are tried in order.
 *
 *     <|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}
 *                        ^ name (id form 'kimi-id')^ nameEnd                 ^ args 'json'
 */
export interface CallHeadForm {
  /** A literal that must open the head (`function<｜tool▁sep｜>`); empty for none. */
  readonly prefix: string;
  /**
   * What ends the name: a literal marker, consumed. The empty string means the name runs to
   * the first `{` of the arguments (Mistral with its special tokens skipped).
   */
  readonly nameEnd: string;
  /** How the name is written: plainly, or as Kimi's call id `functions.NAME:IDX`. */
  readonly nameForm: 'plain' | 'kimi-id';
  /** The arguments: one JSON object, or one JSON object in a ```json fence. */
  readonly args: 'json' | 'json-fence';
}

/**
 * Special-token sections whose calls carry a name and JSON arguments: Kimi K2, DeepSeek V3 and
 * V3.1, Mistral v11, PLaMo, Solar Open, ...
 *
 *     [sectionOpen] callOpen HEAD ARGS [callClose] ... [sectionClose]
 *
 * The section markers are optional in the text (a model may start with the call opener, and
 * end markers go missing at the end of a stream); `callClose` may be empty when the grammar
 * repeats its opener per call and closes nothing (Mistral's `[TOOL_CALLS]`).
 */
export interface TokenSectionGrammar extends FieldGrammarBase {
  readonly family: 'token-section';
  readonly sectionOpen: readonly string[];
  readonly sectionClose: readonly string[];
  readonly callOpen: readonly string[];
  readonly callClose: readonly string[];
  readonly heads: readonly CallHeadForm[];
}

/**
 * A deployment suffix written inside every tag of a grammar (Hunyuan's `<think:opensource>`):
 * after an `open` or `close` stem come up to `max` name characters, then `end`. A block's close
 * must carry the suffix its open carried.
 */
export interface TagSuffix {
  readonly end: string;
  readonly max: number;
}

/**
 * Reasoning blocks and answer wrappers (spec section 8), read in the same left-to-right pass
 * as the call grammars, so a marker inside a call's arguments stays part of the arguments.
 *
 *     role 'reasoning':  open BODY close      BODY is reasoning; the first close ends it
 *                        open BODY <stop>     a stop (the next Harmony frame) ends it, unconsumed
 *                        open BODY            cut off: the rest of the text is reasoning
 *     role 'answer':     open, close          markers stepped over; the body between them is
 *                                             read as the text around it (prose, calls)
 *
 * An `openers` entry that is a close, not an open, is a stray close: a marker, nothing more.
 */
export interface ReasoningGrammar extends FieldGrammarBase {
  readonly family: 'reasoning';
  readonly role: 'reasoning' | 'answer';
  readonly open: readonly string[];
  /** The first of these after an open ends the block (no nesting). */
  readonly close: readonly string[];
  /** These end a block without being part of it (they open what follows). */
  readonly stop: readonly string[];
  /**
   * Closes that may stand with no open before them, the chat template having written the open
   * into the prompt: the text from the start of the response up to one is reasoning.
   */
  readonly orphanClose: readonly string[];
  readonly suffix: TagSuffix | null;
}

/**
 * The union of every family's record. A family adds its record type here and its reader to
 * `src/compose/field/readers/index.ts`.
 */
export type FieldGrammar = TokenSectionGrammar | ReasoningGrammar;
