/**
 * The check evaluator of the reference vectors (see conformance/README.md, "Checks").
 *
 *   runCheck(result, {path: "calls[0].arguments.path", op: "eq", value: "a.txt"})
 *     -> {ok: true, detail: "calls[0].arguments.path eq \"a.txt\""}
 *
 * Beyond the reference's ops: `where_count` ({where, count}: how many list elements carry the
 * given fields) and `invariant` (a named whole-result property, invariants.ts) express what the
 * reference asserts in code and its vectors state only in their notes.
 *
 * Text ops applied to a violation record (`protocol_violations[i]` is `{kind, message, ...}` in
 * tool-parse but a plain string in the reference) read the record's `message`.
 */
import { jsonEqual, preview } from './json-equal.js';
import { resolvePath } from './path.js';
import { INVARIANTS } from './invariants.js';
import { compileReferenceRegex } from './regex.js';

export interface Check {
  path: string;
  op: string;
  /** Absent for the value-free ops (`is_empty`, `not_empty`, `is_null`). */
  value?: unknown;
}

export interface CheckOutcome {
  ok: boolean;
  detail: string;
}

export const CHECK_OPS = [
  'eq',
  'contains',
  'not_contains',
  'some_contains',
  'none_contains',
  'is_empty',
  'not_empty',
  'is_null',
  'gte',
  'lte',
  'matches',
  'any_of',
  'where_count',
  'invariant',
] as const;

export type CheckOp = (typeof CHECK_OPS)[number];

/** The text a text op reads: a string itself, or a violation-like record's `message`. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const message = (value as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  return undefined;
}

function isEmpty(value: unknown): boolean | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length === 0;
  return undefined;
}

function expectString(check: Check): string {
  if (typeof check.value !== 'string') {
    throw new TypeError(`check.value must be a string for op ${check.op} (path ${JSON.stringify(check.path)})`);
  }
  return check.value;
}

/** A text op's value: one substring, or a list of substrings that must all occur together. */
function expectNeedles(check: Check): string[] {
  const value = check.value;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return value as string[];
  throw new TypeError(`check.value must be a string or a non-empty list of strings for op ${check.op} (path ${JSON.stringify(check.path)})`);
}

function containsAll(text: string, needles: readonly string[]): boolean {
  return needles.every((needle) => text.includes(needle));
}

function expectNumber(check: Check): number {
  if (typeof check.value !== 'number') {
    throw new TypeError(`check.value must be a number for op ${check.op} (path ${JSON.stringify(check.path)})`);
  }
  return check.value;
}

function expectCheckList(check: Check): Check[] {
  const list = check.value;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(`check.value must be a non-empty list of checks for any_of (path ${JSON.stringify(check.path)})`);
  }
  for (const item of list) {
    if (typeof item !== 'object' || item === null || typeof item.path !== 'string' || typeof item.op !== 'string') {
      throw new TypeError('check.value of any_of must hold {path, op, value?} records');
    }
  }
  return list as Check[];
}

interface WhereCount {
  where: Record<string, unknown>;
  count: number;
}

function expectWhereCount(check: Check): WhereCount {
  const value = check.value as Partial<WhereCount> | null;
  if (typeof value !== 'object' || value === null || typeof value.where !== 'object' || value.where === null || typeof value.count !== 'number') {
    throw new TypeError(`check.value must be {where: {...}, count: n} for where_count (path ${JSON.stringify(check.path)})`);
  }
  return value as WhereCount;
}

/** Evaluates one check against `result`; throws only on a malformed check (programmer error). */
export function runCheck(result: unknown, check: Check): CheckOutcome {
  if (typeof check !== 'object' || check === null) throw new TypeError('check must be an object');
  if (typeof check.op !== 'string') throw new TypeError('check.op must be a string');
  const at = resolvePath(result, check.path);
  const label = `${check.path === '' ? '(root)' : check.path} ${check.op}${'value' in check && check.op !== 'any_of' ? ` ${preview(check.value)}` : ''}`;
  const verdict = (ok: boolean, why = ''): CheckOutcome => ({ ok, detail: ok || why === '' ? label : `${label}: ${why}` });
  const missing = (): CheckOutcome => verdict(false, `path not found (resolved up to ${JSON.stringify(at.reached)})`);
  const got = `got ${preview(at.value)}`;

  switch (check.op as CheckOp) {
    case 'eq': {
      if (!at.found) return check.value === null ? verdict(true) : missing();
      const text = typeof check.value === 'string' ? textOf(at.value) : undefined;
      return verdict(jsonEqual(text ?? at.value, check.value), got);
    }
    case 'is_null':
      return verdict(!at.found || at.value === null, got);
    case 'is_empty':
    case 'not_empty': {
      if (!at.found) return missing();
      const empty = isEmpty(at.value);
      if (empty === undefined) return verdict(false, `not a list, string or object; ${got}`);
      return verdict(check.op === 'is_empty' ? empty : !empty, got);
    }
    case 'contains':
    case 'not_contains': {
      const needles = expectNeedles(check);
      if (!at.found) return missing();
      if (Array.isArray(at.value)) {
        // a list contains a value when one element is that value (Rust's `Vec::contains`)
        const list = at.value;
        const has = needles.every((needle) => list.some((item) => jsonEqual(item, needle) || textOf(item) === needle));
        return verdict(check.op === 'contains' ? has : !has, got);
      }
      const text = textOf(at.value);
      if (text === undefined) return verdict(false, `not text; ${got}`);
      const has = containsAll(text, needles);
      return verdict(check.op === 'contains' ? has : !has, got);
    }
    case 'some_contains':
    case 'none_contains': {
      const needles = expectNeedles(check);
      if (!at.found) return missing();
      if (!Array.isArray(at.value)) return verdict(false, `not a list; ${got}`);
      const has = at.value.some((item) => {
        const text = textOf(item);
        return text !== undefined && containsAll(text, needles);
      });
      return verdict(check.op === 'some_contains' ? has : !has, got);
    }
    case 'matches': {
      const pattern = compileReferenceRegex(expectString(check));
      if (!at.found) return missing();
      const text = textOf(at.value);
      if (text === undefined) return verdict(false, `not text; ${got}`);
      return verdict(pattern.test(text), got);
    }
    case 'gte':
    case 'lte': {
      const bound = expectNumber(check);
      if (!at.found) return missing();
      if (typeof at.value !== 'number') return verdict(false, `not a number; ${got}`);
      return verdict(check.op === 'gte' ? at.value >= bound : at.value <= bound, got);
    }
    case 'any_of': {
      const alternatives = expectCheckList(check);
      if (!at.found) return missing();
      const outcomes = alternatives.map((alternative) => runCheck(at.value, alternative));
      const ok = outcomes.some((outcome) => outcome.ok);
      return verdict(ok, `none held: ${outcomes.map((outcome) => outcome.detail).join(' | ')}`);
    }
    case 'where_count': {
      // how many list elements carry every field of `where`
      const { where, count } = expectWhereCount(check);
      if (!at.found) return missing();
      if (!Array.isArray(at.value)) return verdict(false, `not a list; ${got}`);
      const matching = at.value.filter((item) => {
        if (typeof item !== 'object' || item === null) return false;
        const record = item as Record<string, unknown>;
        return Object.entries(where).every(([key, want]) => Object.prototype.hasOwnProperty.call(record, key) && jsonEqual(record[key], want));
      }).length;
      return verdict(matching === count, `${matching} element(s) match`);
    }
    case 'invariant': {
      const name = expectString(check);
      const invariant = Object.prototype.hasOwnProperty.call(INVARIANTS, name) ? INVARIANTS[name] : undefined;
      if (invariant === undefined) throw new TypeError(`check.value ${JSON.stringify(name)} names no invariant (${Object.keys(INVARIANTS).join(', ')})`);
      if (!at.found) return missing();
      const broken = invariant(at.value);
      return verdict(broken === undefined, broken ?? '');
    }
    default:
      throw new TypeError(`check.op ${JSON.stringify(check.op)} is not one of ${CHECK_OPS.join(', ')}`);
  }
}
