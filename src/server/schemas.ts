/**
 * JSON schemas of every route. The request schemas are compiled once in each worker (the
 * worker validates the raw body it decodes) and shown unchanged in the OpenAPI document; the
 * response schemas serialise the answers built on the main thread and document the strings
 * the workers return.
 *
 * Schemas are code (Ajv and fast-json-stringify compile them): they are built from constants
 * and validated limits only, never from request data.
 */

import { PROFILES, RESULT_FIELDS, SHAPES, TOOL_FORMATS, VALIDATE_MODES } from '../compose/index.js';

export interface SchemaLimits {
  maxBatch: number;
}

type Schema = Record<string, unknown>;

// The request schemas are `as const` so the worker can derive each validated body's type from
// its schema (worker/bodies.ts); `satisfies` keeps them plain schema objects.

const text = { type: 'string', description: 'The raw model response.' } as const satisfies Schema;

const tools = {
  type: ['array', 'object'],
  description:
    'The tool registry: a list of names or tool objects ({name, description?, parameters?}, OpenAI ' +
    '{type: "function", function}, Anthropic {name, input_schema}, MCP {name, inputSchema}, Gemini ' +
    'declarations), or a registry {tools: [...]}.',
  items: { type: ['string', 'object'] },
} as const satisfies Schema;

const toolFormat = {
  type: 'string',
  enum: [...TOOL_FORMATS],
  description: 'The tool-call grammar the model was taught.',
} as const satisfies Schema;

// The library's own lists, so the body schema and the library cannot disagree.
const profile = { type: 'string', enum: [...PROFILES], description: 'gateway (default): only registered names are calls; harn: the reference runtime.' } as const satisfies Schema;
const validateMode = { type: 'string', enum: [...VALIDATE_MODES], description: "Arguments against the tool's JSON Schema (default report under gateway, off under harn)." } as const satisfies Schema;
const shape = { type: 'string', enum: [...SHAPES], description: 'tool-parse (default), or an assistant message in the openai or anthropic shape with diagnostics beside it.' } as const satisfies Schema;
const include = { type: 'array', items: { type: 'string', enum: [...RESULT_FIELDS] }, description: 'Only these result fields (with openai/anthropic: these diagnostics).' } as const satisfies Schema;
/** The fields every request form shares that choose how a response is read and answered. */
const reasoningStarted = {
  type: 'boolean',
  description: 'Gateway: the prompt opened the reasoning block, so text up to the first reasoning close is reasoning.',
} as const satisfies Schema;
const readingOptions = { profile, validate: validateMode, shape, include, reasoning_started: reasoningStarted };

const callIdStart = {
  type: 'integer',
  minimum: 0,
  maximum: 2_147_483_647,
  description: 'The first numeric call id suffix (tc_<n>).',
} as const satisfies Schema;

export const singleRequestSchema = {
  title: 'ParseOne',
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: { text, tools, tool_format: toolFormat, call_id_start: callIdStart, ...readingOptions },
} as const satisfies Schema;

export function batchRequestSchema(limits: SchemaLimits) {
  return {
    title: 'ParseBatch',
    type: 'object',
    required: ['responses'],
    additionalProperties: false,
    properties: {
      responses: {
        type: 'array',
        maxItems: limits.maxBatch,
        items: {
          type: 'object',
          required: ['text'],
          additionalProperties: false,
          properties: { id: { type: 'string' }, text, tools, tool_format: toolFormat, reasoning_started: reasoningStarted },
        },
      },
      tools,
      tool_format: toolFormat,
      ...readingOptions,
    },
  } as const satisfies Schema;
}

const textPart = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' }, text: { type: 'string' } },
} as const satisfies Schema;

export const transcriptRequestSchema = {
  title: 'ParseTranscript',
  type: 'object',
  required: ['messages'],
  additionalProperties: false,
  properties: {
    messages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['role'],
        properties: {
          role: { type: 'string' },
          content: {
            type: ['string', 'array', 'null'],
            description: 'A string, or an array of parts of which the {type: "text", text} ones are read.',
            items: textPart,
          },
          tool_calls: {
            type: 'array',
            description: 'OpenAI tool calls the message already carries ({id, type, function: {name, arguments}}); kept, and not read again from the text.',
            items: {
              type: 'object',
              required: ['function'],
              properties: {
                id: { type: 'string' },
                function: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, arguments: { type: ['string', 'object'] } } },
              },
            },
          },
        },
      },
    },
    tools,
    tool_format: toolFormat,
    call_id_start: callIdStart,
    ...readingOptions,
  },
} as const satisfies Schema;

/**
 * The options of a stream (`POST /parse/stream`): the first line of an NDJSON body, or the
 * query parameters of a text/plain one. The fields of a one-response body, less its text.
 */
export const streamOptionsSchema = {
  title: 'ParseStreamOptions',
  type: 'object',
  additionalProperties: false,
  properties: { tools, tool_format: toolFormat, call_id_start: callIdStart, ...readingOptions },
} as const satisfies Schema;

export const scanRequestSchema = {
  title: 'ScanOne',
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: { text, tools },
} as const satisfies Schema;

export function parseRequestSchema(limits: SchemaLimits): Schema {
  return { oneOf: [singleRequestSchema, batchRequestSchema(limits), transcriptRequestSchema] };
}

const nullableString: Schema = { type: ['string', 'null'] };

export const parseResultSchema: Schema = {
  title: 'ParseResult',
  type: 'object',
  required: [
    'calls', 'prose', 'user_response', 'done_marker', 'canonical_text', 'tool_parse_errors',
    'protocol_violations', 'dropped', 'recovered_from_stray_count',
  ],
  properties: {
    calls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'arguments'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          arguments: { type: 'object', additionalProperties: true },
        },
      },
    },
    prose: { type: 'string' },
    reasoning: { ...nullableString, description: 'Gateway profile only: the reasoning blocks, trimmed, joined by a blank line.' },
    user_response: nullableString,
    done_marker: nullableString,
    canonical_text: { type: 'string' },
    tool_parse_errors: { type: 'array', items: { type: 'string' } },
    protocol_violations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'message', 'excerpt', 'dropped_reason'],
        properties: {
          kind: { type: 'string' },
          message: { type: 'string' },
          excerpt: nullableString,
          dropped_reason: nullableString,
          count: { type: 'integer', minimum: 1, description: 'On a coalesced entry only: how many violations of this kind it stands for' },
        },
      },
    },
    dropped: {
      type: 'array',
      items: {
        type: 'object',
        required: ['text', 'reason'],
        properties: {
          text: { type: 'string' },
          reason: { type: 'string' },
          count: { type: 'integer', minimum: 1, description: 'On a coalesced entry only: how many drops of this reason it stands for' },
        },
      },
    },
    recovered_from_stray_count: { type: 'integer' },
  },
};

export const batchResultSchema: Schema = {
  title: 'ParseBatchResult',
  type: 'object',
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'result'],
        properties: { id: nullableString, result: parseResultSchema },
      },
    },
  },
};

export const transcriptResultSchema: Schema = {
  title: 'ParseTranscriptResult',
  type: 'object',
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      description: 'One entry per assistant message, in order; index is the message position.',
      items: {
        type: 'object',
        required: ['index', 'result'],
        properties: { index: { type: 'integer' }, result: parseResultSchema },
      },
    },
  },
};

export const scanResultSchema: Schema = {
  title: 'ScanResult',
  type: 'object',
  required: ['source', 'units'],
  properties: {
    source: { type: 'string' },
    units: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'start', 'end'],
        additionalProperties: true,
        properties: { kind: { type: 'string' }, start: { type: 'integer' }, end: { type: 'integer' } },
      },
    },
  },
};

export const errorSchema: Schema = {
  title: 'Error',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

export const healthSchema: Schema = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, reason: { type: 'string' } },
};

/** The error answers any parsing route can give. */
export const errorResponses: Record<string, Schema> = {
  400: errorSchema,
  413: errorSchema,
  415: errorSchema,
  500: errorSchema,
  503: errorSchema,
  504: errorSchema,
};
