/**
 * The reference-shaped view of a project result that the checks read. Documented adaptations
 * (conformance/README.md, "Adaptations"):
 *
 * - Call ids: the older parser numbered ids `tc_0..` per parse; tool-parse's ids are `tc_`
 *   prefixed and consecutive but may advance across turns. The view rebases `tc_<n>` ids on the
 *   first call's number, so `tc_7, tc_8` reads as `tc_0, tc_1` (consecutiveness is still checked).
 * - Violations: the older parser returned them as strings; tool-parse returns `{kind, message,
 *   ...}` records. The evaluator's text ops read `message` (checks.ts, `textOf`).
 * - Bare-call sniffer errors: the reference's `parse_bare_calls_in_body` tests read both
 *   `errors` and `tool_parse_errors`; the view exposes whichever the project returns under both.
 */
const CALL_ID = /^tc_(\d+)$/;

function rebaseIds(calls: unknown[]): unknown[] {
  const numbers = calls.map((call) => {
    const id = (call as { id?: unknown } | null)?.id;
    const match = typeof id === 'string' ? CALL_ID.exec(id) : null;
    return match ? Number(match[1]) : undefined;
  });
  const base = numbers[0];
  if (base === undefined || numbers.some((n) => n === undefined)) return calls;
  return calls.map((call, i) => ({ ...(call as object), id: `tc_${(numbers[i] as number) - base}` }));
}

export function referenceView(entry: string, result: unknown): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const view: Record<string, unknown> = { ...(result as Record<string, unknown>) };
  if (Array.isArray(view.calls)) view.calls = rebaseIds(view.calls);
  if (entry === 'parse_bare_calls_in_body') {
    if (view.errors === undefined && view.tool_parse_errors !== undefined) view.errors = view.tool_parse_errors;
    if (view.tool_parse_errors === undefined && view.errors !== undefined) view.tool_parse_errors = view.errors;
  }
  return view;
}
