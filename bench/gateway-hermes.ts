/**
 * The gateway case: a 2 KB response holding 3 Hermes calls (`<tool_call>{"name", "arguments"}`)
 * and a raw registry of 8 OpenAI-form tools with schemas, passed as the same array every time
 * (so it is normalised and its validators compiled once).
 */
const property = (type: string) => ({ type });

export const GATEWAY_TOOLS = Object.freeze(
  ['get_weather', 'search_web', 'read_file', 'write_file', 'run_command', 'list_dir', 'send_email', 'create_event'].map((name, i) => ({
    type: 'function',
    function: {
      name,
      description: `Tool ${i}: ${name.replace('_', ' ')}.`,
      parameters: {
        type: 'object',
        properties: { target: property('string'), count: { type: 'integer', minimum: 0 }, verbose: property('boolean'), tags: { type: 'array', items: property('string') } },
        required: ['target'],
        additionalProperties: false,
      },
    },
  })),
);

export function hermesResponse(): string {
  const call = (name: string, target: string) => `<tool_call>\n{"name": "${name}", "arguments": {"target": "${target}", "count": 3, "tags": ["a", "b"]}}\n</tool_call>`;
  const prose = 'I will look into this step by step, checking the weather, the web and the file before answering. ';
  let text = `${prose.repeat(5)}\n${call('get_weather', 'Paris')}\n${call('search_web', 'rain in Paris')}\n${call('read_file', 'notes/today.md')}\n`;
  while (text.length < 2048) text += prose;
  return text.slice(0, 2048);
}
