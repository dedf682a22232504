/**
 * The vocabulary is authoritative only if every table of it is read: a table no code names is
 * dead data that a reader believes is in force, and a field-grammar record whose markers no
 * case writes is a grammar nobody has seen read. This test fails on either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as callObjects from '../../src/dialects/field/call-objects.js';
import * as harmony from '../../src/dialects/field/harmony.js';
import { FIELD_GRAMMARS } from '../../src/dialects/field/index.js';
import * as lookAlikes from '../../src/dialects/field/look-alikes.js';
import * as paramMarkup from '../../src/dialects/field/param-markup.js';
import * as reasoning from '../../src/dialects/field/reasoning.js';
import * as tokenSections from '../../src/dialects/field/token-sections.js';
import * as valueGrammars from '../../src/dialects/field/value-grammars.js';
import * as vocabulary from '../../src/dialects/vocabulary.js';
import { DIALECTS } from '../../src/dialects/vocabulary.js';
import { ROOT, sourceFiles } from './source-files.js';

/** The library's code beside the vocabulary (the scan-spec builder in src/dialects reads it too), as text. */
const READERS = sourceFiles('src')
  .filter((f) => f !== 'src/dialects/vocabulary.ts')
  .map((f) => readFileSync(join(ROOT, f), 'utf8'))
  .join('\n');

function isNamed(name: string): boolean {
  return new RegExp(`\\b${name}\\b`).test(READERS);
}

function caseTexts(): string[] {
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  const fieldDir = join(ROOT, 'conformance/field/cases');
  for (const file of readdirSync(fieldDir)) {
    const parsed = JSON.parse(readFileSync(join(fieldDir, file), 'utf8')) as { cases: { text: string }[] };
    for (const c of parsed.cases) texts.push(c.text);
  }
  collect(JSON.parse(readFileSync(join(ROOT, 'conformance/reasoning/cases.json'), 'utf8')));
  return texts;
}

describe('every vocabulary table is read', () => {
  it.each(Object.keys(DIALECTS))('DIALECTS.%s is named by code outside vocabulary.ts', (key) => {
    expect(isNamed(key)).toBe(true);
  });

  const tables = Object.keys(vocabulary).filter((name) => name !== 'DIALECTS');
  it.each(tables)('%s (src/dialects/vocabulary.ts) is named by code outside vocabulary.ts', (name) => {
    expect(isNamed(name)).toBe(true);
  });

  it('the check can fail: a name no reader uses is not found', () => {
    expect(isNamed('NO_SUCH_VOCABULARY_TABLE')).toBe(false);
  });
});

describe('every field-grammar record is live', () => {
  const modules = [callObjects, harmony, lookAlikes, paramMarkup, reasoning, tokenSections, valueGrammars];
  const records = modules.flatMap((module) => Object.entries(module)).filter(
    (entry): entry is [string, (typeof FIELD_GRAMMARS)[number]] => {
      const value: unknown = entry[1];
      return value !== null && typeof value === 'object' && !Array.isArray(value) && 'id' in value && 'family' in value;
    },
  );

  it('every exported record is in FIELD_GRAMMARS, which the field lane reads', () => {
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter(([, record]) => !FIELD_GRAMMARS.includes(record)).map(([name]) => name)).toEqual([]);
  });

  const texts = caseTexts();
  it.each(FIELD_GRAMMARS.map((grammar) => [grammar.id, grammar] as const))('%s: every opener and marker is written by some conformance case', (_id, grammar) => {
    const spellings = [...new Set([...grammar.openers, ...grammar.markers])];
    expect(spellings.length).toBeGreaterThan(0);
    expect(spellings.filter((spelling) => !texts.some((text) => text.includes(spelling)))).toEqual([]);
  });
});
