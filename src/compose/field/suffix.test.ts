import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../parse.js';

const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

/** A Hunyuan section whose every tag carries the deployment suffix `suffix` (`:opensource`). */
function region(suffix: string, city: string): string {
  const s = suffix;
  return `<tool_calls${s}>\n<tool_call${s}>get_weather<tool_sep${s}>\n<arg_key${s}>city</arg_key${s}>\n<arg_value${s}>${city}</arg_value${s}>\n</tool_call${s}>\n</tool_calls${s}>`;
}

const manySuffixes = (from: number, count: number): string =>
  Array.from({ length: count }, (_, i) => region(`:dep${from + i}`, `C${from + i}`)).join('\nNext.\n');

describe('deployment suffixes', () => {
  it('reads a call whose tags carry a suffix', () => {
    expect(parseToolCalls(region(':opensource', 'Paris'), { tools }).calls).toEqual([{ id: 'tc_0', name: 'get_weather', arguments: { city: 'Paris' } }]);
  });

  it('reads at most 16 distinct suffixes in a parse, whatever suffixes the process read before', () => {
    const text = manySuffixes(0, 20);
    const first = parseToolCalls(text, { tools });
    expect(first.calls.map((c) => c.arguments.city)).toEqual(Array.from({ length: 16 }, (_, i) => `C${i}`));
    // Earlier parses that met other suffixes, and the last four of this text first.
    for (let k = 0; k < 6; k++) parseToolCalls(manySuffixes(100 + 16 * k, 16), { tools });
    parseToolCalls(manySuffixes(16, 4), { tools });
    expect(parseToolCalls(text, { tools })).toEqual(first);
  });
});
