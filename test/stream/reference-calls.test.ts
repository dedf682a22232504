/**
 * The reference grammar's calls (`<tool_call>look({…})</tool_call>`) stream under `gateway`: each
 * comes in the chunk that completes its block's close, ahead of the prose before it, once the
 * piece's start is settled (after a region, or `reasoning_started: false`); and a region that
 * took the blanks after its close is whole once other text follows.
 */
import { describe, expect, it } from 'vitest';
import { parseToolCalls, type ParseOptions, type ParseResult } from '../../src/index.js';
import { everyN, invariantFailures, streamChunks } from './invariant.js';

const TOOLS = ['look', 'run'];

/** The push (1-based; `chunks.length + 1` is `end()`) of each `call_end`. */
function callEndsAt(chunks: readonly string[], options: ParseOptions): number[] {
  const { events, at } = streamChunks(chunks, options);
  return events.flatMap((e, i) => (e.type === 'call_end' ? [at[i]!] : []));
}

describe('stream: reference-grammar calls', () => {
  const text = 'Reading it.\n<tool_call>look({"path": "a.rs"})</tool_call>\nThen the tests.\n<tool_call>\nrun({ command: "npm test" })\n</tool_call>\nDone.';
  const firstClose = text.indexOf('</tool_call>') + '</tool_call>'.length;
  const secondClose = text.lastIndexOf('</tool_call>') + '</tool_call>'.length;

  it('come once their block close ends its line, with reasoning_started: false, the prose still whole at the end', () => {
    const chunks = [text.slice(0, firstClose - 3), text.slice(firstClose - 3, firstClose + 1), text.slice(firstClose + 1, secondClose + 1), text.slice(secondClose + 1)];
    const options = { tools: TOOLS, reasoning_started: false };
    expect(callEndsAt(chunks, options)).toEqual([2, 3]);
    const { result } = streamChunks(chunks, options);
    expect(result).toEqual(parseToolCalls(text, options));
    expect((result as ParseResult).calls.map((c) => c.name)).toEqual(['look', 'run']);
  });

  it('come at their block close after a released region', () => {
    const after = `<think>Plan.</think>\n${text}`;
    const close = after.indexOf('</tool_call>') + '</tool_call>'.length;
    expect(callEndsAt([after.slice(0, close + 1), after.slice(close + 1)], { tools: TOOLS })[0]).toBe(1);
    // The close alone does not yet say that its line holds nothing more: the line break does.
    expect(callEndsAt([after.slice(0, close), after.slice(close, close + 1), after.slice(close + 1)], { tools: TOOLS })[0]).toBe(2);
  });

  it('wait for their piece when words follow the close on its line (the rest of the line may make the block a mention)', () => {
    const glued = '<think>Plan.</think>\n<tool_call>look({"path": "a.rs"})</tool_call> then a <tool_call> tag.\nMore.';
    const close = glued.indexOf('</tool_call>') + '</tool_call>'.length;
    const chunks = [glued.slice(0, close), glued.slice(close)];
    expect(callEndsAt(chunks, { tools: TOOLS }).every((at) => at === 3)).toBe(true);
    expect(invariantFailures(glued, everyN(glued, 1), { tools: TOOLS })).toEqual([]);
  });

  it('wait for the end while a later orphan reasoning close could still make them reasoning', () => {
    const close = text.indexOf('</tool_call>') + '</tool_call>'.length;
    const chunks = [text.slice(0, close), text.slice(close)];
    expect(callEndsAt(chunks, { tools: TOOLS })).toEqual([3, 3]);
    // It could: the same text with an orphan close after it has no calls at all.
    expect(parseToolCalls(`${text}\n</think>\nAnswer.`, { tools: TOOLS }).calls).toEqual([]);
  });

  it('wait while a code block opened before them is open (a reasoning marker later in it makes the block a sample)', () => {
    const fenced = 'Here:\n```\n<tool_call>\nlook({"path": "a.rs"})\n</tool_call>\n';
    const close = fenced.indexOf('</tool_call>') + '</tool_call>'.length;
    const options = { tools: TOOLS, reasoning_started: false };
    // The same start, two ways on: a reasoning marker in the block makes it all a sample; a closed block keeps the call.
    const sample = `${fenced}<think>x</think>\n\`\`\`\nDone.`;
    const closed = `${fenced}\`\`\`\nDone.`;
    expect(parseToolCalls(sample, options).calls).toEqual([]);
    expect(parseToolCalls(closed, options).calls.map((c) => c.name)).toEqual(['look']);
    expect(callEndsAt([sample.slice(0, close + 1), sample.slice(close + 1)], options)).toEqual([]);
    expect(callEndsAt([closed.slice(0, close + 1), closed.slice(close + 1)], options)).toEqual([3]);
    for (const size of [1, 3, 7]) {
      expect(invariantFailures(sample, everyN(sample, size), options)).toEqual([]);
      expect(invariantFailures(closed, everyN(closed, size), options)).toEqual([]);
    }
  });

  it('wait for the piece when its reading took a recovery rung (a call from a fenced block here, which a later block takes back)', () => {
    const fenced = 'Notes:\n```tool\n{"name": "a", "args": {}}\n```<tool_call>\nrun({ command: "x" })\n</tool_call>\n\n<tool_call>\nrun({ command: "y" })\n</tool_call>';
    const options = { reasoning_started: false };
    const firstClose = fenced.indexOf('</tool_call>') + '</tool_call>'.length + 1;
    // Cut after the first block, the piece reads the fenced object as a call; the whole text does not.
    expect(parseToolCalls(fenced.slice(0, firstClose), options).calls.map((c) => c.name)).toEqual(['a']);
    expect(parseToolCalls(fenced, options).calls.map((c) => c.arguments)).toEqual([{ command: 'y' }]);
    const failures: string[] = [];
    for (let cut = 1; cut < fenced.length; cut++) failures.push(...invariantFailures(fenced, [fenced.slice(0, cut), fenced.slice(cut)], options));
    expect(failures).toEqual([]);
  });

  it('wait for the piece while a heredoc opened before the block is still open (the one-shot call swallows the block)', () => {
    const text =
      'edit({\n    action: "create",\n    path: "main.go",\n    content: <<EOF\nfunc main() {}\n\n<tool_call>\nedit({ action: "create", path: "a.rs", content: "x" })\n</tool_call>\n\nedit({\n    action: "create",\n    path: "b.go",\n    content: <<CONTENT\npackage b\nCONTENT\n})';
    const options = { tools: ['edit'], reasoning_started: false };
    expect(parseToolCalls(text, options).calls.some((c) => c.arguments.path === 'a.rs')).toBe(false);
    const close = text.indexOf('</tool_call>') + '</tool_call>'.length;
    const failures: string[] = [];
    for (const cut of [close - 1, close, close + 1, close + 2]) failures.push(...invariantFailures(text, [text.slice(0, cut), text.slice(cut)], options));
    for (const size of [1, 4, 9]) failures.push(...invariantFailures(text, everyN(text, size), options));
    expect(failures).toEqual([]);
  });

  it('keep the one-shot answer however the text is cut', () => {
    for (const options of [{ tools: TOOLS, reasoning_started: false }, { tools: TOOLS }, { reasoning_started: false }]) {
      for (const size of [1, 2, 5, 13]) expect(invariantFailures(text, everyN(text, size), options)).toEqual([]);
    }
  });
});

describe('stream: a region that took the blanks after its close', () => {
  it('is whole once text follows the blanks (Llama 3.1 <function=…>)', () => {
    const text = 'Checking.\n\n<function=look>{"path": "a.rs"}</function>\n\nThen I will read it.\nMore.';
    const close = text.indexOf('</function>') + '</function>'.length;
    // The close and the blanks after it come in one chunk: nothing says yet that no call follows.
    const chunks = [text.slice(0, close + 2), text.slice(close + 2, close + 6), text.slice(close + 6)];
    const options = { tools: TOOLS, reasoning_started: false };
    expect(callEndsAt(chunks, options)).toEqual([2]);
    expect(invariantFailures(text, chunks, options)).toEqual([]);
  });
});
