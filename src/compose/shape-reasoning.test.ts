import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse.js';

const tools = [{ name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const call = (path: string) => `<tool_call>{"name": "look", "arguments": {"path": "${path}"}}</tool_call>`;
const TEXT = `<think>First a.</think>Reading a.${call('a')}<think>Then b.</think>${call('b')}`;

describe('output shapes carry reasoning', () => {
  it('openai: joined reasoning in reasoning_content; none when there is none', () => {
    expect(parseToolCalls(TEXT, { tools, shape: 'openai' }).message.reasoning_content).toBe('First a.\n\nThen b.');
    expect(parseToolCalls('Just text.', { tools, shape: 'openai' }).message).not.toHaveProperty('reasoning_content');
  });

  it('anthropic: thinking blocks in document order among text and tool_use', () => {
    const content = parseToolCalls(TEXT, { tools, shape: 'anthropic' }).message.content;
    expect(content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'thinking', 'tool_use']);
    expect(content[3]).toEqual({ type: 'thinking', thinking: 'Then b.', signature: '' });
  });

  it('anthropic: a refused call leaves the order with its place', () => {
    const text = `<think>Try it.</think>${call('a').replace('"look"', '"nope"')}${call('b')}`;
    const content = parseToolCalls(text, { tools, shape: 'anthropic' }).message.content;
    expect(content).toEqual([
      { type: 'thinking', thinking: 'Try it.', signature: '' },
      { type: 'tool_use', id: 'tc_0', name: 'look', input: { path: 'b' } },
    ]);
  });

  it('include can ask for reasoning alone', () => {
    expect(parseToolCalls(TEXT, { tools, include: ['reasoning'] })).toEqual({ reasoning: 'First a.\n\nThen b.' });
  });
});
