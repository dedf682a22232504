/** The README's streaming example, run: its chunks, pushed, give exactly the events it shows. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createStreamParser, parseToolCalls } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('### Streaming'), readme.indexOf('### Tool registries'));

it('README "Streaming": the example gives the events shown, and end() the one-shot result', () => {
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const chunks = JSON.parse(/const chunks = (\[.*\]);/.exec(code)![1]!) as string[];
  const tools = ['get_weather'];
  expect(code).toContain("createStreamParser({ tools: ['get_weather'] })");
  const shown = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!) as unknown[];
  const stream = createStreamParser({ tools });
  const got: unknown[] = chunks.map((chunk) => stream.push(chunk));
  const end = stream.end();
  got.push(end.events);
  expect(got).toEqual(shown);
  expect(end.result).toEqual(parseToolCalls(chunks.join(''), { tools }));
});
