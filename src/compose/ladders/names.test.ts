import { describe, expect, it } from 'vitest';
import { foldNameAlias, normalizeCall, stripChannelMarkers, unwrapGenericWrapper } from './names.js';

const known = (...names: string[]): ReadonlySet<string> => new Set(names);

describe('stripChannelMarkers', () => {
  it('cuts the name at the first leaked channel marker', () => {
    expect(stripChannelMarkers('run<|channel|>commentary')).toBe('run');
    expect(stripChannelMarkers(' look<|message|>x<|end|> ')).toBe('look');
    expect(stripChannelMarkers('edit')).toBe('edit');
  });
});

describe('unwrapGenericWrapper', () => {
  it('unwraps one level when the arguments name the real tool', () => {
    expect(unwrapGenericWrapper('tool', { name: 'look', args: { intent: 'read', file: 'a' } }))
      .toEqual({ name: 'look', arguments: { intent: 'read', file: 'a' } });
    expect(unwrapGenericWrapper('function.call', { tool_name: 'run', command: 'ls' }))
      .toEqual({ name: 'run', arguments: { command: 'ls' } });
  });

  it('leaves non-wrappers and nameless wrappers alone', () => {
    expect(unwrapGenericWrapper('look', { name: 'run' })).toBeNull();
    expect(unwrapGenericWrapper('tool', { args: {} })).toBeNull();
    expect(unwrapGenericWrapper('tool', 'run')).toBeNull();
  });
});

describe('normalizeCall', () => {
  it('strips channel markers, then unwraps a generic wrapper, and reports both rewrites', () => {
    const r = normalizeCall('tool<|channel|>x', { name: 'look', args: { file: 'a' } }, { known: known('look') });
    expect(r).toEqual({ name: 'look', arguments: { file: 'a' }, rewrites: ['channel-marker', 'generic-wrapper'] });
  });

  it('never renames a tool unless alias folding is asked for', () => {
    expect(normalizeCall('bash', { script: 'ls' }, { known: known('run') }))
      .toEqual({ name: 'bash', arguments: { script: 'ls' }, rewrites: [] });
    expect(normalizeCall('bash', { script: 'ls' }, { known: known('run') }, { foldAliases: true }))
      .toEqual({ name: 'run', arguments: { command: 'ls' }, rewrites: ['shell-alias'] });
  });
});

describe('foldNameAlias', () => {
  const registry = known('edit', 'look', 'run', 'search');

  it('never touches a registered name', () => {
    expect(foldNameAlias('bash', { script: 'x' }, known('bash', 'run'))).toMatchObject({ name: 'bash', rewrite: null });
  });

  it('strips namespace prefixes onto registered names', () => {
    expect(foldNameAlias('functions.look', { file: 'a' }, registry)).toEqual({ name: 'look', arguments: { file: 'a' }, rewrite: 'namespace-prefix' });
    expect(foldNameAlias('tools.frob', {}, registry)).toMatchObject({ name: 'tools.frob', rewrite: null });
  });

  it('maps browser verbs onto look and search', () => {
    expect(foldNameAlias('repo_browser.open_file', { path: 'a' }, registry)).toMatchObject({ name: 'look', rewrite: 'browser-alias' });
    expect(foldNameAlias('file_browser.grep', { query: 'x' }, registry)).toMatchObject({ name: 'search', rewrite: 'browser-alias' });
    expect(foldNameAlias('repo_browser.open_file', {}, known('run'))).toMatchObject({ rewrite: null });
  });

  it('folds shell aliases onto run, moving the script into `command`', () => {
    expect(foldNameAlias('bash', { script: 'zig build test' }, registry)).toEqual({ name: 'run', arguments: { command: 'zig build test' }, rewrite: 'shell-alias' });
    expect(foldNameAlias('container.exec', { cmd: ['bash', '-lc', 'cargo test'], timeout: 5 }, registry))
      .toEqual({ name: 'run', arguments: { timeout: 5, command: 'cargo test' }, rewrite: 'shell-alias' });
    expect(foldNameAlias('sh', { cmd: ['ls', '-la'] }, registry)).toMatchObject({ arguments: { command: 'ls -la' } });
    expect(foldNameAlias('bash', { script: 'x' }, known('edit'))).toMatchObject({ name: 'bash', rewrite: null });
  });

  it('folds edit action verbs onto edit with the action injected', () => {
    expect(foldNameAlias('replace_range', { path: 'a', range_start: 1 }, registry))
      .toEqual({ name: 'edit', arguments: { action: 'replace_range', path: 'a', range_start: 1 }, rewrite: 'edit-action-verb' });
    expect(foldNameAlias('delete_range', { action: 'delete_range', path: 'a' }, registry))
      .toMatchObject({ arguments: { action: 'delete_range', path: 'a' } });
  });

  it('infers the tool of a generic or marker-only name from its arguments', () => {
    expect(foldNameAlias('<|constrain|>json', { command: 'cargo test' }, registry)).toMatchObject({ name: 'run', rewrite: 'command-inference' });
    expect(foldNameAlias('<|constrain|>json', { intent: 'read', path: 'a' }, registry)).toMatchObject({ name: 'look', rewrite: 'intent-inference' });
    expect(foldNameAlias('tool_call', { intent: 'search', query: 'fn' }, registry)).toMatchObject({ name: 'search', rewrite: 'intent-inference' });
    expect(foldNameAlias('tool', { intent: 'constructor' }, registry)).toMatchObject({ rewrite: null });
  });

  it('does not fold intent words used as tool names (the sniffer teaches `look` instead)', () => {
    expect(foldNameAlias('read', { path: 'a' }, registry)).toMatchObject({ name: 'read', rewrite: null });
  });
});
