/**
 * The package root is readable in one screen: `src/index.ts` names every export (no `export *`),
 * and the names are exactly the ones README "Exports" lists, functions at run time and types
 * in the source.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The backquoted names on the README's `- <label>:` line under "### Exports". */
function documented(label: 'functions' | 'types'): string[] {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('\n### Exports\n'));
  const line = section.split('\n').find((l) => l.startsWith(`- ${label}: `));
  if (line === undefined) throw new Error(`README "### Exports" has no "- ${label}:" line`);
  return [...line.matchAll(/`([A-Za-z_]\w*)`/g)].map((m) => m[1] as string);
}

interface Declared {
  values: string[];
  types: string[];
  stars: number;
}

function declaredExports(): Declared {
  const source = ts.createSourceFile('src/index.ts', read('src/index.ts'), ts.ScriptTarget.Latest, true);
  const out: Declared = { values: [], types: [], stars: 0 };
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) {
      out.stars += 1;
      continue;
    }
    for (const element of clause.elements) (statement.isTypeOnly || element.isTypeOnly ? out.types : out.values).push(element.name.text);
  }
  return out;
}

const sorted = (names: readonly string[]): string[] => [...names].sort();

describe('public surface', () => {
  const declared = declaredExports();

  it('src/index.ts names every export', () => {
    expect(declared.stars).toBe(0);
  });

  it('the runtime exports are the README list of functions', () => {
    const functions = documented('functions');
    expect(functions.length).toBeGreaterThan(10);
    expect(sorted(Object.keys(root))).toEqual(sorted(functions));
    expect(sorted(declared.values)).toEqual(sorted(functions));
    for (const name of functions) expect(typeof (root as Record<string, unknown>)[name]).toBe('function');
  });

  it('the type exports are the README list of types', () => {
    expect(sorted(declared.types)).toEqual(sorted(documented('types')));
  });

  it('the internals subpath is declared in package.json and keeps the pipeline reachable', async () => {
    const pkg = JSON.parse(read('package.json')) as { exports: Record<string, { default: string }> };
    expect(pkg.exports['./internals']?.default).toBe('./dist/src/internals.js');
    const internals = (await import('../../src/internals.js')) as Record<string, unknown>;
    for (const name of ['walkScan', 'consume', 'compileScanSpec', 'DIALECTS', 'scanBareUnits', ...Object.keys(root)]) {
      expect(internals[name], name).toBeDefined();
    }
  });
});
