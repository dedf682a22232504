/**
 * The README's field-grammar table is the one the conformance catalogue renders, and every row's
 * example parses to the one call it shows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../conformance/field/grammars.js';
import { EXAMPLE_CALL, exampleOf, fieldTable } from '../conformance/field/readme/table.js';
import { parseToolCalls } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README field-grammar table', () => {
  it('is exactly the table the catalogue renders', () => {
    expect(readme).toContain(`\n${fieldTable()}\n`);
  });

  for (const spec of GRAMMARS) {
    it(`${spec.grammar}: the example is one call to look`, () => {
      const result = parseToolCalls(exampleOf(spec.grammar), { tools: [{ name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } }] });
      expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([[EXAMPLE_CALL.name, EXAMPLE_CALL.arguments]]);
      expect(result.tool_parse_errors).toEqual([]);
    });
  }
});
