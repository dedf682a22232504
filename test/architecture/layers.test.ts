/**
 * The layers of src/ only point down: dialects (plain data) -> lex (primitives) -> scan ->
 * policy / compose -> server, with the entry points (files directly under src/) on top. Every
 * static, dynamic and type-only import is checked, and runtime imports may not form a cycle.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph, importsOf, layerViolations, runtimeCycles, type ImportEdge } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const graph = importGraph(ROOT);

describe('import boundaries of src/', () => {
  it('reads a real graph (every layer has files that import)', () => {
    const layers = new Set(graph.map((e) => e.from.split('/')[1]));
    for (const layer of ['dialects', 'lex', 'scan', 'policy', 'compose', 'server']) expect(layers).toContain(layer);
    expect(graph.length).toBeGreaterThan(300);
  });

  it('has no upward or cross-layer import', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('has no runtime import cycle', () => {
    expect(runtimeCycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });
});

describe('the checker itself', () => {
  const edge = (from: string, to: string, runtime = true): ImportEdge => ({ from, to, runtime });

  it('sees static, re-export, dynamic and type-only imports, multi-line or not', () => {
    const text = [
      "import { a,\n  b } from '../lex/codes.js';",
      "import type { T } from '../scan/types.js';",
      "export { c } from './c.js';",
      "export type * from '../compose/types.js';",
      "const m = await import('../server/app.js');",
      "type Q = import('../policy/names.js').NameSet;",
      "import fs from 'node:fs';",
    ].join('\n');
    expect(importsOf('src/dialects/x.ts', text)).toEqual([
      edge('src/dialects/x.ts', 'src/lex/codes.ts'),
      edge('src/dialects/x.ts', 'src/scan/types.ts', false),
      edge('src/dialects/x.ts', 'src/dialects/c.ts'),
      edge('src/dialects/x.ts', 'src/compose/types.ts', false),
      edge('src/dialects/x.ts', 'src/server/app.ts'),
      edge('src/dialects/x.ts', 'src/policy/names.ts', false),
    ]);
  });

  it('rejects an upward import, type-only or not, and a cross import between policy and compose', () => {
    const bad = [
      edge('src/dialects/scan-spec.ts', 'src/scan/types.ts', false),
      edge('src/lex/x.ts', 'src/compose/types.ts'),
      edge('src/policy/names.ts', 'src/compose/walk.ts'),
      edge('src/compose/walk.ts', 'src/server/app.ts'),
      edge('src/scan/x.ts', 'src/index.ts'),
      edge('src/lex/x.ts', 'test/support/string-work.ts'),
    ];
    expect(layerViolations(bad)).toHaveLength(bad.length);
  });

  it('accepts imports that point down, tests reaching test helpers, and entry points importing anything', () => {
    const good = [
      edge('src/compose/walk.ts', 'src/policy/names.ts'),
      edge('src/server/worker/member-span.ts', 'src/lex/codes.ts'),
      edge('src/scan/scanner.ts', 'src/lex/spans.ts'),
      edge('src/lex/x.test.ts', 'test/support/string-work.ts'),
      edge('src/index.ts', 'src/compose/index.ts'),
    ];
    expect(layerViolations(good)).toEqual([]);
  });

  it('rejects a file in a directory that is not a layer', () => {
    expect(layerViolations([edge('src/util/x.ts', 'src/lex/codes.ts')])).toHaveLength(1);
  });

  it('finds runtime cycles and ignores ones closed only by type imports', () => {
    const cyclic = [edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')];
    expect(runtimeCycles(cyclic)).toEqual([['a', 'b', 'c', 'a']]);
    expect(runtimeCycles([edge('a', 'b'), edge('b', 'a', false)])).toEqual([]);
    expect(runtimeCycles([edge('a', 'a')])).toEqual([['a', 'a']]);
  });
});
