/**
 * The differences ledger, `conformance/DIFFERENCES.md`: one list item per reference case that
 * tool-parse does not reproduce on purpose.
 *
 *   - `heredoc_and_messages::heredoc_simple` (deliberate): why the port differs
 *     ^ the id in backticks is the vector id (or a composer example id such as `composer:A3`)
 *
 * The runner fails when an unlisted case fails and when a listed case passes, so the list only
 * shrinks. Any other text in the file (headings, paragraphs) is ignored.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const LEDGER_CATEGORIES = ['deliberate', 'quirk', 'inconsistency', 'out-of-scope'] as const;
export type LedgerCategory = (typeof LEDGER_CATEGORIES)[number];

export interface LedgerEntry {
  category: LedgerCategory;
  reason: string;
  /** The `## ` heading the entry sits under, e.g. "Composer: tagged lane". */
  section: string;
  /** 1-based line number in the ledger file. */
  line: number;
}

export const LEDGER_PATH = fileURLToPath(new URL('../DIFFERENCES.md', import.meta.url));

const ENTRY = /^- `([^`]+)` \(([a-z-]+)\):\s*(\S.*)$/;

/** Parses ledger text; throws a TypeError naming the line when an entry is malformed. */
export function parseLedger(text: string): Map<string, LedgerEntry> {
  if (typeof text !== 'string') throw new TypeError('ledger text must be a string');
  const entries = new Map<string, LedgerEntry>();
  let section = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.startsWith('## ')) {
      section = line.slice(3).trim();
      continue;
    }
    if (!line.startsWith('- `')) continue;
    const match = ENTRY.exec(line.trimEnd());
    if (!match) {
      throw new TypeError(`ledger line ${i + 1} is not "- \`<id>\` (category): reason": ${line}`);
    }
    const [, id = '', category = '', reason = ''] = match;
    if (!(LEDGER_CATEGORIES as readonly string[]).includes(category)) {
      throw new TypeError(`ledger line ${i + 1}: category "${category}" is not one of ${LEDGER_CATEGORIES.join(', ')}`);
    }
    const earlier = entries.get(id);
    if (earlier) throw new TypeError(`ledger line ${i + 1}: \`${id}\` is already listed on line ${earlier.line}`);
    entries.set(id, { category: category as LedgerCategory, reason, section, line: i + 1 });
  }
  return entries;
}

export function readLedger(path: string = LEDGER_PATH): Map<string, LedgerEntry> {
  return parseLedger(readFileSync(path, 'utf8'));
}

export interface ConformanceVerdict {
  ok: boolean;
  /** `pass`, `fail`, `ledgered` (listed and failing) or `stale` (listed but passing). */
  status: 'pass' | 'fail' | 'ledgered' | 'stale';
  message: string;
}

export function conformanceVerdict(
  id: string,
  passed: boolean,
  detail: string,
  ledger: ReadonlyMap<string, LedgerEntry>,
): ConformanceVerdict {
  const entry = ledger.get(id);
  if (entry === undefined) {
    return passed
      ? { ok: true, status: 'pass', message: `${id}: pass` }
      : { ok: false, status: 'fail', message: `${id} fails and is not in the ledger:\n${detail}` };
  }
  return passed
    ? {
        ok: false,
        status: 'stale',
        message: `${id} now passes: remove it from conformance/DIFFERENCES.md (line ${entry.line}, ${entry.category})`,
      }
    : { ok: true, status: 'ledgered', message: `${id}: ledgered (${entry.category}): ${entry.reason}` };
}

let cachedLedger: Map<string, LedgerEntry> | undefined;

/** Throws (fails the surrounding test) when an unlisted case fails or a listed case passes. */
export function expectConformance(id: string, passed: boolean, detail: string): ConformanceVerdict {
  cachedLedger ??= readLedger();
  const verdict = conformanceVerdict(id, passed, detail, cachedLedger);
  if (!verdict.ok) throw new Error(verdict.message);
  return verdict;
}
