import { describe, expect, it } from 'vitest';
import { conformanceVerdict, parseLedger, readLedger } from './ledger.js';

const sample = [
  '# Differences',
  '',
  'Prose mentioning - `not_an_entry` inline is ignored.',
  '## Composer: tagged lane',
  '- `validation_and_tagged::a_case` (deliberate): the port keeps the call',
  '- `composer:A3` (inconsistency): spec and tests disagree',
  '## Conformance data',
  '- `scan_tests::x-2` (out-of-scope): native channel',
].join('\n');

describe('parseLedger', () => {
  it('reads id, category, reason, section and line', () => {
    const ledger = parseLedger(sample);
    expect([...ledger.keys()]).toEqual(['validation_and_tagged::a_case', 'composer:A3', 'scan_tests::x-2']);
    expect(ledger.get('composer:A3')).toEqual({
      category: 'inconsistency',
      reason: 'spec and tests disagree',
      section: 'Composer: tagged lane',
      line: 6,
    });
    expect(ledger.get('scan_tests::x-2')?.section).toBe('Conformance data');
  });
  it('rejects a malformed entry, an unknown category and a duplicate id, naming the line', () => {
    expect(() => parseLedger('- `x` deliberate: no parens')).toThrow(/line 1/);
    expect(() => parseLedger('- `x` (wontfix): reason')).toThrow(/category "wontfix"/);
    expect(() => parseLedger('- `x` (quirk): a\n- `x` (quirk): b')).toThrow(/already listed on line 1/);
  });
  it('parses the project ledger', () => {
    const ledger = readLedger();
    for (const entry of ledger.values()) expect(entry.reason.length).toBeGreaterThan(0);
  });
});

describe('conformanceVerdict', () => {
  const ledger = parseLedger(sample);
  it('passes a passing unlisted case and a failing listed case', () => {
    expect(conformanceVerdict('other', true, '', ledger)).toMatchObject({ ok: true, status: 'pass' });
    expect(conformanceVerdict('composer:A3', false, 'x', ledger)).toMatchObject({ ok: true, status: 'ledgered' });
  });
  it('fails a failing unlisted case and a passing listed case', () => {
    const fail = conformanceVerdict('other', false, 'calls.length eq 1: got 0', ledger);
    expect(fail).toMatchObject({ ok: false, status: 'fail' });
    expect(fail.message).toContain('got 0');
    const stale = conformanceVerdict('composer:A3', true, '', ledger);
    expect(stale).toMatchObject({ ok: false, status: 'stale' });
    expect(stale.message).toContain('line 6');
  });
});
