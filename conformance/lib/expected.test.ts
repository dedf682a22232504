import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pinForm, readPins, writePins } from './expected.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('pins', () => {
  it('pins the JSON wire form with call ids rebased', () => {
    const pinned = pinForm({ calls: [{ id: 'tc_4', name: 'a', arguments: {}, extra: undefined }], prose: 'p' });
    expect(pinned).toEqual({ calls: [{ id: 'tc_0', name: 'a', arguments: {} }], prose: 'p' });
    expect(pinForm(undefined)).toBeNull();
  });
  it('round-trips a group file with ids in sorted order, and reads a missing group as empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pins-'));
    dirs.push(dir);
    expect(readPins('scan', dir)).toEqual({});
    writePins('scan', { 'b::two': { units: [] }, 'a::one': { units: [1] } }, dir);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'scan.json'), 'utf8')) as object)).toEqual(['a::one', 'b::two']);
    expect(readPins('scan', dir)).toEqual({ 'a::one': { units: [1] }, 'b::two': { units: [] } });
  });
});
