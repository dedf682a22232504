/**
 * The vocabulary is authoritative: no tag the dialects spell is written again as a string
 * literal in the code that reads it. A lane that needs `<tool_call>` takes it from
 * `src/dialects` (message wording, in template literals, may quote a tag to the model).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_GRAMMARS } from '../../src/dialects/field/index.js';
import * as vocabulary from '../../src/dialects/vocabulary.js';
import { ROOT, sourceFiles } from './source-files.js';

/** Every vocabulary string that looks like a tag or special token (`<…`, `[…]`, `<|…|>`). */
function tagSpellings(): ReadonlySet<string> {
  const out = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length >= 3 && /[<>[\]|｜]/.test(value)) out.add(value);
    } else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(vocabulary);
  collect(FIELD_GRAMMARS);
  return out;
}

/** The quoted (not template) string literals of a source, comments left out. */
function quotedLiterals(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g)].map((m) => m[1] ?? m[2] ?? '');
}

function offenders(source: string, spellings: ReadonlySet<string>): string[] {
  return quotedLiterals(source).filter((literal) => spellings.has(literal));
}

describe('tag literals live in src/dialects only', () => {
  const spellings = tagSpellings();

  it('the vocabulary spells the tags this test looks for', () => {
    expect(spellings.has('<tool_call>')).toBe(true);
    expect(spellings.has('<|tool_calls_section_begin|>')).toBe(true);
  });

  it('the check can fail: a quoted tag is found, a comment or a message template is not', () => {
    expect(offenders("const OPEN = '<tool_call>';", spellings)).toEqual(['<tool_call>']);
    expect(offenders("// see '<tool_call>'\nconst m = `use <tool_call>`;", spellings)).toEqual([]);
  });

  for (const file of sourceFiles('src').filter((f) => !f.startsWith('src/dialects/'))) {
    it(`${file} writes no tag of the vocabulary as a literal`, () => {
      expect(offenders(readFileSync(join(ROOT, file), 'utf8'), spellings)).toEqual([]);
    });
  }
});
