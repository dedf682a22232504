import { describe, expect, it } from 'vitest';
import { trimUnicode } from '../../lex/render.js';
import { collapseBlankLines, stripEmptyFences, stripToolCallWrappers, unwrapExactCodeWrapper } from './text-edits.js';

const meter = () => ({ steps: 0 });

describe('unwrapExactCodeWrapper', () => {
  it('opens one fence that spans the whole (trimmed) text', () => {
    expect(unwrapExactCodeWrapper('\n ```ts\n  run({})  \n```\n')).toBe('run({})');
    expect(unwrapExactCodeWrapper('```\n```')).toBe('');
  });

  it('opens one inline span without inner backticks', () => {
    expect(unwrapExactCodeWrapper(' `run({ a: 1 })` ')).toBe('run({ a: 1 })');
    expect(unwrapExactCodeWrapper('`a` and `b`')).toBeNull();
    expect(unwrapExactCodeWrapper('`')).toBeNull();
  });

  it('rejects text that is not exactly one wrapper', () => {
    expect(unwrapExactCodeWrapper('```ts run({})```')).toBeNull();
    expect(unwrapExactCodeWrapper('```ts\nrun({})\n``` trailing')).toBeNull();
    expect(unwrapExactCodeWrapper('plain')).toBeNull();
  });
});

describe('stripToolCallWrappers', () => {
  it('turns each wrapper tag into a newline', () => {
    expect(stripToolCallWrappers('<tool_call>a</tool_call><toolcall>b</toolcall>', meter())).toBe('\na\n\nb\n');
  });

  it('keeps wrapper tags inside quoted spans and complete heredocs', () => {
    const text = 'x("<tool_call>") <<EOF\n</tool_call>\nEOF\n</tool_call>';
    expect(stripToolCallWrappers(text, meter())).toBe('x("<tool_call>") <<EOF\n</tool_call>\nEOF\n\n');
  });

  it('treats an unterminated quote or heredoc as ordinary text', () => {
    expect(stripToolCallWrappers("it's <tool_call>", meter())).toBe("it's \n");
    expect(stripToolCallWrappers('<<EOF\n<tool_call>\n<<EOF\n</tool_call>', meter())).toBe('<<EOF\n\n\n<<EOF\n\n');
  });

  it('returns the text itself when there is no wrapper', () => {
    const text = 'nothing to do';
    expect(stripToolCallWrappers(text, meter())).toBe(text);
  });
});

describe('stripEmptyFences', () => {
  it('removes a fence pair with only whitespace between', () => {
    expect(stripEmptyFences('a\n```json\n  \n\n```  \nb', meter())).toBe('a\nb');
    expect(stripEmptyFences('a\n  ```\n```', meter())).toBe('a\n');
  });

  it('keeps fences with content and lone fences', () => {
    expect(stripEmptyFences('```\nx\n```', meter())).toBe('```\nx\n```');
    expect(stripEmptyFences('a ```\n```', meter())).toBe('a ```\n```');
    expect(stripEmptyFences('```', meter())).toBe('```');
  });

  it('continues after a match that ends mid-line', () => {
    expect(stripEmptyFences('```\n```tail\n```\n```\nz', meter())).toBe('tail\nz');
  });
});

describe('collapseBlankLines and trimUnicode', () => {
  it('collapses three or more newlines to two', () => {
    expect(collapseBlankLines('a\n\n\n\n\nb\n\nc\n\n\n', meter())).toBe('a\n\nb\n\nc\n\n');
  });

  it('trims Unicode White_Space but not U+FEFF', () => {
    expect(trimUnicode('\u00a0\u2003 x \u0085')).toBe('x');
    expect(trimUnicode('\ufeffx')).toBe('\ufeffx');
  });
});
