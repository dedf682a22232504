/**
 * Counts per case outcome for the runner's closing summary line, e.g.
 *
 *   reference conformance: compose 380/570 passed, 2 ledgered, 188 failed (12 missing) | scan 39/39 ... |
 *   compose+scan passing: 68.2% (419/614); informational skipped: 78
 */
import type { CaseKind } from './cases.js';

export type CaseStatus = 'pass' | 'fail' | 'ledgered' | 'stale' | 'missing' | 'informational';

interface KindCounts {
  total: number;
  pass: number;
  fail: number;
  ledgered: number;
  stale: number;
  missing: number;
}

export class Tally {
  private readonly byKind = new Map<CaseKind, KindCounts>();
  private informational = 0;
  private wordingDiffers = 0;

  record(kind: CaseKind, status: CaseStatus, wordingDiffers = 0): void {
    if (status === 'informational') {
      this.informational += 1;
      return;
    }
    let counts = this.byKind.get(kind);
    if (counts === undefined) {
      counts = { total: 0, pass: 0, fail: 0, ledgered: 0, stale: 0, missing: 0 };
      this.byKind.set(kind, counts);
    }
    counts.total += 1;
    counts[status] += 1;
    this.wordingDiffers += wordingDiffers;
  }

  /** Share of compose+scan cases whose counting checks all hold (a stale ledger entry passes). */
  passingShare(): { passed: number; total: number; percent: number } {
    let passed = 0;
    let total = 0;
    for (const kind of ['compose', 'scan'] as const) {
      const counts = this.byKind.get(kind);
      if (counts === undefined) continue;
      passed += counts.pass + counts.stale;
      total += counts.total;
    }
    return { passed, total, percent: total === 0 ? 0 : (100 * passed) / total };
  }

  /** `shareLabel` names the population of the passing share (the reference runner's default). */
  summary(title: string, shareLabel = 'compose+scan passing'): string {
    const kinds = [...this.byKind.entries()].map(
      ([kind, c]) =>
        `${kind} ${c.pass + c.stale}/${c.total} passed, ${c.ledgered} ledgered, ${c.fail + c.missing} failed` +
        ` (${c.missing} not implemented)${c.stale > 0 ? `, ${c.stale} stale ledger entries` : ''}`,
    );
    const share = this.passingShare();
    return (
      `${title}: ${kinds.join(' | ')} | ${shareLabel}: ${share.percent.toFixed(1)}% (${share.passed}/${share.total})` +
      `; informational skipped: ${this.informational}; message-wording differences (not counted): ${this.wordingDiffers}`
    );
  }
}
