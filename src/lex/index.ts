// Public surface of src/lex (owners add their exports here).
export * from './heredoc.js';
export * from './string-span.js';
export * from './ident.js';
export * from './json-balance.js';
export * from './json-stream.js';
export * from './json-read.js';
export * from './entities.js';
export * from './render.js';
export * from './call-expr.js';
export * from './text-index.js';
export * from './spans.js';
export * from './call-head.js';
export * from './thinking.js';
export * from './position.js';
export * from './ts-value.js';
export * from './json-object.js';
