import { describe, expect, it } from 'vitest';
import { identLength } from './ident.js';
import { parseCallExpr } from './call-expr.js';

/**
 * Reference vectors (ids from the reference's escape-fidelity and heredoc tests) whose whole
 * input is one `name(...)` call, with the arguments the reference produced. The value parser
 * alone determines these arguments, so they are checked here without the composer.
 */
const vectors: [id: string, input: string, args: Record<string, unknown>][] = [
  ["tool_parse_core_values::escaped_backtick_inside_template_literal", "edit({ action: \"create\", path: \"a.md\", content: `line with a \\` backtick` })", {"action": "create", "content": "line with a ` backtick", "path": "a.md"}],
  ["tool_parse_heredoc_recovery::json_escaped_literal_newline_body", "edit({ path: \"parser_test.go\", content: <<EOF\\npackage manifest\\n\\nimport (\\n\\t\\\"strings\\\"\\n\\t\\\"testing\\\"\\n)\\n\\nfunc TestX(t *testing.T) {\\n\\tif 1 != 1 {\\n\\t\\tt.Fatal(\\\"bad\\\")\\n\\t}\\n}\\nEOF\\n })", {"content": "package manifest\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestX(t *testing.T) {\n\tif 1 != 1 {\n\t\tt.Fatal(\"bad\")\n\t}\n}", "path": "parser_test.go"}],
  ["tool_parse_heredoc_recovery::real_newline_body_is_not_unescaped", "edit({ path: \"main.go\", content: <<EOF\npackage main\nimport \"fmt\"\nfunc main() { fmt.Printf(\"%d\\n\", 1) }\nEOF\n})", {"content": "package main\nimport \"fmt\"\nfunc main() { fmt.Printf(\"%d\\n\", 1) }", "path": "main.go"}],
  ["tool_parse_heredoc_recovery::escaped_backslash_n_is_not_a_line_break", "edit({ path: \"m.go\", content: <<EOF\\npackage main\\nvar s = \\\"x\\\\n\\\"\\nEOF\\n})", {"content": "package main\nvar s = \"x\\n\"", "path": "m.go"}],
  ["tool_parse_escapes::surrogate_pair_escape", "run({ command: \"hi \\uD83D\\uDE00 there\" })", {"command": "hi 😀 there"}],
  ["tool_parse_escapes::brace_form_non_bmp_escape", "run({ command: \"hi \\u{1F600} there\" })", {"command": "hi 😀 there"}],
  ["tool_parse_escapes::unknown_escape_quoted_channel", "edit({ action: \"create\", path: \"re.py\", content: \"p = '\\d+\\w*'\" })", {"action": "create", "content": "p = '\\d+\\w*'", "path": "re.py"}],
  ["tool_parse_escapes::unknown_escape_template_channel", "edit({ action: \"create\", path: \"re.py\", content: `p = '\\d+\\w*'` })", {"action": "create", "content": "p = '\\d+\\w*'", "path": "re.py"}],
  ["tool_parse_escapes::unknown_escape_heredoc_channel", "edit({ action: \"create\", path: \"re.py\", content: <<EOF\np = '\\d+\\w*'\nEOF\n })", {"action": "create", "content": "p = '\\d+\\w*'", "path": "re.py"}],
  ["tool_parse_escapes::known_escapes_in_a_quoted_string", "run({ command: \"a\\nb\\tc\\\\d\\\"e\" })", {"command": "a\nb\tc\\d\"e"}],
  ["tool_parse_escapes::perl_hex_brace_regex", "run({ command: \"m/\\x{1F600}/\" })", {"command": "m/\\x{1F600}/"}],
  ["tool_parse_escapes::backslash_x_then_non_hex", "run({ command: \"C:\\xtra\\data\" })", {"command": "C:\\xtra\\data"}],
  ["tool_parse_escapes::trailing_backslash_x", "run({ command: \"ends with \\x\" })", {"command": "ends with \\x"}],
  ["tool_parse_escapes::short_unicode_escape", "run({ command: \"bad \\uAB stop\" })", {"command": "bad \\uAB stop"}],
  ["tool_parse_escapes::unicode_escape_with_a_non_hex_digit", "run({ command: \"bad \\uABCG end\" })", {"command": "bad \\uABCG end"}],
  ["tool_parse_escapes::windows_path_after_backslash_u", "run({ command: \"path C:\\users\\me\" })", {"command": "path C:\\users\\me"}],
  ["tool_parse_escapes::malformed_escape_template_channel", "run({ command: `m/\\x{1F600}/` })", {"command": "m/\\x{1F600}/"}],
  ["tool_parse_escapes::malformed_escape_heredoc_channel", "run({ command: <<EOF\nm/\\x{1F600}/\nEOF\n })", {"command": "m/\\x{1F600}/"}],
  ["tool_parse_escapes::well_formed_hex_escapes", "run({ command: \"\\x41\\x42\" })", {"command": "AB"}],
  ["tool_parse_escapes::literal_multibyte_scalar_in_source", "run({ command: \"snow ☃ done\" })", {"command": "snow ☃ done"}],
  ["tool_parse_escapes::brace_form_non_bmp_escape_again", "run({ command: \"emoji \\u{1F600} done\" })", {"command": "emoji 😀 done"}],
];

describe('escape fidelity (reference vectors)', () => {
  it.each(vectors)('%s', (_id, input, args) => {
    const name = input.slice(0, identLength(input));
    const result = parseCallExpr(input, name);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.arguments).toEqual(args);
  });
});
