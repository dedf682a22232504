import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../dialects/vocabulary.js';
import { normalizeTools, registryNames } from '../dialects/registry.js';
import { foldAlias, mayFold, stripChannelSuffix } from './names.js';

/** The dispatchable names of a registry, as every caller of the policy builds them. */
const knownOf = (tools: unknown): ReadonlySet<string> => new Set(registryNames(normalizeTools(tools)));

const KNOWN = knownOf([{ name: 'look' }, { name: 'edit' }, { name: 'run' }, { name: 'search' }]);

describe('foldAlias', () => {
  it('folds shell aliases onto run with a command string', () => {
    expect(foldAlias('bash', { script: 'make' }, KNOWN)).toEqual({ name: 'run', arguments: { command: 'make' }, rewrite: 'shell-alias' });
    expect(foldAlias('exec', { command: ['git', 'log', '--format=%H x'] }, KNOWN)).toEqual({
      name: 'run',
      arguments: { command: "git log '--format=%H x'" },
      rewrite: 'shell-alias',
    });
    expect(foldAlias('container.exec', { cmd: ['bash', '-lc', 'cargo test'], timeout: 5 }, KNOWN)?.arguments).toEqual({ timeout: 5, command: 'cargo test' });
  });

  it('folds every edit action verb of the vocabulary onto edit, keeping an explicit action', () => {
    for (const verb of DIALECTS.EDIT_ACTION_VERBS) {
      expect(foldAlias(verb, { path: 'a' }, KNOWN)).toEqual({ name: 'edit', arguments: { path: 'a', action: verb }, rewrite: 'edit-action-verb' });
    }
    expect(foldAlias('create', { path: 'a', content: 'x' }, KNOWN)?.arguments).toEqual({ path: 'a', content: 'x', action: 'create' });
    expect(foldAlias('add_import', { action: 'x' }, KNOWN)?.arguments).toEqual({ action: 'x' });
  });

  it('unwraps generic wrappers and namespaces, or infers from the arguments', () => {
    expect(foldAlias('tool.call', { name: 'functions.look', args: '{"path":"a"}' }, KNOWN)).toEqual({ name: 'look', arguments: { path: 'a' }, rewrite: 'namespace-prefix' });
    expect(foldAlias('tool', { tool: 'look', arguments: { path: 'a' } }, KNOWN)).toMatchObject({ name: 'look', rewrite: 'generic-wrapper' });
    expect(foldAlias('<|constrain|>json', { intent: ' Grep ' }, KNOWN)).toEqual({ name: 'search', arguments: { intent: ' Grep ' }, rewrite: 'intent-inference' });
    expect(foldAlias('tool_call', { command: 'ls' }, KNOWN)).toMatchObject({ name: 'run', rewrite: 'command-inference' });
    expect(foldAlias('repo_browser.open_file', { path: 'a' }, KNOWN)).toEqual({ name: 'look', arguments: { path: 'a' }, rewrite: 'browser-alias' });
    expect(foldAlias('file_browser.grep', { query: 'x' }, KNOWN)).toMatchObject({ name: 'search', rewrite: 'browser-alias' });
    expect(foldAlias('run<|channel|>commentary', { command: 'ls' }, KNOWN)).toEqual({ name: 'run', arguments: { command: 'ls' }, rewrite: 'channel-marker' });
  });

  it('folds only onto registered names, and leaves intent words and unknown wrappers alone', () => {
    const noRun = knownOf(['edit']);
    expect(foldAlias('bash', { script: 'ls' }, noRun)).toBeNull();
    expect(mayFold('bash', noRun)).toBe(false);
    expect(mayFold('replace_range', noRun)).toBe(true);
    expect(mayFold('create', noRun)).toBe(true);
    expect(foldAlias('frobnicate', {}, KNOWN)).toBeNull();
    expect(foldAlias('read', { path: 'a' }, KNOWN)).toBeNull();
    expect(foldAlias('tool', { intent: 'constructor' }, KNOWN)).toBeNull();
    expect(foldAlias('tools.frob', {}, KNOWN)).toBeNull();
  });

  it('reads wrapper fields as own keys only', () => {
    const args = JSON.parse('{"__proto__": {"name": "look"}, "intent": "read"}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(foldAlias('tool', args, KNOWN)).toMatchObject({ name: 'look', rewrite: 'intent-inference' });
  });
});

describe('stripChannelSuffix', () => {
  it('cuts at the first marker that leaves a name before it', () => {
    expect(stripChannelSuffix(' look<|message|>x<|end|> ')).toBe('look');
    expect(stripChannelSuffix('<|channel|>run')).toBe('<|channel|>run');
    expect(stripChannelSuffix('edit')).toBe('edit');
  });
});
