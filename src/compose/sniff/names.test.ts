import { describe, expect, it } from 'vitest';
import { normalizeTools } from '../../dialects/registry.js';
import { closestName, knownNamesOf, unknownToolFeedback } from './names.js';

const KNOWN = knownNamesOf(normalizeTools([{ name: 'look' }, { name: 'edit' }, { name: 'run' }, { name: 'search' }]));

describe('knownNamesOf', () => {
  it('is the registry names plus the implicit names, sorted, projected once per registry', () => {
    const registry = normalizeTools(['zeta', 'alpha']);
    expect(knownNamesOf(registry).sorted).toEqual(['alpha', 'ledger', 'load_skill', 'zeta']);
    expect(knownNamesOf(registry)).toBe(knownNamesOf(registry));
    expect(knownNamesOf(null).sorted).toEqual(['ledger', 'load_skill']);
  });
});

describe('closestName', () => {
  it('picks the smallest distance, then the closest length, then the smaller name', () => {
    expect(closestName('edt', ['edit', 'exit'])).toBe('edit');
    expect(closestName('lok', ['look', 'lot'])).toBe('lot');
    expect(closestName('lok', ['look', 'lo'])).toBe('lo');
    expect(closestName('runn', ['run', 'runs'])).toBe('runs');
  });

  it('suggests nothing beyond the allowance or for internal names', () => {
    expect(closestName('xyz', ['look'])).toBeNull();
    expect(closestName('__x', ['__y'])).toBeNull();
    expect(closestName('a'.repeat(5000), ['look'])).toBeNull();
  });
});

describe('unknownToolFeedback', () => {
  it('always names the tool and lists the sorted names', () => {
    const message = unknownToolFeedback('frobnicate', KNOWN);
    expect(message).toBe("Unknown tool 'frobnicate'. Available tools: [edit, ledger, load_skill, look, run, search].");
  });

  it('offers a suggestion, an alias hint, or the source-code explanation', () => {
    expect(unknownToolFeedback('serch', KNOWN)).toContain("Did you mean 'search'?");
    expect(unknownToolFeedback('read_file', KNOWN)).toContain('look({ intent: "read", ... })');
    expect(unknownToolFeedback('apply_patch', KNOWN)).toContain('edit({ ... })');
    expect(unknownToolFeedback('describe', KNOWN)).toContain('source code');
    expect(unknownToolFeedback('assertServiceCount', KNOWN)).toContain('source code');
  });

  it('does not hint at a tool the registry lacks', () => {
    const onlyRun = knownNamesOf(normalizeTools(['run']));
    expect(unknownToolFeedback('read_file', onlyRun)).toBe("Unknown tool 'read_file'. Available tools: [ledger, load_skill, run].");
  });

  it('caps a long list with a count of the rest', () => {
    const many = knownNamesOf(normalizeTools(Array.from({ length: 70 }, (_, i) => `tool_${String(i).padStart(2, '0')}`)));
    expect(unknownToolFeedback('zzz', many)).toMatch(/tool_57, …and 12 more\]\.$/);
  });
});
