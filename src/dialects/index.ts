export * from './vocabulary.js';
export * from './registry.js';
export { buildScanSpec } from './scan-spec.js';
