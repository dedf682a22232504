/**
 * The type of each request body once its schema has passed it, derived from the schema itself
 * (json-schema-to-ts, types only), so a handler reads the fields the schema promises without a
 * cast and a schema change that a handler does not follow fails the typecheck.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { batchRequestSchema, scanRequestSchema, singleRequestSchema, streamOptionsSchema, transcriptRequestSchema } from '../schemas.js';

export type SingleBody = FromSchema<typeof singleRequestSchema>;
export type BatchBody = FromSchema<ReturnType<typeof batchRequestSchema>>;
export type BatchItemBody = BatchBody['responses'][number];
export type TranscriptBody = FromSchema<typeof transcriptRequestSchema>;
export type ScanBody = FromSchema<typeof scanRequestSchema>;
export type StreamOptionsBody = FromSchema<typeof streamOptionsSchema>;
/** The bodies that carry the reading options (profile, validate, shape, include, reasoning_started). */
export type ReadingBody = SingleBody | BatchBody | TranscriptBody | StreamOptionsBody;
