/**
 * A stream's options, read on the HTTP thread before its first chunk: the first line of an
 * NDJSON body, or the query parameters of a text/plain one, validated against the same schema
 * pieces as `/parse` (schemas.ts, `streamOptionsSchema`) and with the same messages, the path
 * naming where the field was (`options.tools`, `query.shape`). The registry is normalised once
 * per distinct registry (the same cache the workers keep).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { ErrorCodeValue } from '../errors.js';
import { readingOf, type StreamSpec } from '../runner/wire.js';
import { streamOptionsSchema } from '../schemas.js';
import type { StreamOptionsBody } from '../worker/bodies.js';
import type { CachedTools, ToolsCache } from '../worker/tools-cache.js';
import { rejectionOf } from '../worker/validate.js';

export type StreamOptionsCheck = ValidateFunction<StreamOptionsBody>;

export function compileStreamOptions(): StreamOptionsCheck {
  return new Ajv({ allErrors: false, strictTypes: false }).compile<StreamOptionsBody>(streamOptionsSchema);
}

export type Opened = { ok: true; spec: StreamSpec; tools: CachedTools } | { ok: false; code: ErrorCodeValue; message: string };


/**
 * The query of a text/plain stream as the options object: `tools` is a comma-separated list of
 * names or a JSON registry (starting with `[` or `{`), `include` a comma-separated list,
 * `call_id_start` digits, `reasoning_started` `true` or `false`. A value that reads as none of
 * these is passed on as it is, so the schema names it.
 */
export function optionsFromQuery(query: Record<string, unknown>): { value: Record<string, unknown> } | { message: string } {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (typeof raw !== 'string') return { message: `query.${key} is given more than once` };
    if (key === 'tools') {
      const text = raw.trim();
      if (text.startsWith('[') || text.startsWith('{')) {
        try {
          out.tools = JSON.parse(text);
        } catch {
          return { message: 'query.tools starts like JSON but is not valid JSON' };
        }
      } else {
        out.tools = text.split(',').map((name) => name.trim()).filter((name) => name !== '');
      }
    } else if (key === 'include') {
      out.include = raw.split(',').map((field) => field.trim()).filter((field) => field !== '');
    } else if (key === 'call_id_start' && /^\d+$/.test(raw)) {
      out.call_id_start = Number(raw);
    } else if (key === 'reasoning_started' && (raw === 'true' || raw === 'false')) {
      out.reasoning_started = raw === 'true';
    } else {
      out[key] = raw;
    }
  }
  return { value: out };
}

/** The spec of a stream from its options, or the 400 that refuses them. `where` names them in messages. */
export function openStream(
  value: unknown,
  where: 'options' | 'query',
  check: StreamOptionsCheck,
  cache: ToolsCache,
  identity: StreamSpec['identity'],
): Opened {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, code: 'invalid_request', message: `${where} must be a JSON object` };
  }
  if (!check(value)) {
    const rejection = rejectionOf(check.errors, { maxBatch: 0 });
    return { ok: false, code: rejection.code, message: rejection.message.replace(/^body/, where) };
  }
  let toolsJson: string | null;
  let tools: CachedTools;
  try {
    toolsJson = value.tools === undefined || value.tools === null ? null : JSON.stringify(value.tools);
    tools = cache.get(toolsJson, value.tools);
  } catch (error) {
    if (error instanceof TypeError) return { ok: false, code: 'invalid_tools', message: `${where}.${error.message}` };
    if (error instanceof RangeError) return { ok: false, code: 'invalid_tools', message: `${where}.tools is nested too deeply` };
    throw error;
  }
  const spec: StreamSpec = { toolsJson, reading: readingOf(value), identity };
  if (value.tool_format !== undefined) spec.toolFormat = value.tool_format;
  if (value.call_id_start !== undefined) spec.callIdStart = value.call_id_start;
  return { ok: true, spec, tools };
}
