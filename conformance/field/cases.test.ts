/**
 * The checked-in case files are the contract; the build script must reproduce them exactly, and
 * each file must keep to the format conformance/field/README.md describes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderFieldCaseFiles } from '../tools/build-field-cases.js';
import { FAMILIES, SECTIONS } from './lib/case.js';
import { CASES_DIR, loadFieldCaseFiles } from './lib/load.js';

const EXPECT_KEYS = new Set(['calls', 'prose', 'prose_includes', 'prose_excludes', 'reasoning', 'error_prefixes', 'error_mentions', 'no_errors', 'violation_kinds', 'no_violations', 'dropped']);

describe('field case files', () => {
  it('regenerating them in memory gives the checked-in files byte for byte (npx tsx conformance/tools/build-field-cases.ts)', () => {
    const built = renderFieldCaseFiles();
    const onDisk = readdirSync(CASES_DIR).filter((name) => name.endsWith('.json')).sort();
    expect(onDisk).toEqual([...built.keys()].sort());
    for (const [name, text] of built) expect(readFileSync(join(CASES_DIR, name), 'utf8'), name).toBe(text);
  });

  it('every file keeps to the format, and every marker grammar has at least 8 cases', () => {
    for (const file of loadFieldCaseFiles()) {
      expect(FAMILIES, file.grammar).toContain(file.family);
      expect(SECTIONS, file.grammar).toContain(file.section);
      expect(file.cases.length, file.grammar).toBeGreaterThanOrEqual(8);
      for (const c of file.cases) {
        expect(c.id.startsWith(`${file.grammar}/`), c.id).toBe(true);
        expect(typeof c.text, c.id).toBe('string');
        expect(c.note.length, c.id).toBeGreaterThan(0);
        expect(Array.isArray(c.expect.calls), c.id).toBe(true);
        expect(Object.keys(c.expect).filter((key) => !EXPECT_KEYS.has(key)), c.id).toEqual([]);
        if (c.tools !== null) for (const tool of c.tools) expect(tool.type, c.id).toBe('function');
      }
    }
  });
});
