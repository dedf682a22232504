/**
 * Evaluates a reference case's checks against the project's result.
 *
 * Structural checks decide pass or fail. A message check counts through its `counts_as` (the
 * machine prefix or violation kind it pins); without one it is only reported, since
 * tool-parse words its own messages. Checks on helpers tool-parse does not port are reported.
 */
import { runCheck } from './checks.js';
import type { StoredCheck } from './classify.js';

export interface CaseEvaluation {
  /** Every counting check held. */
  passed: boolean;
  /** One line per failed counting check. */
  failures: string[];
  /** Message-wording checks that did not hold (reported, not counted). */
  wordingDiffers: string[];
  /** Checks on reference helpers tool-parse does not port that did not hold (reported, not counted). */
  uncovered: string[];
  counted: number;
}

export function evaluateChecks(view: unknown, checks: readonly StoredCheck[]): CaseEvaluation {
  const failures: string[] = [];
  const wordingDiffers: string[] = [];
  const uncovered: string[] = [];
  let counted = 0;
  for (const check of checks) {
    if (check.class === 'informational') {
      const outcome = runCheck(view, check);
      if (!outcome.ok) uncovered.push(outcome.detail);
      continue;
    }
    if (check.class === 'message') {
      const wording = runCheck(view, check);
      if (!wording.ok) wordingDiffers.push(wording.detail);
    }
    const counting = check.class === 'structural' ? [check] : (check.counts_as ?? []);
    for (const part of counting) {
      counted += 1;
      const outcome = runCheck(view, part);
      if (!outcome.ok) failures.push(outcome.detail);
    }
  }
  return { passed: failures.length === 0, failures, wordingDiffers, uncovered, counted };
}
