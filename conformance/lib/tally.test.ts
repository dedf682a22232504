import { describe, expect, it } from 'vitest';
import { Tally } from './tally.js';

describe('Tally', () => {
  it('counts per kind and computes the compose+scan passing share', () => {
    const tally = new Tally();
    tally.record('compose', 'pass');
    tally.record('compose', 'pass', 2);
    tally.record('compose', 'fail');
    tally.record('compose', 'ledgered');
    tally.record('scan', 'pass');
    tally.record('scan', 'missing');
    tally.record('native', 'informational');
    expect(tally.passingShare()).toEqual({ passed: 3, total: 6, percent: 50 });
    const line = tally.summary('t');
    expect(line).toContain('compose 2/4 passed, 1 ledgered, 1 failed (0 not implemented)');
    expect(line).toContain('scan 1/2 passed, 0 ledgered, 1 failed (1 not implemented)');
    expect(line).toContain('50.0% (3/6)');
    expect(line).toContain('informational skipped: 1');
    expect(line).toContain('not counted): 2');
  });
  it('names the share as asked', () => {
    const tally = new Tally();
    tally.record('compose', 'pass');
    expect(tally.summary('examples', 'examples passing')).toContain('examples passing: 100.0% (1/1)');
  });
  it('reports an empty share as zero', () => {
    expect(new Tally().passingShare().percent).toBe(0);
  });
});
