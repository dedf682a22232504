import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze, interned } from './freeze.js';

describe('deepFreeze', () => {
  it('freezes every object and array of the tree and keeps every value as it was', () => {
    const tree = { id: `a${'b'.repeat(20)}`, list: ['<tool_call>', `${'x'.repeat(30)}${'y'}`, '｜'], nested: { open: ['0', '12', '__proto__', ''], count: 3, none: null } };
    const copy = structuredClone(tree);
    const frozen = deepFreeze(tree);
    expect(frozen).toBe(tree);
    expect(frozen).toEqual(copy);
    expect(Object.getPrototypeOf(frozen.nested)).toBe(Object.prototype);
    for (const part of [frozen, frozen.list, frozen.nested, frozen.nested.open]) expect(Object.isFrozen(part)).toBe(true);
  });
});

describe('interned', () => {
  it('returns the same text for any string, index-like keys and `__proto__` included', () => {
    for (const text of ['', '0', '12', '4294967295', '-1', '__proto__', 'constructor', '<｜DSML｜invoke', '\ud800']) expect(interned(text)).toBe(text);
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(interned(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
