// Public surface of src/compose (owners add their exports here).
export {};
export { parseToolCalls, missingRequiredArguments } from './parse.js';
export type { ParseOptions, TracedParseResult } from './parse.js';
export { taggedLane } from './tagged-lane.js';
export { walkScan } from './walk.js';
export type { WalkOutput } from './walk.js';
export { consume, newWalkState } from './funnel.js';
export type { WalkState, Outcome, TraceEntry, Account } from './funnel.js';
export { emptyResult, taggedResult } from './project.js';
export { renderCall as renderCanonicalCallBlock } from './canonical.js';
export { toolShapeFinding, toolShapeViolations } from './tool-shape.js';
export type { ToolShape, ToolShapeFinding } from './tool-shape.js';
export { VIOLATION_KINDS, isLostCallViolation, DROP_REASONS, STRUCTURAL_OUTCOMES, MACHINE_PREFIXES } from './diagnostics.js';
export type { StructuralOutcome } from './diagnostics.js';
