/**
 * tool-parse: raw LLM responses in, tool calls out.
 *
 *   text --scanUnits(spec)--> units --parseToolCalls--> {calls, prose, violations, dropped, ...}
 *
 * The scanner (src/scan, src/lex) delimits top-level units in one linear pass using vocabulary
 * passed in as data (src/dialects); the composer (src/compose) decides what each unit means.
 */
export * from './dialects/index.js';
export * from './lex/index.js';
export * from './scan/index.js';
export * from './compose/index.js';
export * from './compose/sniff/bare-calls.js';
export type * from './scan/types.js';
export type * from './compose/types.js';
