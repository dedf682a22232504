import { describe, expect, it } from 'vitest';
import { runCheck } from './checks.js';
import { INVARIANTS } from './invariants.js';

const source = 'Intro.\n<tool_call>look({})</tool_call>\n';
const tiled = {
  source,
  units: [
    { kind: 'text', start: 0, end: 6, text: 'Intro.' },
    { kind: 'block', start: 7, end: 38, body: 'look({})' },
  ],
};

describe('scan_tiling', () => {
  const tiling = INVARIANTS.scan_tiling!;
  it('holds for ordered, non-empty units with whitespace-only gaps', () => {
    expect(tiling(tiled)).toBeUndefined();
    expect(runCheck(tiled, { path: '', op: 'invariant', value: 'scan_tiling' }).ok).toBe(true);
  });
  it('names the first break: overlap, empty unit, uncovered text, overrun', () => {
    const [intro, block] = tiled.units;
    expect(tiling({ source, units: [intro, { ...block, start: 5 }] })).toContain('before the previous unit ends');
    expect(tiling({ source, units: [intro, { ...block, end: 7 }] })).toContain('empty');
    expect(tiling({ source, units: [block] })).toContain('"Intro.\\n"');
    expect(tiling({ source, units: [intro] })).toContain('trailing text');
    expect(tiling({ source, units: [intro, { ...block, end: 99 }] })).toContain('past the source');
    expect(tiling({ units: [] })).toContain('no units');
  });
});

describe('scan_slices', () => {
  const slices = INVARIANTS.scan_slices!;
  it('holds when each unit ships the text it covers and a body lies inside its block', () => {
    expect(slices(tiled)).toBeUndefined();
  });
  it('reports a unit whose text is not its span, and a body outside its span', () => {
    expect(slices({ source, units: [{ kind: 'text', start: 0, end: 6, text: 'Intro' }] })).toContain('ships "Intro"');
    expect(slices({ source, units: [{ kind: 'block', start: 7, end: 38, body: 'run({})' }] })).toContain('body');
    expect(slices({ source, units: [{ kind: 'tag', start: 0, end: 6, raw: 'Intro.' }] })).toBeUndefined();
  });
});

describe('where_count and invariant ops', () => {
  it('counts the list elements that carry every given field', () => {
    expect(runCheck(tiled, { path: 'units', op: 'where_count', value: { where: { kind: 'text' }, count: 1 } }).ok).toBe(true);
    expect(runCheck(tiled, { path: 'units', op: 'where_count', value: { where: { kind: 'text', text: 'x' }, count: 1 } }).ok).toBe(false);
    expect(runCheck(tiled, { path: 'units', op: 'where_count', value: { where: { reserved: true }, count: 0 } }).ok).toBe(true);
    expect(runCheck(tiled, { path: 'source', op: 'where_count', value: { where: {}, count: 0 } }).ok).toBe(false);
  });
  it('throws on a malformed value or an unknown invariant', () => {
    expect(() => runCheck(tiled, { path: 'units', op: 'where_count', value: { count: 1 } })).toThrow(TypeError);
    expect(() => runCheck(tiled, { path: '', op: 'invariant', value: 'toString' })).toThrow(/names no invariant/);
  });
});
