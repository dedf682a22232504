/**
 * `tool-parse/internals`: every building block of the pipeline, for the conformance runner,
 * tests and tools that need more than the public entry points (scanner internals, the walk and
 * its consume funnel, the vocabulary constants, the lexer's lower primitives). Not part of the
 * documented surface in README "Exports": names here may change between minor versions.
 */
export * from './dialects/index.js';
export * from './lex/index.js';
export * from './scan/index.js';
export * from './compose/index.js';
export * from './compose/sniff/bare-calls.js';
export type * from './scan/types.js';
export type * from './compose/types.js';
