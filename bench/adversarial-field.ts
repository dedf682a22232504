/**
 * Adversarial inputs for the field grammars, built from their records so that every new
 * grammar is covered without a new line here: per grammar, every marker repeated (thousands of
 * unclosed openers, section openers with no end, closes with no opener), every opener followed
 * by a cut-off string and by deep nesting, and an opener before a long run of plain text.
 */
import { FIELD_GRAMMARS, type ParamMarkupGrammar } from '../src/dialects/field/index.js';

/** The param-markup shapes the generic families miss: unclosed parameters and attribute headers by the thousand. */
function paramMarkupFamilies(grammar: ParamMarkupGrammar, out: Record<string, (n: number) => string>): void {
  const fill = (text: string): string => text.split('{S}').join(':x');
  const section = fill(grammar.section?.open[0] ?? '');
  const head = fill(grammar.call.kind === 'tag' ? `${grammar.call.tag.open[0]}${grammar.call.tag.nameAttribute === null ? 'f' : ' name="f"'}${grammar.call.tag.end}` : `${grammar.call.open[0]}f\n`);
  const args = grammar.args;
  const param =
    args.kind === 'tags'
      ? fill(`${args.tag.open[0]}${args.tag.nameAttribute === null ? 'k' : ` ${args.tag.nameAttribute}="k"`}${args.tag.end}v `)
      : args.kind === 'pairs'
        ? fill(`${args.keyOpen}k${args.keyClose}${args.valueOpen}v `)
        : '<k>v ';
  const attributeOpen = grammar.call.kind === 'tag' && grammar.call.tag.nameAttribute !== null ? `${grammar.call.tag.open[0]} ${grammar.call.tag.nameAttribute}="` : head;
  out[`${grammar.id}: unclosed parameters`] = (n) => `${section}${head}${param.repeat(n)}`;
  out[`${grammar.id}: heads with no arguments`] = (n) => `${section}${head.repeat(n)}`;
  out[`${grammar.id}: unclosed attribute headers`] = (n) => `${section}${fill(attributeOpen).repeat(n)}`;
  out[`${grammar.id}: calls with unclosed parameters`] = (n) => `${section}${head}${param}`.repeat(n);
  // Value closes and call closes that stand inside values (followed by neither an argument nor a close).
  const valueClose = fill(args.kind === 'tags' ? args.tag.close[0]! : args.kind === 'pairs' ? args.valueClose : '</k>');
  const callClose = fill(grammar.call.kind === 'tag' ? grammar.call.tag.close[0]! : grammar.call.close[0]!);
  out[`${grammar.id}: one value full of its own close`] = (n) => `${section}${head}${param}${`${valueClose} x `.repeat(n)}`;
  out[`${grammar.id}: values each closed inside`] = (n) => `${section}${head}${`${param}${valueClose} x `.repeat(n)}`;
  out[`${grammar.id}: values that run into the call close`] = (n) => `${section}${`${head}${param}${callClose} x `.repeat(n)}`;
  out[`${grammar.id}: unclosed values on their own lines`] = (n) => `${section}${`${head}\n${param}\n`.repeat(n)}`;
  // A value left open before a whole call, repeated: each such value tries the calls after it
  // as its text (param-markup.ts, `throughInnerCalls`) and gives up at the next open value.
  out[`${grammar.id}: open values before whole calls`] = (n) => `${section}${`${head}\n${param}\n${head}\n${param}${valueClose}\n${callClose}\n`.repeat(n)}`;
}

function families(): Record<string, (n: number) => string> {
  const out: Record<string, (n: number) => string> = {};
  for (const grammar of FIELD_GRAMMARS) {
    const markers = grammar.markers.join('');
    const opener = grammar.openers[0]!;
    // A grammar with no markers of its own (the look-alikes) has no such input: it would be empty.
    if (markers !== '') out[`${grammar.id}: every marker repeated`] = (n) => markers.repeat(n);
    out[`${grammar.id}: unclosed openers`] = (n) => `${opener}f `.repeat(n);
    out[`${grammar.id}: openers with an open string`] = (n) => `${markers}{"a": "x `.repeat(n);
    out[`${grammar.id}: deep nesting`] = (n) => `${markers}{"a": ${'['.repeat(n)}`;
    out[`${grammar.id}: an opener before plain text`] = (n) => `${opener}${'plain words, '.repeat(n)}`;
    // Each opener quoted as inline code on one long line (a model looping on `` `<tool_call>` ``):
    // the mention test once sliced the line at every one.
    out[`${grammar.id}: openers after backticks on one line`] = (n) => `\`${opener}`.repeat(n);
    out[`${grammar.id}: quoted openers between words on one line`] = (n) => `a\`${opener}b`.repeat(n);
    if (grammar.family === 'param-markup') paramMarkupFamilies(grammar, out);
  }
  // Shapes of the JSON-argument grammars: long bodies of call objects, lenient items cut off,
  // and openers whose body another family owns (each reader must give up after a bounded look).
  out['call objects: one block of many objects'] = (n) => `<tool_call>${'{"name": "f", "arguments": {}}, '.repeat(n)}</tool_call>`;
  out['call objects: python-quoted items, each cut'] = (n) => `<tool_call>{'name': 'f', 'arguments': {'a': 'x `.repeat(n);
  out['call objects: trailing commas everywhere'] = (n) => `<|tool_call|>[${'{"name": "f", "arguments": {"a": [1,],},}, '.repeat(n)}]`;
  out['mistral: junk and no list'] = (n) => '[TOOL_CALLS]json '.repeat(n);
  out['functionary: unregistered recipients'] = (n) => '>>>zz\n{"a": 1}\n'.repeat(n);
  out['qwen3-coder bodies after <tool_call>'] = (n) => '<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n'.repeat(n);
  return out;
}

/** Families for the value grammars' own shapes, which the generic ones above do not reach. */
const SHAPES: Record<string, (n: number) => string> = {
  'pythonic: deep nesting in an argument': (n) => `<|python_start|>[f(a=${'['.repeat(n)}`,
  'pythonic: thousands of call openers': (n) => `<|python_start|>[${'f('.repeat(n)}`,
  'pythonic: a bracket-less list of unclosed strings': (n) => `<function_calls>\n${"f(a='x\n".repeat(n)}`,
  'pythonic: many complete calls': (n) => `<|python_start|>[${'f(a=1, b="x"), '.repeat(n)}]<|python_end|>`,
  // The lenient reads (src/lex/py-literal.ts): quotes inside strings that cannot end them, each
  // with later quotes to try; raw line breaks in strings; calls that fail among siblings.
  'pythonic: unescaped quotes no later quote can end': (n) => `<|python_start|>[${"f(a='x'y'))), ".repeat(n)}]<|python_end|>`,
  'pythonic: unescaped quotes, each call ambiguous': (n) => `<|python_start|>[${"f(a='it's', b='z'), ".repeat(n)}]<|python_end|>`,
  'pythonic: unescaped quotes and no close': (n) => `<|tool_call_start|>[${"f(a='x 'y'), ".repeat(n)}`,
  'pythonic: raw line breaks in unclosed strings': (n) => `<|tool_call_start|>[${"f(a='x\n".repeat(n)}`,
  'pythonic: failed calls among siblings': (n) => `<|python_start|>[${'f(a=x), f(b=1), '.repeat(n)}]<|python_end|>`,
  'pythonic: failed call lines': (n) => `<function_calls>\n${'f(a=x)\nf(b=1)\n'.repeat(n)}</function_calls>`,
  'gemma: entries with no commas': (n) => `<|tool_call>call:f{${'a:<|"|>x<|"|>'.repeat(n)}}<tool_call|>`,
  'gemma: bare words': (n) => `<|tool_call>call:f{${'a:b c, '.repeat(n)}}<tool_call|>`,
  'gemma: unclosed delimited strings': (n) => `<|tool_call>call:f{a:<|"|>x`.repeat(n),
  'gemma: deep nesting': (n) => `<|tool_call>call:f{${'a:{'.repeat(n)}`,
  'gemma: heads with no arguments': (n) => '<|tool_call>call:'.repeat(n),
  'harmony: headers that never reach a message': (n) => '<|start|>assistant to=functions.f '.repeat(n),
  'harmony: mid-header openers in prose': (n) => 'commentary to=functions.f and to=functions.g, '.repeat(n),
  'look-alike: a flood of {"name" lines': (n) => '{"name": "f", "arguments": {"a": [\n'.repeat(n),
  'look-alike: nested line-start lists': (n) => '[{"name": "f", "c":\n'.repeat(n),
  'look-alike: thousands of [f( openers': (n) => '[f(a=[f(\n'.repeat(n),
  'look-alike: many unregistered calls': (n) => '{"name": "nope", "arguments": {}}\n'.repeat(n),
  'look-alike: deep nesting': (n) => `{"name": "f", "arguments": ${'['.repeat(n)}`,
  'harmony: call bodies cut in a string': (n) => '<|channel|>commentary to=functions.f<|message|>{"a": "x'.repeat(n),
  'llama 3: objects chained with built-in calls': (n) => `<|python_tag|>{"name": "f", "parameters": {}}${'; f.call(a=1)'.repeat(n)}`,
  'llama 3: chained built-in calls, each cut': (n) => `<|python_tag|>{"name": "f", "parameters": {}}${'; f.call(a="x'.repeat(n)}`,
  'code: python segments by the thousand': (n) => '>>>python\nprint(1)\n'.repeat(n),
  'mentions: special tokens named on one long line': (n) => `say ${'the [TOOL_CALLS] token and '.repeat(n)}`,
  'turn ends: HTML-like tokens mid-text': (n) => 'a <s>b</s> c </s> '.repeat(n),
  'turn ends: a long tail of tokens': (n) => `Done.${'</s>\n<|eot_id|> '.repeat(n)}`,
};


/**
 * Shapes specific to reasoning blocks: call markup inside many blocks (the `call_in_reasoning`
 * search), reasoning markers inside one long reference call block (the lane's guard), many
 * orphan-looking closes, and blocks whose call markup lies far after them.
 */
export const REASONING_ADVERSARIAL: Readonly<Record<string, (n: number) => string>> = {
  'reasoning: call markup inside every block': (n) => '<think>x <tool_call>{"name": "f"</think>'.repeat(n),
  'reasoning: markers inside one reference block': (n) => `<tool_call>f({"a": "${'<think>a</think>'.repeat(n)}"})</tool_call>`,
  'reasoning: reference openers between blocks': (n) => '<tool_call> <think>a</think>'.repeat(n),
  'reasoning: closes after plain text': (n) => `${'plain words, '.repeat(n)}${'</think>'.repeat(n)}`,
  'reasoning: blocks, then call markup far away': (n) => `${'<think>a</think>b'.repeat(n)}${'plain '.repeat(n)}<tool_call>`,
};

export const FIELD_ADVERSARIAL: Readonly<Record<string, (n: number) => string>> = { ...families(), ...SHAPES, ...REASONING_ADVERSARIAL };
