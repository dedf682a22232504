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
export type FieldFamily = 'token-section' | 'call-objects' | 'param-markup' | 'value-grammar' | 'harmony' | 'look-alike' | 'reasoning' | 'turn-end';

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
   * Where an opener counts: anywhere (the default), only at the start of the text or of a
   * line (look-alikes opened by `{` or `[`, so plain text costs no probe per bracket), or only
   * as the response's first visible text (an assistant turn's header written out).
   */
  readonly openAt?: 'anywhere' | 'line-start' | 'response-start';
  /**
   * Openers that count only as the response's first visible text, beside `openers` (which count
   * where `openAt` says): the template wrote a header's start into the prompt, so the output
   * may begin mid-header (Muse Glimmer's ` to=R<|message|>`).
   */
  readonly responseOpeners?: readonly string[];
}

/**
 * How the head of one call (the text between the call opener and the arguments) is written,
 * for `token-section` grammars. Forms are tried in order; the first that reads wins.
 *
 *     <|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}
 *                        ^ name (id form 'kimi-id')^ nameEnd                 ^ args 'json'
 */
export interface CallHeadForm {
  /** A literal that must open the head (`function<｜tool▁sep｜>`); empty for none. */
  readonly prefix: string;
  /**
   * A literal that ends a call id standing before the name (Solar Open's
   * `ID<|tool_call:name|>`); the id is stepped over. Absent when the head has no id.
   */
  readonly idEnd?: string;
  /**
   * What ends the name: a literal marker, consumed. The empty string means the name runs to
   * the first `{` of the arguments (Mistral with its special tokens skipped); `NAME_TO_SPACE`
   * means it runs to the first whitespace (CWM). Ignored when `nameForm` is `none`.
   */
  readonly nameEnd: string;
  /**
   * How the name is written: plainly, as Kimi's call id `functions.NAME:IDX`, not at all
   * (`none`: the body is call objects that carry their own names), or as a Harmony recipient
   * whose tokens were stripped (`recipient`: `functions.NAME`, then a constraint, ` json`,
   * `<|constrain|>json` or `json` glued before the `{`, and `<|message|>`, each optional).
   */
  readonly nameForm: 'plain' | 'kimi-id' | 'none' | 'recipient';
  /**
   * A literal that ends a call id standing after the name's end (Mistral Small 3.2's
   * `NAME[CALL_ID]ID[ARGS]`); the id is stepped over. Absent when no id follows the name.
   */
  readonly idAfterNameEnd?: string;
  /** A literal between the name and the arguments (PLaMo's `<|plamo:begin_tool_arguments:plamo|>`). */
  readonly argsOpen?: string;
  /** A literal right after the arguments, consumed when present (PLaMo's end of arguments). */
  readonly argsClose?: string;
  /**
   * The arguments: one JSON object (`json`), one in a ```json fence (`json-fence`), a body of
   * call objects (`call-objects`, which may stand in a ```json fence; see
   * `CallObjectsGrammar`), CWM's rest of the line that is JSON or else
   * a command string (`json-or-command`), or raw code (`code`: the text up to the call's close,
   * the next call, a turn's end or the end of the text, as `{"code": …}`; with no name in the
   * head, the call goes to the registered code tool, `CODE_TOOL_NAMES`).
   */
  readonly args: 'json' | 'json-fence' | 'call-objects' | 'json-or-command' | 'code';
  /**
   * `code` with no name in the head: a body whose first line reads as a sentence
   * (`<|python_tag|>Sure, I can help with that.`) is no code, and the opener before it a marker:
   * the text is prose (`lex/sentence.ts`).
   */
  readonly sentenceIsProse?: boolean;
  /** The only head names this form reads (Functionary writes raw code for `python` alone); absent: any. */
  readonly names?: readonly string[];
  /**
   * The most characters of plain text (no bracket, brace or quote) that may stand between the
   * head and a `[` that opens a call-objects list (Mistral's `[TOOL_CALLS]json\n[{…}]`).
   */
  readonly skipBeforeList?: number;
}

/** `CallHeadForm.nameEnd` for a name that runs to the first whitespace. */
export const NAME_TO_SPACE = ' ';

/**
 * Special-token sections whose calls carry a name and JSON arguments: Kimi K2, DeepSeek V3 and
 * V3.1, Mistral v11, PLaMo, Solar Open, ...
 *
 *     [sectionOpen] callOpen HEAD ARGS [callClose] ... [sectionClose]
 *
 * The section markers are optional in the text (a model may start with the call opener, and
 * end markers go missing at the end of a stream); `callClose` may be empty when the grammar
 * repeats its opener per call and closes nothing (Mistral's `[TOOL_CALLS]`). A grammar with no
 * `sectionClose` ends its section at the first text that is not a call.
 */
export interface TokenSectionGrammar extends FieldGrammarBase {
  readonly family: 'token-section';
  readonly sectionOpen: readonly string[];
  readonly sectionClose: readonly string[];
  readonly callOpen: readonly string[];
  readonly callClose: readonly string[];
  readonly heads: readonly CallHeadForm[];
  /** A missing `callClose` is how the grammar is written, not a recovery (no `recovered_dialect`). */
  readonly callCloseOptional?: boolean;
  /** Inside a section, a call may start with its head alone, the opener left out (DeepSeek R1's `<｜tool▁calls｜>function<｜tool▁sep｜>…`). */
  readonly callOpenOptional?: boolean;
  /**
   * The opener is shared with another grammar or common in prose (`<tool_call>`, `<function=`,
   * `>>>`): a call whose head or arguments do not read as this grammar is not this grammar,
   * so the region ends before it (or the reader returns -1) instead of reporting an error.
   */
  readonly bodyDecides?: boolean;
  /**
   * A head whose name is not registered counts only glued to its opener (`>>>NAME`, never a
   * Python prompt's `>>> name`) and with arguments that read; any other such segment is left
   * to the other lanes (Functionary's `>>>RECIPIENT`). A counted head then meets the registry
   * rule as any call does: an error when a registry lacks it, a call when there is none.
   */
  readonly unregisteredGlued?: boolean;
  /**
   * When the text ends inside a call head (nothing, or part of a head, after the opener):
   * `always` (the default) a cut call, `TOOL CALL TRUNCATED:`; `registered` only when the head
   * is glued to the opener and begins a registered name (a bare `>>>` at the end of the text is
   * a quoted prompt); `never` where the opener is shared and the other readers decide
   * (`<tool_call>`, `<function=`).
   */
  readonly cutHead?: 'always' | 'registered' | 'never';
  /** Head names whose segment is visible text, not a call (Functionary's `>>>all`). */
  readonly proseHeads?: readonly string[];
  /**
   * The template may end the prompt with the first opener (Functionary's first `>>>`): a
   * response that begins with a prose head, or with a registered name and its arguments, and
   * then meets this grammar's opener, reads as if the opener stood at its start.
   */
  readonly unmarkedFirstSegment?: boolean;
}

/**
 * How a JSON call object names its tool and carries its arguments. Every call-objects body
 * reads `{"name", "arguments"|"parameters"|"args"}` (arguments possibly a JSON string), the
 * OpenAI wrapper `{"type": "function", "function": {…}}` and Command R7B's
 * `{"tool_call_id", "tool_name", "parameters"}`; `name-keyed` adds Apertus' `{"NAME": {args}}`.
 */
export type CallObjectShape = 'name-keyed';

/**
 * A tag or token followed by JSON call objects: one object, several (separated by whitespace,
 * `,` or `;`), or a list of them (Hermes / Qwen `<tool_call>`, Granite, Hunyuan, Phi-4 mini,
 * Apertus, Command R7B, Nemotron, Llama 3.x, ...).
 *
 *     <tool_call>{"name": "f", "arguments": {…}}</tool_call>
 *     ^ opener   ^ body: objects or lists                ^ close (optional in the text)
 */
export interface CallObjectsGrammar extends FieldGrammarBase {
  readonly family: 'call-objects';
  /** Literals that end the body; empty when the grammar closes nothing (Granite `<|tool_call|>[…]`). */
  readonly close: readonly string[];
  /** A missing `close` is how the grammar is written, not a recovery (no `recovered_dialect`). */
  readonly closeOptional?: boolean;
  /**
   * Closes the grammar does not write but models add (Granite-20B-FC's `</function_call>`):
   * consumed when one follows the body, never waited for, so a region ends without one.
   */
  readonly extraClose?: readonly string[];
  /** The body must start right after the opener, with no whitespace (`functools[…]`). */
  readonly glued?: boolean;
  /**
   * An opener with nothing after it (the text ends there): `cut` (the default) a call cut off,
   * `TOOL CALL TRUNCATED:`; `left` for the other lanes (the reference grammar's `<tool_call>`,
   * which the tagged lane reads, and `functools`, a word of prose).
   */
  readonly openerAlone?: 'cut' | 'left';
  /** Extra call-object shapes this grammar writes. */
  readonly shapes: readonly CallObjectShape[];
  /**
   * Besides objects, a built-in call `NAME.METHOD(k=v)` may follow a separator (Llama 3 chains
   * `{…}; brave_search.call(query="x")`): the method word, or absent.
   */
  readonly methodItems?: string;
  /** A code fence the body may stand in after the opener (`<tool_call>\n```json\n{…}\n```\n</tool_call>`). */
  readonly fence?: CodeFence;
  /**
   * The tag also wraps what is no call (`<tools>` holds the tool definitions of every Hermes and
   * Qwen system prompt, which answers quote back): it opens a call only when its first item reads
   * as one (or is cut off by the end of the text); any other body is left as text, no error.
   */
  readonly bodyDecides?: boolean;
}

/**
 * One tag of a `param-markup` grammar: a literal start, the name it carries, the literal that
 * ends the open tag, and the literals that close the element.
 *
 *     <invoke name="get_weather">   open '<invoke', nameAttribute 'name', end '>'
 *     <function=get_weather>        open '<function=', nameAttribute null (the name runs to `end`)
 *     <|open|>call tool="f" index="1"<|sep|>   open '<|open|>call', nameAttribute 'tool', end '<|sep|>'
 */
export interface MarkupTag {
  readonly open: readonly string[];
  readonly nameAttribute: string | null;
  readonly end: string;
  readonly close: readonly string[];
}

/** A call whose head is a tag (`<invoke name="N">`, `<function=N>`). */
export interface TagCallHead {
  readonly kind: 'tag';
  readonly tag: MarkupTag;
}

/**
 * A call whose name is plain text after an opener (GLM `<tool_call>NAME\n<arg_key>…`): the name
 * runs to the first of `nameEnd` (not consumed), then one of `nameSep` is stepped over if present.
 */
export interface TextCallHead {
  readonly kind: 'text';
  readonly open: readonly string[];
  readonly nameEnd: readonly string[];
  readonly nameSep: readonly string[];
  readonly close: readonly string[];
}

/** Each argument an element named by its tag (`<parameter name="K">V</parameter>`). */
export interface TagArguments {
  readonly kind: 'tags';
  readonly tag: MarkupTag;
  /** An optional element around all the arguments (MiniCPM's `<arguments>`), or null. */
  readonly wrapper: { readonly open: string; readonly close: string } | null;
  /**
   * A value's close may be left out: the value then ends where the next argument opens or the
   * call closes (Qwen3-Coder, as vLLM's and llama.cpp's readers take it). Elsewhere a value
   * with no close of its own before the call ends makes the call malformed.
   */
  readonly closeOptional: boolean;
  /**
   * Parameter names a model may wrap all the arguments in (MiniCPM's
   * `<param name="arguments">{JSON}</param>`): a call whose one argument is such a key,
   * holding an object, where the tool has no parameter of that name, has that object as its
   * arguments.
   */
  readonly wrapperKeys: readonly string[];
}

/**
 * Each argument a key element then a value element (`<arg_key>K</arg_key><arg_value>V</arg_value>`),
 * with an optional type element between them (`<ifm|arg_type>T</ifm|arg_type>`). An empty
 * `valueOpen` means the value starts where the key's close ends (Solar Open2).
 */
export interface PairArguments {
  readonly kind: 'pairs';
  readonly keyOpen: string;
  readonly keyClose: string;
  readonly typeOpen: string | null;
  readonly typeClose: string | null;
  readonly valueOpen: string;
  readonly valueClose: string;
}

/**
 * Each argument an element whose tag is the parameter name (`<city>Paris</city>`, MiniMax M3):
 * an element holding elements is an object, repeated `listItem` elements are an array, and a
 * key repeated at one level is a list.
 */
export interface NamedTagArguments {
  readonly kind: 'named-tags';
  readonly listItem: string;
  /**
   * Another record's argument open (`<parameter ` with its attributes) that may follow the same head: a call whose
   * first argument is written with one is left to the records after this one.
   */
  readonly foreignArgs: readonly string[];
}

/**
 * How a raw-text value becomes a typed one:
 * - `schema`: by the tool's JSON Schema (spec section 4);
 * - `json-else-text`: JSON when it reads as JSON and the schema says nothing, else as `schema`.
 * An in-band type attribute, when the grammar writes one, wins over both: `string-flag` is
 * DSML's `string="true|false"` (true: the text; false: JSON), `type-name` a JSON type name.
 */
export interface ValueRule {
  readonly typing: 'schema' | 'json-else-text';
  readonly typeAttribute: { readonly name: string; readonly form: 'string-flag' | 'type-name' } | null;
  /**
   * `strip`: a single-line value is trimmed; a multi-line one loses only the newline after the
   * open tag and the newline (with indentation) before the close. `exact`: kept as written.
   */
  readonly whitespace: 'strip' | 'exact';
  /** Decode HTML entities in values (Anthropic XML); never for grammars whose values are code. */
  readonly entities: boolean;
  /** A value written as `<![CDATA[…]]>` is its content, verbatim. */
  readonly cdata: boolean;
  /** The words that mean null where the schema admits null. */
  readonly nullWords: readonly string[];
}

/**
 * Calls whose arguments are raw text inside parameter markup: Qwen3-Coder, GLM, MiniMax, Step-3,
 * Anthropic XML, DSML, GCML, Hunyuan, Kimi K3, ...
 *
 *     [envelope] [section.open] [callWrap.open [prefix]] HEAD ARGS CLOSE [callWrap.close] ... [section.close] [envelope close]
 *
 * Section and close markers may be missing at the end of the text. `bare` grammars also open a
 * region with a call (no section). A grammar whose body is not its own (a JSON body where the
 * grammar takes none) leaves the opener to the next record.
 */
export interface ParamMarkupGrammar extends FieldGrammarBase {
  readonly family: 'param-markup';
  readonly section: { readonly open: readonly string[]; readonly close: readonly string[] } | null;
  readonly bare: boolean;
  /** Step-3's per-call special tokens around the invoke, with an optional prefix after the open. */
  readonly callWrap: { readonly open: readonly string[]; readonly prefix: readonly string[]; readonly close: readonly string[] } | null;
  readonly call: TagCallHead | TextCallHead;
  readonly args: TagArguments | PairArguments | NamedTagArguments;
  /** A call's arguments may instead be one JSON object, after one of `open` ('' for none), closed by `close` or the call's close. */
  readonly jsonBody: { readonly open: readonly string[]; readonly close: readonly string[] } | null;
  /**
   * Right after a text head's opener, the call may instead be JSON call objects
   * (`{"name": N, "arguments": {…}}`, or a list of them) up to the call's close: K2 Horizon's
   * `json` tool-call format.
   */
  readonly callObjects: boolean;
  /** A call also ends where the next call opens, with no violation (Solar Open2). */
  readonly callEndsAtNextOpen: boolean;
  readonly values: ValueRule;
  /** A token that may stand before any tag, with optional whitespace (MiniMax M3's namespace token). */
  readonly tagToken: string | null;
  /**
   * Line breaks between the tags may come escaped, as the two characters `\n` (a model that
   * serialized its output once more writes `<tool_call>NAME\n<arg_key>…`): between tags they
   * are whitespace, and one ends a text head's name.
   */
  readonly escapedBreaks: boolean;
  /**
   * Every tag carries a deployment suffix `{S}` (Hunyuan: `<tool_call:opensource>`): the
   * record's strings hold the placeholder, the reader fills in the suffix the region opens with.
   */
  readonly suffixed: boolean;
  /** A message header around the section (Muse Glimmer's `<|start|>to=R<|message|>` … `<|eom|>`). */
  readonly envelope: {
    readonly open: readonly string[];
    /**
     * Header spellings that count only as the response's first text (whitespace before them
     * aside): the template wrote the header's start into the prompt (`<|start|>assistant`), so
     * the output begins mid-header (` to=R<|message|>`).
     */
    readonly responseOpen: readonly string[];
    readonly headEnd: string;
    readonly close: readonly string[];
    /** Recipients whose message is prose, not calls. */
    readonly proseRecipients: readonly string[];
    /** Recipients whose message is reasoning (the model addressing itself). */
    readonly reasoningRecipients: readonly string[];
  } | null;
}

/**
 * How the calls between a `value-grammar` opener and its close are written.
 *
 * - `py-calls`: pythonic calls with keyword arguments, in a list `[f(a=1), g(b='x')]` or one per
 *   line with no brackets (Olmo 3); with `listOnly`, in a list only (a tag whose bare `f(…)`
 *   body is the reference grammar's);
 * - `py-method-call`: one call written `NAME.METHOD(k=v)` (Llama 3's built-in tools, `.call`),
 *   and the `separator` after it when calls are chained (`;`);
 * - `gemma-calls`: `PREFIX NAME{k:v,…}` (Gemma's `call:`; the first of `callPrefixes` that
 *   stands there, so `:call:` may be written too), strings between `stringDelimiter`.
 */
export type ValueBody =
  | { readonly form: 'py-calls'; readonly listOnly?: boolean }
  | { readonly form: 'py-method-call'; readonly method: string; readonly separator: string }
  | {
      readonly form: 'gemma-calls';
      readonly callPrefixes: readonly string[];
      readonly stringDelimiter: string;
      /**
       * The opener is no special token (Gemma 4's bare `call:NAME{…}`): the calls are read only
       * at a line start, whole and ending their line, and only where their text holds the
       * string delimiter (the grammar's own token) or every name is registered; anything else
       * is prose, never an error.
       */
      readonly bare?: boolean;
      /**
       * With `bare`: only where the text holds the string delimiter (FunctionGemma's
       * `<escape>`), registered names or not, so a body without it is left to the next record
       * sharing the opener (Gemma 4's).
       */
      readonly delimiterRequired?: boolean;
    };

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
  /** A code fence the calls may stand in inside the markers (MiniCPM 4's ```` ```python ````): its lines are markers. */
  readonly fence?: CodeFence;
  /**
   * Markers the model writes right after a call (an end of turn, the opener of the tool's
   * response it stops at: FunctionGemma's `<start_function_response>`): stepped over with it.
   */
  readonly trailers: readonly string[];
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
  /**
   * Built-in recipients whose body is raw code, not JSON (gpt-oss's `python`): when the tool
   * declares no parameter (a names-only registry, or none), the body is this parameter's value.
   */
  readonly codeRecipients: readonly { readonly recipient: string; readonly parameter: string }[];
}

/**
 * Calls written as plain JSON or pythonic values in prose, with no marker of their own (section
 * 3 of the field survey): read only when the registry names the tool (or, with no registry,
 * when the value is the whole response), the value parses completely, and it is not a tool's
 * JSON Schema.
 *
 *     {"name": "f", "arguments": {…}}   {"f": {…}}   [{"name": …}, …]   [f(a=1)]
 *     {"name": "a", "parameters": {…}}; {"name": "b", …}          (`chainSeparators`)
 *     {"tool_call": {…}}  {"tool_calls": […]}   (as the other values: registered names in prose)
 *     {"response": "…"}                          (whole response only)
 */
export interface LookalikeGrammar extends FieldGrammarBase {
  readonly family: 'look-alike';
  readonly openAt: 'line-start';
  /** Keys that hold a tool's name, and keys that hold its arguments (object or JSON text). */
  readonly nameKeys: readonly string[];
  readonly argumentKeys: readonly string[];
  /**
   * Argument keys too common in plain data to mark a call alone (`{"name": "Ada", "input": …}`):
   * an object keyed so is a call only when its name is registered, or when its `type` is
   * `toolUseType` (an Anthropic `tool_use` block written as text).
   */
  readonly dataArgumentKeys: readonly string[];
  /**
   * Keys that record what a call returned or when it ran (`status`, `result`, `exit_code`, …):
   * an object with a name, arguments and one of these is a log of a call that already ran
   * (a job record, a tool result echoed back), never a call to run again.
   */
  readonly resultKeys: readonly string[];
  readonly toolUseType: string;
  /** OpenAI's `{"type": "function", "function": {name, arguments}}` carrier key. */
  readonly carrierKey: string;
  /** Envelopes: one call, a list of calls, and (as the whole response only) a plain answer. */
  readonly wrapperKey: string;
  readonly listKey: string;
  readonly responseKey: string;
  /**
   * Between chained objects: the first (Llama 3's `;`, without `<|python_tag|>`) also when
   * nothing follows it; the others (`,`: a list's items with no brackets) only between objects.
   */
  readonly chainSeparators: readonly string[];
  /** A code fence the value may stand in (xLAM's ```` ```json ````): its lines are markers. */
  readonly fence: CodeFence;
  /** A code fence a pythonic list may stand in, alone (```` ```python ````): its lines are markers. */
  readonly listFence: CodeFence;
  /**
   * Labels written before the JSON fence on its opening line (Command R+'s
   * `Action: ```json`): the label is a marker of the value. A labelled value is calls only for
   * registered names, even as the whole response (the form is no grammar's own).
   */
  readonly fenceLabels: readonly string[];
  /**
   * What, written just before a value on its line, makes the value code rather than a call
   * standing in prose: an assignment (`payload = {…}`), an argument (`post({…})`), a quoted
   * string (`curl -d '{…}'`).
   */
  readonly codeLeads: readonly string[];
  /** Words that make a pythonic list after them on its line a value of code (`return [f(a=1)]`). */
  readonly codeLeadWords: readonly string[];
  /** What opens a quoted line (a Markdown blockquote's `>`): a value on it is a quotation. */
  readonly quoteLeads: readonly string[];
  /** A Markdown list item's bullet: a value standing right after one is an item of a list of examples. */
  readonly bulletLeads: readonly string[];
  /**
   * Keys an envelope may carry beside the one that holds its calls (an OpenAI message printed as
   * text: `{"role": "assistant", "content": null, "tool_calls": […]}`). A call nested in a value
   * with any other key beside it is data (`{"request": {…call…}, "status": "ok"}`).
   */
  readonly envelopeKeys: readonly string[];
}

/**
 * A Markdown code fence around a JSON body: an opening line (one of `open`, then the end of
 * the line) and a closing line (`close`).
 */
export interface CodeFence {
  readonly open: readonly string[];
  readonly close: string;
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
  /**
   * Whether an orphan close also counts when `reasoning_started` is unset (the text says the
   * prompt opened the block). False where the template never opens it (Magistral): the close
   * then ends prompt-opened reasoning only under `reasoning_started: true`, and is a stray
   * marker otherwise.
   */
  readonly orphanUnflagged: boolean;
  readonly suffix: TagSuffix | null;
  /**
   * An answer whose body is prose as written, up to the first of these markers (or the end of
   * the text): no grammar reads a call in it. Harmony's `final` channel, where a call is only a
   * message with a recipient, so JSON written in the answer is part of the answer.
   */
  readonly verbatimUntil?: readonly string[];
  /**
   * Markers written as plain words (Granite 3.2's `Here is my thought process:`): the open counts
   * only when its close follows at a line's start; with none, both are text. A stream never lets
   * such a block flow before its close has come.
   */
  readonly closeRequired?: boolean;
  /**
   * With `closeRequired`: the block is one only when one of its `stop`s follows, anywhere (a
   * flattened Harmony `analysis` message before `assistantfinal`); it ends there, the stop left
   * for what follows. With none, the open is text.
   */
  readonly stopRequired?: boolean;
}

/**
 * Special tokens that end a turn, a message or the sequence (`<|eot_id|>`, `<|im_end|>`,
 * `<｜end▁of▁sentence｜>`, `</s>`, ...), which a gateway sees when the server did not skip
 * special tokens. They carry no content: the reader consumes one where it stands and records
 * it on the drop ledger (`end_of_turn_token`), with no violation.
 *
 *     The answer is 4.<|eot_id|>        prose "The answer is 4.", the token dropped
 *     [TOOL_CALLS]f{…}</s>              the call, then the token dropped
 *
 * `tokens` count wherever they stand. `trailingTokens` are also ordinary text (`</s>` closes
 * HTML's `<s>`), so they count only where nothing but whitespace and such tokens follows.
 * `markers` stays empty: a turn end is not call syntax, so a dropped fragment holding one is no
 * sign of a lost call.
 */
export interface TurnEndGrammar extends FieldGrammarBase {
  readonly family: 'turn-end';
  /**
   * `end`: tokens that end a turn (`end_of_turn_token` drops). `header`: the assistant turn's
   * header (`<|im_start|>assistant⏎`) or the sequence's first token, which a server that did
   * not skip special tokens leaves in (`turn_header_token` drops). `foreign`: another role's
   * turn (`<|im_start|>user`, a tool result's token): the response ended before it, and the
   * rest of the text is one `foreign_turn` drop.
   */
  readonly role: 'end' | 'header' | 'foreign';
  readonly tokens: readonly string[];
  readonly trailingTokens: readonly string[];
}

/**
 * The union of every family's record. A family adds its record type here and its reader to
 * `src/compose/field/readers/index.ts`.
 */
export type FieldGrammar = TokenSectionGrammar | CallObjectsGrammar | ParamMarkupGrammar | ValueGrammar | HarmonyGrammar | LookalikeGrammar | ReasoningGrammar | TurnEndGrammar;
