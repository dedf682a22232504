/**
 * The import graph of src/: every static import and re-export, every dynamic `import()` and
 * every `import('x').T` type query, read with the TypeScript parser so multi-line and
 * type-only forms are seen exactly as the compiler sees them. The layer rules and the cycle
 * search work on plain edge lists so the checker can be tested on a made-up graph.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Importing file, repository-relative with `/` separators. */
  from: string;
  /** Imported file, resolved the same way (`.js` specifiers point at `.ts` sources). */
  to: string;
  /** False when the import is erased at compile time (`import type`, `export type`, type queries). */
  runtime: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const joined = posix.normalize(posix.join(posix.dirname(from), specifier));
  return joined.endsWith('.js') ? joined.slice(0, -3) + '.ts' : joined;
}

/** The relative-import edges of one file's text; package imports are not part of the graph. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: ts.Node | undefined, runtime: boolean): void => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const to = resolveRelative(file, specifier.text);
    if (to) edges.push({ from: file, to, runtime });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      // Under verbatimModuleSyntax only `import type` is erased; `import { type A }` stays.
      add(node.moduleSpecifier, !node.importClause?.isTypeOnly);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, !node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg)) add(arg.literal, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Every edge out of every `.ts` file under `dir` (tests included: they obey the same layers). */
export function importGraph(root: string, dir = 'src'): ImportEdge[] {
  return sourceFiles(join(root, dir)).flatMap((path) => {
    const file = relative(root, path).split(sep).join('/');
    return importsOf(file, readFileSync(path, 'utf8'));
  });
}

/**
 * The layers, bottom first. A file may import its own layer and any layer listed in its
 * `mayImport`; files directly under src/ (the entry points) may import anything.
 */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  dialects: [],
  lex: ['dialects'],
  scan: ['dialects', 'lex'],
  policy: ['dialects', 'lex', 'scan'],
  compose: ['dialects', 'lex', 'scan', 'policy'],
  server: ['dialects', 'lex', 'scan', 'policy', 'compose'],
};

/** `src/<layer>/...` -> layer; a file directly under src/ -> null (an entry point). */
export function layerOf(file: string): string | null {
  const parts = file.split('/');
  return parts.length > 2 ? (parts[1] ?? null) : null;
}

const TEST_FILE = /\.(test|spec)\.ts$/;

/** Edges that point up or across: the importer's layer does not allow the imported one. */
export function layerViolations(edges: readonly ImportEdge[], layers = LAYERS): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    if (!to.startsWith('src/')) {
      // Tests may use shared helpers under test/ and bench/; shipped code stays inside src/.
      if (!TEST_FILE.test(from)) out.push(`${from} -> ${to}: shipped code imports a file outside src/`);
      continue;
    }
    const a = layerOf(from);
    if (a === null) continue;
    const allowed = layers[a];
    const b = layerOf(to);
    if (allowed === undefined) {
      out.push(`${from}: layer "${a}" is not in the layer list`);
    } else if (b === null) {
      out.push(`${from} -> ${to}: a layer imports an entry point`);
    } else if (b !== a && !allowed.includes(b)) {
      out.push(`${from} -> ${to}: "${a}" may not import "${b}"`);
    }
  }
  return out;
}

/** Cycles among runtime edges (type-only edges are erased and cannot cycle at load time). */
export function runtimeCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!e.runtime) continue;
    const list = next.get(e.from);
    if (list) list.push(e.to);
    else next.set(e.from, [e.to]);
  }
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      const seen = state.get(to);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to]);
      else if (seen === undefined) visit(to);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
