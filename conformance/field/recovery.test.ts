/**
 * One recovery, one `recovered_dialect`: a call whose closing markers are missing at the end of
 * the text (its own close and its section's close, cut at once) is reported once, whatever the
 * grammar; a call whose close is missing mid-section is a recovery of its own.
 */
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import { loadFieldCaseFiles } from './lib/load.js';

const recoveries = (text: string, tools: unknown): number =>
  parseToolCalls(text, { profile: 'gateway', ...(tools === null || tools === undefined ? {} : { tools }) } as Parameters<typeof parseToolCalls>[1]).protocol_violations.filter((v) => v.kind === 'recovered_dialect').length;

describe('recovered_dialect: one per recovery', () => {
  it('every end-markers-missing case reports exactly one', () => {
    const counts: string[] = [];
    for (const file of loadFieldCaseFiles()) {
      for (const c of file.cases) {
        if (c.scenario !== 'end-markers-missing') continue;
        const n = recoveries(c.text, c.tools);
        if (n !== 1) counts.push(`${c.id}: ${n}`);
      }
    }
    expect(counts).toEqual([]);
  });

  const begin = '<|tool_calls_section_begin|>';
  const call = (i: number, city: string, end: boolean): string => `<|tool_call_begin|>functions.get_weather:${i}<|tool_call_argument_begin|>{"city": "${city}"}${end ? '<|tool_call_end|>' : ''}`;

  it('Kimi K2: the last call and the section both unclosed is one recovery; a call unclosed mid-section is another', () => {
    const tools = ['get_weather'];
    expect(recoveries(`${begin}${call(0, 'Oslo', false)}`, tools)).toBe(1);
    expect(recoveries(`${begin}${call(0, 'Oslo', true)}${call(1, 'Rome', false)}`, tools)).toBe(1);
    expect(recoveries(`${begin}${call(0, 'Oslo', false)}${call(1, 'Rome', true)}`, tools)).toBe(2);
    expect(recoveries(`${begin}${call(0, 'Oslo', true)}${call(1, 'Rome', true)}<|tool_calls_section_end|>`, tools)).toBe(0);
  });
});
