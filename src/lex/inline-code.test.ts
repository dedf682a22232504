import { describe, expect, it } from 'vitest';
import { blockquoteTextAt, inlineSpansOn, withoutQuotedCodeLines, withoutAngledInlineCode, withoutMentionedCloses, withoutMentionedOpens, withoutQuotedMarkup, withoutQuotedMarkupLines } from './inline-code.js';

describe('withoutAngledInlineCode', () => {
  it('masks a mid-line span that quotes a tag, and keeps the length', () => {
    const line = 'Use the `<tool_call>` tag.';
    const masked = withoutAngledInlineCode(line);
    expect(masked).toBe('Use the `___________` tag.');
    expect(masked.length).toBe(line.length);
  });

  it('leaves spans with no `<`, a span opening the line, and an unclosed tick alone', () => {
    expect(withoutAngledInlineCode('Call `look` then `<b>`')).toBe('Call `look` then `___`');
    expect(withoutAngledInlineCode('a `look<function=look>{` b')).toBe('a `look<function=look>{` b');
    expect(withoutAngledInlineCode('a `<function=look>{` b')).toBe('a `<function=look>{` b');
    expect(withoutAngledInlineCode('a `<tool_call>...</tool_call>` b')).toBe('a `__________________________` b');
    expect(withoutAngledInlineCode('a `<tool_call>{"name": "x"}</tool_call>` b')).toBe('a `____________________________________` b');
    expect(withoutAngledInlineCode('a `<tool_call>{"name": "x"}` b')).toBe('a `<tool_call>{"name": "x"}` b');
    expect(withoutAngledInlineCode('a `<tool_call>{"name": "x"}</tool_call> more` b')).toBe('a `<tool_call>{"name": "x"}</tool_call> more` b');
    expect(withoutAngledInlineCode('`<tool_call>` opens it')).toBe('`<tool_call>` opens it');
    expect(withoutAngledInlineCode('`look`<think>`')).toBe('`look`<think>`');
    expect(withoutAngledInlineCode('a ` <x> with no close')).toBe('a ` <x> with no close');
    expect(withoutAngledInlineCode('a `<|start|>` frame')).toBe('a `<|start|>` frame');
  });

  it('masks a whole call quoted mid-line, opening tags inside included, and no span with a frame, a heredoc or a bare `<`', () => {
    const call = 'a `<function=f><parameter=k>v</parameter></function>` b';
    expect(withoutAngledInlineCode(call)).toBe('a `' + '_'.repeat(call.length - 6) + '` b');
    expect(withoutAngledInlineCode('a `<x><y>` b')).toBe('a `______` b');
    expect(withoutAngledInlineCode('a `<x><|y|>` b')).toBe('a `<x><|y|>` b');
    expect(withoutAngledInlineCode('a `<x><<EOF` b')).toBe('a `<x><<EOF` b');
    expect(withoutAngledInlineCode('a `<x> < y` b')).toBe('a `<x> < y` b');
    expect(withoutAngledInlineCode('a `<x>f(1)</x>` b')).toBe('a `<x>f(1)</x>` b');
  });

  it('pairs runs of the same width and passes fences by', () => {
    expect(withoutAngledInlineCode('x ``<b> ` a`` y')).toBe('x ``<b> ` a`` y');
    expect(withoutAngledInlineCode('x ``a`` `<b>` y')).toBe('x ``a`` `___` y');
    expect(withoutAngledInlineCode('x ```<b>``` y')).toBe('x ```<b>``` y');
  });

  it('masks line by line, and returns the text itself when nothing is masked', () => {
    const text = 'one `<a>`\n`<b>` two\nthree `<c>`';
    expect(withoutQuotedMarkupLines(text)).toBe('one `___`\n`<b>` two\nthree `___`');
    const plain = 'no ticks <here>';
    expect(withoutQuotedMarkupLines(plain)).toBe(plain);
  });

  it('costs one pass on a line of many spans', () => {
    const line = 'x' + ' `<a>`'.repeat(20000);
    const masked = withoutAngledInlineCode(line);
    expect(masked.length).toBe(line.length);
    expect(masked.includes('<')).toBe(false);
  });
});

describe('withoutMentionedCloses', () => {
  it('masks a close named between words, with or without quotes, and keeps the length', () => {
    const line = 'Close it with </tool_call> when done.';
    const masked = withoutMentionedCloses(line);
    expect(masked).toBe('Close it with ____________ when done.');
    expect(masked.length).toBe(line.length);
    expect(withoutMentionedCloses('Then write "</function>" and stop.')).toBe('Then write "___________" and stop.');
    expect(withoutMentionedCloses('It ends with </invoke>.')).toBe('It ends with _________.');
  });

  it('leaves a leaked close alone: glued to the text, ending its line, or opening it', () => {
    expect(withoutMentionedCloses('Done.</tool_call> more')).toBe('Done.</tool_call> more');
    expect(withoutMentionedCloses('I checked the weather. </tool_call>')).toBe('I checked the weather. </tool_call>');
    expect(withoutMentionedCloses('</tool_call> then words')).toBe('</tool_call> then words');
    expect(withoutMentionedCloses('  </tool_call> then words')).toBe('  </tool_call> then words');
    expect(withoutMentionedCloses('a </|DSML|invoke> b')).toBe('a </|DSML|invoke> b');
  });

  it('leaves a close alone when only characters trim removes follow it (a no-break space, a BOM, a line separator)', () => {
    // The drop ledger reads the text trimmed, so such a close ends it: a leaked close, not a mention.
    for (const tail of ['  \u00a0', ' \ufeff', '\t\u2028', ' \u3000 ']) {
      expect(withoutMentionedCloses(`look </invoke>${tail}`)).toBe(`look </invoke>${tail}`);
      expect(withoutMentionedCloses(`look </invoke>${tail}\n`)).toBe(`look </invoke>${tail}\n`);
    }
    expect(withoutMentionedCloses('look </invoke> \u00a0then')).toBe('look _________ \u00a0then');
  });

  it('masks quoted markup of both kinds on one line, line by line', () => {
    expect(withoutQuotedMarkup('Use `<tool_call>` and close with </tool_call> after.')).toBe('Use `___________` and close with ____________ after.');
    expect(withoutQuotedMarkupLines('a </b> c\nd</b> e')).toBe('a ____ c\nd</b> e');
  });

  it('costs one pass on a line of many closes', () => {
    const line = 'x' + ' </a> y'.repeat(20000);
    const masked = withoutMentionedCloses(line);
    expect(masked.length).toBe(line.length);
    expect(masked.includes('<')).toBe(false);
  });
});

describe('blockquote lines', () => {
  it('mask the quoted text of a line whose first non-blank character is `>` and a blank, keeping the length and the line break', () => {
    expect(withoutQuotedMarkup('> <tool_call>{"a": 1}</tool_call>\n')).toBe(`> ${'_'.repeat('<tool_call>{"a": 1}</tool_call>'.length)}\n`);
    expect(withoutQuotedMarkup('  > [TOOL_CALLS]x')).toBe(`  > ${'_'.repeat('[TOOL_CALLS]x'.length)}`);
    expect(blockquoteTextAt('>', 0)).toBe(1);
    for (const line of ['>>> print(1)', '>x <b>', 'a > b <tool_call>']) expect(withoutQuotedMarkup(line), line).toBe(line);
    expect(withoutQuotedMarkupLines('Quote:\n> <invoke name="x">\nDone.')).toBe(`Quote:\n> ${'_'.repeat('<invoke name="x">'.length)}\nDone.`);
  });
});

describe('withoutMentionedOpens', () => {
  it('masks an opening tag named between words, attributes included, and keeps the length', () => {
    const line = 'MiniMax writes <invoke name="get_weather"> inside its block.';
    const masked = withoutMentionedOpens(line);
    expect(masked).toBe(`MiniMax writes ${'_'.repeat('<invoke name="get_weather">'.length)} inside its block.`);
    expect(withoutMentionedOpens('It uses <arg_key> and <arg_value> tags.')).toBe('It uses _________ and ___________ tags.');
    expect(withoutMentionedOpens('A value like <parameter=city>, then text.')).toBe(`A value like ${'_'.repeat('<parameter=city>'.length)}, then text.`);
  });

  it('masks the tags of a list and a tag ending its sentence, kept openers too when a listed tag follows them', () => {
    expect(withoutMentionedOpens('Tags: <tool_call>, <invoke>; <tools>.')).toBe('Tags: ___________, ________; _______.');
    expect(withoutMentionedOpens('It ends like <invoke>.')).toBe('It ends like ________.');
    expect(withoutMentionedOpens('Tags: <tool_call>, <invoke>.', ['<tool_call>'])).toBe('Tags: ___________, ________.');
    expect(withoutMentionedOpens('It opens with <tool_call>.', ['<tool_call>'])).toBe('It opens with <tool_call>.');
    expect(withoutMentionedOpens('It looks for <function= then a name.')).toBe('It looks for __________ then a name.');
    expect(withoutMentionedOpens('It looks for <function=')).toBe('It looks for <function=');
    for (const line of ['Hi <invoke name="x"><b>', 'Hi <invoke>, {"a": 1}', 'Hi <invoke>.<b>', 'Hi <invoke> <b>']) expect(withoutMentionedOpens(line), line).toBe(line);
  });

  it('leaves an opener that starts a call or a body: at the line start, glued, followed by markup, a body or nothing, or closed on its line', () => {
    for (const line of [
      '<invoke name="x"> then words',
      'Done.<tool_call>search<arg_key>q</arg_key>',
      'Hi <invoke name="x">',
      'Hi <invoke name="x"><parameter name="a">1</parameter> x',
      'Call: <tool_call> {"name": "look"}',
      'Hi <invoke name="x"> x </invoke> y',
      'a < b and c > d',
      'Use Vec<u8> here.',
    ]) {
      expect(withoutMentionedOpens(line), line).toBe(line);
    }
  });

  it('leaves the openers it is told to keep, and finds a close masked as a mention', () => {
    expect(withoutMentionedOpens('a <think> b', ['<think>'])).toBe('a <think> b');
    expect(withoutMentionedOpens('a <think> b')).toBe('a _______ b');
    const line = 'Hi <invoke name="x"> x </invoke> y';
    expect(withoutQuotedMarkup(line)).toBe(`Hi <invoke name="x"> x _________ y`);
  });
});

describe('inlineSpansOn', () => {
  const spans = (line: string) => {
    const out: { start: number; end: number; ticks: number }[] = [];
    inlineSpansOn(line, line.indexOf('`'), line.length, out);
    return out.map((s) => line.slice(s.start, s.end));
  };

  it('pairs each run with the next run of its length, as Markdown does', () => {
    expect(spans('a `b` c ``d`e`` f')).toEqual(['`b`', '``d`e``']);
    // A run with no partner is text; the runs after it still pair.
    expect(spans('``` a `b` c')).toEqual(['`b`']);
  });
});

describe('withoutQuotedCodeLines', () => {
  it('masks a mid-line span that quotes markup, and nothing else', () => {
    expect(withoutQuotedCodeLines('Set `stop=["<|im_end|>"]` here.')).toBe(`Set \`${'_'.repeat('stop=["<|im_end|>"]'.length)}\` here.`);
    expect(withoutQuotedCodeLines('Use `x = 1` here <b>.')).toBe('Use `x = 1` here <b>.');
    expect(withoutQuotedCodeLines('`<|im_end|>` opens the line.')).toBe('`<|im_end|>` opens the line.');
  });
});

