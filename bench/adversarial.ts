/**
 * Adversarial inputs for the linear-time check: each builder returns `n` repetitions of a
 * pattern that defeats a naive scanner (rescans to EOF, unbounded backtracking, deep nesting).
 * The benchmark compares the cost of 8n against n; tests count work instead of time.
 */
export const ADVERSARIAL: Readonly<Record<string, (n: number) => string>> = {
  'unclosed call openers': (n) => '<tool_call>look({"path": "a"\n'.repeat(n),
  'unclosed heredocs': (n) => 'edit({content: <<EOF\nline\n'.repeat(n),
  'lone <': (n) => 'a < b '.repeat(n),
  'unbalanced quotes in a block': (n) => '<tool_call>look({"path": "a\n</tool_call>\n'.repeat(n),
  'deep brace nesting': (n) => '<tool_call>look(' + '{"a": '.repeat(n) + '1' + '}'.repeat(n) + ')</tool_call>',
  'fence toggles': (n) => '```\n<tool_call>x\n'.repeat(n),
  'stray closes': (n) => '</tool_call>\n'.repeat(n),
  'unclosed thinking tags': (n) => '<think>reasoning '.repeat(n),
  'harmony frames without a call': (n) => '<|start|>assistant<|channel|>analysis<|message|>thinking '.repeat(n),
  'angle calls with an open string': (n) => '<look({ a: "x\n'.repeat(n),
  'angle calls with an open comment': (n) => '<look({ a: /* x\n'.repeat(n),
  'angle calls with an open heredoc': (n) => '<look({ a: <<EOF\nx\n'.repeat(n),
  'angle calls with an open escaped heredoc': (n) => '<look({ a: <<EOF\\nx\\n\n'.repeat(n),
  'angle calls with an open interpolation': (n) => '<look({ a: `${x\n'.repeat(n),
  'tags on one long line': (n) => '<a>'.repeat(n),
  'call blocks with an open quote': (n) => `<tool_call>\nlook({ a: "x })\n`.repeat(n),
};
