import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse.js';

describe('gateway: a rest piece read as prose only keeps its text verbatim', () => {
  it('keeps HTML, comparisons and tags in code spans as written', () => {
    for (const text of [
      'Use the `<div>` element.\nMore text.',
      'Line one<br>line two.',
      'Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.',
      '```html\n<div class="a">hi</div>\n```\nThat is the markup.',
      'If a < b and b > c then a < c.',
      'The JSON looks like this:\n```json\n{"city": "Paris"}\n```\nThat is the payload.',
      // A document's declaration, doctype and comments are markup as its elements are.
      '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n  <circle cx="5" cy="5" r="4"/>\n  <text x="5" y="5">Hi</text>\n</svg>',
      '<!DOCTYPE html>\n<html>\n<!-- the page -->\n<body><p>Hello</p></body>\n</html>',
    ]) {
      const result = parseToolCalls(text);
      expect(result.prose, text).toBe(text.trim());
      expect(result.calls).toEqual([]);
    }
  });

  it('keeps an element whose text has a parenthesis as written, and a run of `>` (a merge conflict\'s or Aider\'s marker) in a block after a line', () => {
    for (const [text, tools] of [
      ['<p>Logs (click)</p>', undefined],
      ['<details>\n<summary>Stack trace (click to expand)</summary>\n\n```\nError: boom\n```\n</details>', undefined],
      ['<attempt_completion>\n<result>\nFixed it (see log).\n</result>\n</attempt_completion>', ['attempt_completion', 'read_file']],
      ['a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```', undefined],
    ] as const) {
      const result = parseToolCalls(text, tools === undefined ? {} : { tools: [...tools] });
      expect(result.prose, text).toBe(text);
      expect(result.calls).toEqual([]);
      expect(result.protocol_violations.map((v) => v.kind)).not.toContain('unparsed_tool_syntax');
    }
  });

  it('still reports a call a model wrapped in a tag of its own (`<search>query("x")</search>`)', () => {
    const result = parseToolCalls('<search>query("x")</search>');
    expect(result.protocol_violations.map((v) => v.kind)).toContain('unparsed_tool_syntax');
  });

  it('keeps a code block whose markup a tool grammar also writes (`<parameter>`, `<invoke>`, `<ToolCall …/>`) as written, with a tool registered', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    for (const text of [
      'Declare report parameters:\n\n```xml\n<jasperReport name="Weather">\n  <parameter name="city" class="java.lang.String"/>\n  <parameter name="title" class="java.lang.String">\n    <defaultValueExpression>x</defaultValueExpression>\n  </parameter>\n</jasperReport>\n```',
      '```xml\n<process name="P">\n  <invoke name="get_weather" partnerLink="svc" operation="get_weather"\n          inputVariable="request"/>\n</process>\n```\n\nThe `<invoke>` activity calls the partner service.',
      '```jsx\nexport default function App() {\n  return <ToolCall name="get_weather" arguments={{ city: "Paris" }} />;\n}\n```',
      '```php\n<?php if ($temp > 20): ?>\n  <p>Warm in <?= $city ?></p>\n<?php endif; ?>\n```',
    ]) {
      const result = parseToolCalls(text, { tools });
      expect(result.prose, text).toBe(text);
      expect(result.calls).toEqual([]);
      expect(result.tool_parse_errors).toEqual([]);
    }
  });

  it('keeps the block off the ledger and reports no tool syntax for it: its markup is the sample\'s text', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const text = 'Declare report parameters:\n\n```xml\n<jasperReport name="Weather">\n  <parameter name="city" class="java.lang.String"/>\n</jasperReport>\n```';
    const result = parseToolCalls(text, { tools });
    expect(result.prose).toBe(text);
    expect(result.protocol_violations.map((v) => v.kind)).not.toContain('unparsed_tool_syntax');
    expect(result.dropped.some((d) => d.text.includes('<parameter'))).toBe(false);
  });

  it('still cuts a grammar tag left outside any code block out of the prose', () => {
    const result = parseToolCalls('Done.\n</parameter>\n</function>\nAll good.');
    expect(result.prose).not.toContain('</function>');
  });

  it('still reports an unknown tag, and keeps it in the prose rather than blanking the answer', () => {
    const result = parseToolCalls('<details><summary>More</summary>Hidden text</details>');
    expect(result.prose).toBe('<details><summary>More</summary>Hidden text</details>');
    expect(result.protocol_violations.map((v) => v.kind)).toContain('unknown_tag');
  });

  it('keeps a response that opens with a `<` that opens no tag, rather than blanking it', () => {
    for (const text of ['<3 you all', '< b holds here', '<<not a tag', '<｜DSM and then ordinary words']) {
      const result = parseToolCalls(text);
      expect(result.prose, text).toBe(text);
      expect(result.calls).toEqual([]);
    }
    // A marker in such a unit keeps the walk's reading: it never reaches prose.
    expect(parseToolCalls('<｜DSML｜invoke name="x" then').prose).not.toContain('DSML');
  });

  it('keeps the walk\'s reading when the piece holds a marker of a grammar, a call or an answer', () => {
    const stray = parseToolCalls('Text.</tool_call> more');
    expect(stray.prose).not.toContain('</tool_call>');
    expect(stray.prose).toContain('more');
    const answered = parseToolCalls('<user_response>Done.</user_response>');
    expect(answered.prose).toBe('Done.');
    const called = parseToolCalls('I will <b>look</b>.\n<tool_call>look({"path": "a"})</tool_call>', { tools: ['look'] });
    expect(called.calls.map((c) => c.name)).toEqual(['look']);
    expect(called.prose).not.toContain('<tool_call>');
  });

  it('cuts an unknown special token or a turn-end token out of the prose, and keeps the text around it', () => {
    const token = parseToolCalls('<|foo|>Hello world.');
    expect(token.prose).toBe('Hello world.');
    expect(token.protocol_violations.map((v) => v.kind)).toContain('unknown_tag');
    const chatbot = parseToolCalls("<|CHATBOT_TOKEN|>Hello, world!\nWhat's up?<|END_OF_TURN_TOKEN|>");
    expect(chatbot.prose).toBe("Hello, world!\nWhat's up?");
    expect(chatbot.dropped.map((d) => d.reason)).toContain('end_of_turn_token');
    const fullwidth = parseToolCalls('<｜foo｜>Hi.', { tools: ['look'] });
    expect(fullwidth.prose).toBe('Hi.');
    // A token the walk reads inside a text unit is not cut: no token reaches the prose.
    const inner = parseToolCalls('<|plamo:begin_think:plamo|>Need Tokyo weather.<|plamo:end_think:plamo|>');
    expect(inner.prose).not.toContain('<|');
    // A token glued to the words before it, or mid-line with words after it, is cut too.
    const glued = parseToolCalls('Plain answer.<|foo_bar|>');
    expect(glued.prose).toBe('Plain answer.');
    const midLine = parseToolCalls('Hi <|CHATBOT_TOKEN|> there');
    expect(midLine.prose).not.toContain('<|');
    expect(midLine.prose).toContain('there');
    // DeepSeek's fullwidth-bar tokens mid-line (Ollama sees its tool-output tokens echoed).
    const output = parseToolCalls('Result: <｜tool▁output▁begin｜>18°C<｜tool▁output▁end｜> after.');
    expect(output.prose).not.toContain('｜');
    expect(output.prose).toContain('18°C');
  });

  it('leaves harn as the reference reads it', () => {
    expect(parseToolCalls('If a < b then c.', { profile: 'harn' }).prose).toBe('If a\n\n< b then c.');
  });
});

describe('gateway verbatim prose: a tag a grammar writes is not prose', () => {
  it('refuses the verbatim reading when a tag is a field grammar\'s marker or not written as HTML writes one', () => {
    // A close glued to the text or ending its line is a leaked marker; so is an opener mid-line
    // with no words after it, or one followed by more markup.
    for (const written of ['Hi</function> x <b>y</b>', 'Hi x <b>y</b> </parameter>', 'Hi <invoke name="x">', 'Hi <invoke name="x"><parameter name="a">1</parameter> x <b>y</b>']) {
      const result = parseToolCalls(written, { tools: ['look'] });
      expect(result.prose, written).not.toBe(written);
      expect(result.protocol_violations.map((v) => v.kind), written).toContain('unparsed_tool_syntax');
    }
  });

  it('reads a tag named between words as a mention: the sentence as written, no violation', () => {
    for (const written of [
      'Close it with </tool_call> when done.',
      'Then write "</function>" and stop.',
      'Wrap each call in <tool_call> and </tool_call> tags.',
      'Hi <invoke name="x"> x <b>y</b>',
      'Hi <function=foo> x <b>y</b>',
      'The GLM format uses <arg_key> and <arg_value> tags.',
      'MiniMax writes <invoke name="get_weather"> inside its block.',
      'In Qwen3-Coder a parameter looks like <parameter=city> followed by its value.',
      'Every call begins with <tool_call>.',
    ]) {
      const result = parseToolCalls(written, { tools: ['look'] });
      expect(result.prose, written).toBe(written);
      expect(result.protocol_violations, written).toEqual([]);
      expect(result.calls, written).toEqual([]);
    }
  });

  it('keeps the words of a broken turn, its markers cut out, where harn shows nothing', () => {
    const leaked = parseToolCalls('I checked the weather. </tool_call>');
    expect(leaked.prose).toBe('I checked the weather.');
    expect(leaked.protocol_violations.map((v) => v.kind)).toContain('stray_text');
    expect(parseToolCalls('I checked the weather. </tool_call>', { profile: 'harn' }).prose).toBe('');
  });

  it('keeps a special token quoted as inline code (an answer about a chat template), and nothing of it is tool syntax', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    for (const text of [
      'Use `<|start_header_id|>` and `<|end_header_id|>` around the role.',
      'The `<|im_start|>` token marks the start of a message; the role name follows it.',
      '| `<|im_start|>` | Instruction Message Start | starts a message |',
      'Set `stop=["<|im_end|>", "<|im_start|>"]` so generation ends at the turn boundary.',
      'In ChatML every user message starts with `<|im_start|>user` and ends with `<|im_end|>`.',
      'The token `"<end_of_turn>\\n"` separates turns.',
      'DeepSeek opens a tool\'s output with `<｜tool▁output▁begin｜>`.',
    ]) {
      const result = parseToolCalls(text, { tools });
      expect(result.prose, text).toBe(text);
      expect(result.calls).toEqual([]);
      expect(result.protocol_violations, text).toEqual([]);
      expect(result.dropped.every((d) => d.reason === 'salvaged_as_prose'), text).toBe(true);
    }
  });

  it('keeps HTML code elements as written (smolagents\' `<code>` blocks hold calls the agent runs itself)', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }];
    for (const text of [
      'Thought: Let me get the weather.\n<code>\nresult = get_weather(location="Paris")\nprint(result)\n</code>',
      'Run this:\n<pre>\nw = get_weather(location="Paris")\n</pre>\nThen read the result.',
    ]) {
      const result = parseToolCalls(text, { tools });
      expect(result.prose, text).toBe(text);
      expect(result.calls).toEqual([]);
      expect(result.protocol_violations.map((v) => v.kind)).not.toContain('unparsed_tool_syntax');
    }
  });

  it('still cuts a special token written out outside code, where it is no prose', () => {
    const result = parseToolCalls('Done.<|role_end|> The answer is 4.');
    expect(result.prose).not.toContain('<|role_end|>');
  });
});

