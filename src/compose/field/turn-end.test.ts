import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../parse.js';
import { TURN_END, TURN_HEADER } from '../../dialects/field/turn-end.js';

const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const gateway = (text: string) => parseToolCalls(text, { tools, profile: 'gateway' });

describe('field lane: end-of-turn tokens', () => {
  it('consumes every listed token after an answer: the answer alone is prose, the token one contentless drop, no violation', () => {
    for (const token of [...TURN_END.tokens, ...TURN_END.trailingTokens]) {
      const result = gateway(`The answer is 4.${token}\n`);
      expect(result.prose, token).toBe('The answer is 4.');
      expect(result.protocol_violations, token).toEqual([]);
      expect(result.tool_parse_errors, token).toEqual([]);
      expect(result.dropped.at(-1), token).toEqual({ text: token, reason: 'end_of_turn_token' });
    }
  });

  it('consumes a token between a call and the end, and several in a row', () => {
    const result = gateway('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}</s>\n<|im_end|>');
    expect(result.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(result.prose).toBe('');
    expect(result.protocol_violations).toEqual([]);
    expect(result.dropped.map((d) => d.reason)).toEqual(['end_of_turn_token', 'end_of_turn_token']);
  });

  it('keeps an HTML-like token that is not at the end, or that closes an open written before it', () => {
    expect(gateway('The <s>old</s> price is gone.').prose).toBe('The <s>old</s> price is gone.');
    expect(gateway('The price was <s>ten</s>').prose).toBe('The price was <s>ten</s>');
    expect(gateway('Done </s> and more.').prose).toBe('Done </s> and more.');
  });

  it('consumes an unambiguous token where it stands, the text after it staying prose', () => {
    const result = gateway('First.<|eot_id|>Second.');
    expect(result.prose).toBe('First.\n\nSecond.');
    expect(result.protocol_violations).toEqual([]);
  });

  it('leaves a token a grammar owns to that grammar (Llama 3 closes its call with <|eom_id|>)', () => {
    const result = gateway('<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>');
    expect(result.calls.map((c) => c.arguments)).toEqual([{ city: 'Paris' }]);
    expect(result.dropped).toEqual([]);
  });

  it('changes nothing under harn (the reference reads the token as it always did)', () => {
    const harn = parseToolCalls('The answer is 4.<|eot_id|>', { tools, profile: 'harn' });
    expect(harn.dropped.some((d) => (d.reason as string) === 'end_of_turn_token')).toBe(false);
  });
});

describe('field lane: the assistant turn\'s header', () => {
  it('drops every listed header as the response\'s first text (after blanks), with no violation: the answer alone is prose', () => {
    for (const header of TURN_HEADER.tokens) {
      const result = gateway(` \n${header}The answer is 4.`);
      expect(result.prose, header).toBe('The answer is 4.');
      expect(result.protocol_violations, header).toEqual([]);
      // The ledger keeps a fragment's text without its surrounding blanks.
      expect(result.dropped[0], header).toEqual({ text: header.trim(), reason: 'turn_header_token' });
    }
  });

  it('is a header after other text too (the model began another turn of its own): dropped, the text around it kept', () => {
    const result = gateway('The answer is 4.<|im_end|>\n<|im_start|>assistant\nMore.');
    expect(result.prose).toBe('The answer is 4.\n\nMore.');
    expect(result.dropped.filter((d) => d.reason !== 'salvaged_as_prose').map((d) => d.reason)).toEqual(['turn_header_token']);
  });

  it('begins the response after it: with no registry a call object there is the whole response', () => {
    const result = parseToolCalls('<|im_start|>assistant\n{"name": "lookup", "arguments": {"q": "x"}}<|im_end|>', { profile: 'gateway' });
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['lookup', { q: 'x' }]]);
    expect(result.prose).toBe('');
  });
});
