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
export type FieldFamily = 'token-section' | 'call-objects' | 'param-markup' | 'value-grammar' | 'harmony' | 'look-alike';

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
  /**
   * Where an opener counts: anywhere (the default), or only at the start of the text or of a
   * line (look-alikes opened by `{` or `[`, so plain text costs no probe per bracket).
   */
  readonly openAt?: 'anywhere' | 'line-start';
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
 * How the calls between a `value-grammar` opener and its close are written.
 *
 * - `py-calls`: pythonic calls with keyword arguments, in a list `[f(a=1), g(b='x')]` or one per
 *   line with no brackets (Olmo 3);
 * - `py-method-call`: one call written `NAME.METHOD(k=v)` (Llama 3's built-in tools, `.call`);
 * - `gemma-calls`: `PREFIX NAME{k:v,…}` (Gemma's `call:`), strings between `stringDelimiter`.
 */
export type ValueBody =
  | { readonly form: 'py-calls' }
  | { readonly form: 'py-method-call'; readonly method: string }
  | { readonly form: 'gemma-calls'; readonly callPrefix: string; readonly stringDelimiter: string };

/**
 * Calls whose arguments are written in a value grammar other than JSON (Python literals,
 * Gemma's): Llama 4, LFM2, Olmo 3, Llama 3 built-ins, Gemma 4, FunctionGemma.
 *
 *     opener BODY [close]
 *
 * `close` may be missing at the end of a stream. When `sharedOpener` is true another family
 * reads other bodies after the same opener (LFM2's JSON lists, `<function_calls>` holding
 * `<invoke>`), so a body not of this shape is left to it; otherwise such a body is an error.
 */
export interface ValueGrammar extends FieldGrammarBase {
  readonly family: 'value-grammar';
  readonly body: ValueBody;
  readonly close: readonly string[];
  /**
   * Whether a missing close is a recovery (`recovered_dialect`). False where deployments strip
   * the close as a special token (Llama 3's `<|eom_id|>`), so its absence is the normal case.
   */
  readonly closeRequired: boolean;
  readonly sharedOpener: boolean;
}

/**
 * OpenAI Harmony (gpt-oss) messages, read as the model writes them:
 *
 *     <|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{JSON}<|call|>
 *     ^ start  ^ role   ^ channel  ^ channel  ^ recipient        ^ constrain     ^ message    ^ one of ends
 *
 * The recipient may stand in the role header or after the channel; the constraint may be glued,
 * absent, or a bare word; a message ends at one of `ends`, at the next message, or at the end of
 * the text. `midHeaderOpeners` are header texts a response may begin with when the template
 * put the tokens before them in the prompt (`commentary to=…`).
 */
export interface HarmonyGrammar extends FieldGrammarBase {
  readonly family: 'harmony';
  readonly start: string;
  readonly channel: string;
  readonly constrain: string;
  readonly message: string;
  readonly ends: readonly string[];
  readonly midHeaderOpeners: readonly { readonly text: string; readonly channel: string }[];
  /** The word that names a recipient (`to=`). */
  readonly recipientPrefix: string;
  /** Channels whose text is reasoning, and channels whose text is visible (preamble, answer). */
  readonly reasoningChannels: readonly string[];
  readonly visibleChannels: readonly string[];
  /** Recipients that address a person, not a tool: such a message is not a call. */
  readonly personRecipients: readonly string[];
}

/**
 * Calls written as plain JSON or pythonic values in prose, with no marker of their own (section
 * 3 of the field survey): read only when the registry names the tool (or, with no registry,
 * when the value is the whole response), the value parses completely, and it is not a tool's
 * JSON Schema.
 *
 *     {"name": "f", "arguments": {…}}   {"f": {…}}   [{"name": …}, …]   [f(a=1)]
 *     {"name": "a", "parameters": {…}}; {"name": "b", …}          (`chainSeparator`)
 *     {"tool_call": {…}}  {"tool_calls": […]}  {"response": "…"}  (whole response only)
 */
export interface LookalikeGrammar extends FieldGrammarBase {
  readonly family: 'look-alike';
  readonly openAt: 'line-start';
  /** Keys that hold a tool's name, and keys that hold its arguments (object or JSON text). */
  readonly nameKeys: readonly string[];
  readonly argumentKeys: readonly string[];
  /** OpenAI's `{"type": "function", "function": {name, arguments}}` carrier key. */
  readonly carrierKey: string;
  /** Whole-response envelopes: one call, a list of calls, a plain answer. */
  readonly wrapperKey: string;
  readonly listKey: string;
  readonly responseKey: string;
  /** Between chained objects (Llama 3 without `<|python_tag|>`). */
  readonly chainSeparator: string;
}

/**
 * The union of every family's record. A family adds its record type here and its reader to
 * `src/compose/field/readers/index.ts`.
 */
export type FieldGrammar = TokenSectionGrammar | ValueGrammar | HarmonyGrammar | LookalikeGrammar;
