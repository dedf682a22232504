export type CallExprResult =
  | { ok: true; arguments: Record<string, unknown>; consumed: number }
  | { ok: false; error: string };
export type ObjectLiteralResult =
  | { ok: true; value: Record<string, unknown>; consumed: number }
  | { ok: false; error: string };

/** Parse `name(<object literal>)` at the start of `text`. */
export function parseCallExpr(text: string, name: string): CallExprResult {
  void text;
  return { ok: false, error: `TOOL CALL PARSE ERROR: \`${name}(...)\` (not implemented yet)` };
}

/** Parse `{ ... }` at the start of `text` (the `name{...}` call form). */
export function parseObjectLiteral(text: string, name: string): ObjectLiteralResult {
  void text;
  return { ok: false, error: `TOOL CALL PARSE ERROR: \`${name}{...}\` (not implemented yet)` };
}
