/**
 * tool-parse: raw LLM responses in, tool calls out.
 *
 *   text --scanUnits(spec)--> units --parseToolCalls--> {calls, prose, violations, dropped, ...}
 *
 * The scanner (src/scan, src/lex) delimits top-level units in one linear pass using vocabulary
 * passed in as data (src/dialects); the composer (src/compose) decides what each unit means.
 * This entry exports exactly the names README "Exports" lists (test/architecture/public-surface
 * checks both); the rest of the pipeline is reachable through `tool-parse/internals`.
 */
export { parseToolCalls } from './compose/parse.js';
export type { ParseOptions, TracedParseResult, ValidateMode } from './compose/parse.js';
export type { Profile } from './compose/context.js';
export type { AnthropicBlock, AnthropicShaped, Diagnostics, OpenAIShaped, OpenAIToolCall, ResultField, Shape, ShapedResult } from './compose/shape.js';
export type { TraceEntry } from './compose/funnel.js';
export type { DropReason, DroppedFragment, ParseResult, ProtocolViolation, ToolCall, ToolFormat, ViolationKind } from './compose/types.js';
export { isLostCallViolation } from './compose/diagnostics.js';
export { createStreamParser } from './compose/stream/parser.js';
export type { StreamEnd, StreamParser } from './compose/stream/parser.js';
export type { StreamEvent } from './compose/stream/events.js';

export { normalizeTools } from './dialects/registry.js';
export type { ToolDef, ToolRegistry, ToolsInput } from './dialects/registry.js';
export { buildScanSpec } from './dialects/scan-spec.js';
export type { ScanSpec } from './dialects/scan-spec.js';

export { scanUnits } from './scan/scanner.js';
export { validateScanSpec } from './scan/validate.js';
export type { ValidatedScanSpec } from './scan/validate.js';
export type { ScanResult, Unit } from './scan/types.js';

export { scanBareCalls } from './compose/sniff/bare-calls.js';
export type { BareScan } from './compose/sniff/bare-calls.js';

export { parseCallExpr, parseObjectLiteral } from './lex/call-expr.js';
export type { CallExprResult, ObjectLiteralResult } from './lex/call-expr.js';
export { readJsonStream } from './lex/json-stream.js';
export type { JsonStreamResult } from './lex/json-stream.js';
export { balancedJsonObjectLen } from './lex/json-balance.js';
export { decodeEntities } from './lex/entities.js';
export { renderCanonicalCall, renderParts } from './lex/render.js';
export type { CanonicalPart } from './lex/render.js';
export { stripThinkingTags } from './lex/thinking.js';
export { callHead } from './lex/call-head.js';
export type { CallHead } from './lex/call-head.js';
export { scanHeredoc } from './lex/heredoc.js';
export type { HeredocScan } from './lex/heredoc.js';
