/**
 * Request validation inside the worker, with the very schemas the OpenAPI document shows.
 * Compiled once per worker; a failure becomes an answer naming the field.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { type ErrorCodeValue } from '../errors.js';
import {
  batchRequestSchema, scanRequestSchema, singleRequestSchema, transcriptRequestSchema, type SchemaLimits,
} from '../schemas.js';
import type { BatchBody, ScanBody, SingleBody, TranscriptBody } from './bodies.js';

export interface Validators {
  single: ValidateFunction<SingleBody>;
  batch: ValidateFunction<BatchBody>;
  transcript: ValidateFunction<TranscriptBody>;
  scan: ValidateFunction<ScanBody>;
}

export function compileValidators(limits: SchemaLimits): Validators {
  // allErrors stays off: reporting the first problem is enough and bounds the work on junk.
  const ajv = new Ajv({ allErrors: false, strictTypes: false });
  return {
    single: ajv.compile<SingleBody>(singleRequestSchema),
    batch: ajv.compile<BatchBody>(batchRequestSchema(limits)),
    transcript: ajv.compile<TranscriptBody>(transcriptRequestSchema),
    scan: ajv.compile<ScanBody>(scanRequestSchema),
  };
}

export interface Rejection {
  code: ErrorCodeValue;
  message: string;
}

/** The first validation error as a rejection; an oversized batch is a 413, not a 400. */
export function rejectionOf(errors: readonly ErrorObject[] | null | undefined, limits: SchemaLimits): Rejection {
  const error = errors?.[0];
  if (error === undefined) return { code: 'invalid_request', message: 'request body is not valid' };
  const at = fieldPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'maxItems':
      if (error.instancePath === '/responses') {
        return {
          code: 'batch_too_large',
          message: `batch has more responses than the limit of ${limits.maxBatch} (MAX_BATCH)`,
        };
      }
      break;
    case 'required':
      return { code: 'invalid_request', message: `${at}.${String(params.missingProperty)} is required` };
    case 'additionalProperties':
      return { code: 'invalid_request', message: `${at}.${String(params.additionalProperty)} is not a known field` };
    case 'type': {
      const type = Array.isArray(params.type) ? params.type.join(' or ') : String(params.type);
      return { code: 'invalid_request', message: `${at} must be of type ${type}` };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      return { code: 'invalid_request', message: `${at} must be one of ${allowed}` };
    }
  }
  return { code: 'invalid_request', message: `${at} ${error.message ?? 'is not valid'}` };
}

/** `/responses/0/text` -> `body.responses[0].text` (JSON-pointer escapes undone). */
export function fieldPath(pointer: string): string {
  let path = 'body';
  if (pointer === '') return path;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
  }
  return path;
}
