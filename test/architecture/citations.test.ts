/**
 * Comments and docs cite only what the repository holds: no pointer to the reference specs or
 * the porting plan (they are not shipped), and every `docs/design.md, "Section"` citation names
 * a heading that exists in docs/design.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function files(dir: string, exts: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path, exts));
    else if (exts.some((ext) => entry.name.endsWith(ext))) out.push(path.split(sep).join('/'));
  }
  return out;
}

const SCANNED = [
  ...files('src', ['.ts']),
  ...files('conformance', ['.ts', '.md']),
  ...files('test', ['.ts']).filter((f) => !f.startsWith('test/architecture/')),
  ...files('bench', ['.ts']),
  ...files('docs', ['.md']),
  'README.md',
];

/** What an out-of-repository citation looks like. */
const OUTSIDE = [
  /\bspec\/[\w-]+\.md/,
  /PORT_PLAN/,
  /\b(composer|scanner) spec\b/i,
  /\/work\/|\.\.\/shared\//,
];

function offending(text: string): string[] {
  return text.split('\n').filter((line) => OUTSIDE.some((re) => re.test(line)));
}

describe('citations', () => {
  it('scans a real tree', () => {
    expect(SCANNED.length).toBeGreaterThan(200);
    expect(SCANNED).toContain('src/compose/walk.ts');
  });

  it('no source, conformance or doc file cites the reference specs, the porting plan or a path outside the repository', () => {
    const found = SCANNED.flatMap((file) => offending(readFileSync(join(ROOT, file), 'utf8')).map((line) => `${file}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('the patterns catch the citation forms that were removed', () => {
    for (const line of ['(spec/composer.md section 4.8)', 'PORT_PLAN, "Measurements"', '(composer spec section 3.1)', 'see ../shared/spec']) {
      expect(offending(line), line).toHaveLength(1);
    }
    expect(offending('(docs/design.md, "JSON lane")')).toEqual([]);
  });

  it('every docs/design.md citation names one of its headings', () => {
    const headings = new Set(
      readFileSync(join(ROOT, 'docs/design.md'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => l.replace(/^#+\s*/, '')),
    );
    const missing: string[] = [];
    let cited = 0;
    for (const file of SCANNED) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/\n\s*(\*|\/\/)\s*/g, ' ');
      for (const match of text.matchAll(/docs\/design\.md, ((?:"[^"]+"(?: and )?)+)/g)) {
        for (const name of (match[1] ?? '').matchAll(/"([^"]+)"/g)) {
          cited += 1;
          if (!headings.has(name[1] ?? '')) missing.push(`${relative(ROOT, join(ROOT, file))}: "${name[1]}"`);
        }
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
