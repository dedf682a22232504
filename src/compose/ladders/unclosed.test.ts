import { describe, expect, it } from 'vitest';
import { TRUNCATED_PREFIX } from './messages.js';
import { sample } from './registries.spec.js';
import { unclosedBlockOutcome } from './unclosed.js';

describe('unclosedBlockOutcome', () => {
  it('rewrites an unreadable body to TRUNCATED naming the head (Ex19, Ex22)', () => {
    const body = '\nedit({ action: "create", path: "src/error.rs", content: "use std::io;\\npub enum StorageError {\\n    IoError(';
    const r = unclosedBlockOutcome(body, sample(), { name: 'edit', sep: '(' });
    expect(r).toMatchObject({ ok: false, rung: 'truncated' });
    expect(!r.ok && r.error.startsWith(TRUNCATED_PREFIX)).toBe(true);
    expect(!r.ok && r.error).toContain('`edit(...)`');
    expect(!r.ok && r.error).toContain('<tool_call>edit({ ... })</tool_call>');
  });

  it('names an unregistered head too', () => {
    const r = unclosedBlockOutcome('frob({ a: ', sample(), { name: 'frob', sep: '(' });
    expect(!r.ok && r.error).toContain('`frob(...)`');
  });

  it('rewrites a lone opener without a head (Ex47)', () => {
    const r = unclosedBlockOutcome('', sample());
    expect(r).toMatchObject({ ok: false, rung: 'truncated' });
    expect(!r.ok && r.error.startsWith(TRUNCATED_PREFIX)).toBe(true);
    expect(!r.ok && r.error).not.toContain('(...)');
  });

  it('recovers a complete call and hands back the recovered_dialect violation (Ex20, Ex21)', () => {
    const body = '\nedit({ "action": "create", "path": "src/main.swift", "content": <<EOF\nimport Foundation\nEOF\n})';
    const r = unclosedBlockOutcome(body, sample(), { name: 'edit', sep: '(' });
    expect(r).toMatchObject({
      ok: true,
      call: { name: 'edit', arguments: { action: 'create', content: 'import Foundation', path: 'src/main.swift' } },
      recoveredViolation: { kind: 'recovered_dialect', excerpt: null, dropped_reason: null },
    });
    expect(r.recoveredViolation?.message).toContain('</tool_call>');
  });

  it('keeps narration-only bodies without a violation', () => {
    const r = unclosedBlockOutcome('Reading the file.', sample());
    expect(r).toEqual({ ok: true, prose: ['Reading the file.'], rung: 'narration' });
  });

  it("keeps a recognised dialect's own diagnosis (Ex33)", () => {
    const body = '\n<function=edit>\n<parameter=action>\ncreate\n</parameter>\n<parameter=content>\npackage handlers\n';
    const r = unclosedBlockOutcome(body, sample());
    expect(r).toMatchObject({ ok: false, matched: true, rung: 'function-markup' });
    expect(!r.ok && r.error).toMatch(/^TOOL CALL TRUNCATED: a `<parameter \.\.\.>` block/);
  });

  it('keeps a message that already says TOOL CALL TRUNCATED', () => {
    const r = unclosedBlockOutcome('<function=run', sample());
    expect(r).toMatchObject({ ok: false, rung: 'function-markup' });
    expect(!r.ok && r.error).toMatch(/^TOOL CALL TRUNCATED: a `<function=` open tag/);
  });
});
