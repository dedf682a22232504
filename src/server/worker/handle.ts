/**
 * The parse worker's whole job, as a pure function the tests can run in-process (coverage does
 * not see worker threads): raw bytes in, an HTTP status and a serialised body out.
 *
 *   bytes --decode--> JSON --validate (route schema)--> one | batch | transcript --parse--> JSON string
 *
 * Model text never throws; a malformed body or registry becomes a 4xx answer. Anything that
 * still throws is a bug and becomes a generic 500 with the detail kept for the log.
 */
import { parseTurn, shapeResult, type ParseOptions } from '../../compose/index.js';
import type { TurnPart } from '../../compose/types.js';
import type { ParseResult } from '../../compose/types.js';
import { scanUnits } from '../../scan/index.js';
import { errorJson, statusOf, type ErrorCodeValue } from '../errors.js';
import { readingOf, type Answer, type ItemTask, type ReadingOptions, type RequestTask, type StreamEndTask, type WorkerLimits, type WorkerReply, type WorkerTask } from '../runner/wire.js';
import { replayEnd } from '../stream/session.js';
import type { BatchBody, ScanBody, SingleBody, TranscriptBody } from './bodies.js';
import { decodeBodyText, parseBodyText } from './decode.js';
import { topLevelMemberSpan } from './member-span.js';
import { projectResult } from './project.js';
import { ToolsCache, type CachedTools } from './tools-cache.js';
import { parseTranscript } from './transcript.js';
import { compileValidators, rejectionOf } from './validate.js';
import type { ValidateFunction } from 'ajv';

export type TaskHandler = (task: WorkerTask) => WorkerReply;


function hasReading(reading: ReadingOptions): boolean {
  return reading.profile !== undefined || reading.validate !== undefined || reading.shape !== undefined || reading.include !== undefined || reading.reasoning_started !== undefined;
}

interface ResolvedTools {
  entry: CachedTools;
  /** The registry's JSON text, the key that finds `entry` again (split batch items carry it). */
  json: string | null;
}

/** The request's top-level `tools`, resolved. */
type TopTools = (body: { tools?: unknown }) => ResolvedTools | Answer;

const jsonOf = (tools: unknown): string | null => (tools === undefined || tools === null ? null : JSON.stringify(tools));

/** Built once per worker (or once per inline pool): compiled schemas and the registry cache. */
export function createTaskHandler(limits: WorkerLimits, cache: ToolsCache = new ToolsCache()): TaskHandler {
  const validators = compileValidators(limits);

  function fail(code: ErrorCodeValue, message: string): Answer {
    return { kind: 'answer', status: statusOf(code), body: errorJson(code, message) };
  }

  function ok(body: string): Answer {
    // UTF-8 takes at most 3 bytes per UTF-16 unit, so most answers need no byte count.
    if (body.length * 3 > limits.maxResponseBytes && Buffer.byteLength(body, 'utf8') > limits.maxResponseBytes) return tooLarge();
    return { kind: 'answer', status: 200, body };
  }

  function tooLarge(): Answer {
    return fail('response_too_large', `the answer would be larger than the limit of ${limits.maxResponseBytes} bytes (MAX_RESPONSE_BYTES)`);
  }

  /**
   * The cached registry for a request's `tools` and its cache key, or a 400 naming the bad entry
   * (`prefix` places the library's `tools[0].name ...` inside the body, e.g. `responses[2].`).
   * A registry nested too deeply to serialise is a 400 as well.
   */
  function toolsOf(tools: unknown, prefix = '', ownText: string | null = null): ResolvedTools | Answer {
    try {
      const json = ownText ?? jsonOf(tools);
      return { entry: cache.get(json, tools), json };
    } catch (error) {
      if (error instanceof TypeError) return fail('invalid_tools', `${prefix}${error.message}`);
      if (error instanceof RangeError) return fail('invalid_tools', `${prefix}tools is nested too deeply`);
      throw error;
    }
  }

  // The turn's ordered parts (reasoning between text and calls), kept beside each result for the
  // anthropic shape, which places thinking blocks where the model thought.
  const partsOf = new WeakMap<ParseResult, readonly TurnPart[]>();

  function parseOne(text: string, tools: CachedTools, toolFormat: string | undefined, callIdStart?: number, reading: ReadingOptions = {}): ParseResult {
    const options: ParseOptions = { tools: tools.registry };
    if (toolFormat !== undefined) options.tool_format = toolFormat;
    if (callIdStart !== undefined) options.call_id_start = callIdStart;
    if (reading.profile !== undefined) options.profile = reading.profile;
    if (reading.validate !== undefined) options.validate = reading.validate;
    if (reading.reasoning_started !== undefined) options.reasoning_started = reading.reasoning_started;
    // Only the anthropic shape places the turn's parts (see `answerOf`).
    const turn = parseTurn(text, options, reading.shape === 'anthropic');
    const result = projectResult(turn.result);
    if (turn.parts.length > 0) partsOf.set(result, turn.parts);
    return result;
  }

  /** The answer of one parsed response in the shape, and with the fields, the body asked for. */
  function answerOf(result: ParseResult, reading: ReadingOptions): unknown {
    if (reading.shape === undefined && reading.include === undefined) return result;
    return shapeResult(result, reading.shape ?? 'tool-parse', reading.include === undefined ? null : new Set(reading.include), partsOf.get(result));
  }

  function single(body: SingleBody, top: TopTools): WorkerReply {
    const tools = top(body);
    if ('kind' in tools) return tools;
    const reading = readingOf(body);
    return ok(JSON.stringify(answerOf(parseOne(body.text, tools.entry, body.tool_format, body.call_id_start, reading), reading)));
  }

  function batch(body: BatchBody, top: TopTools): WorkerReply {
    const responses = body.responses;
    const shared = top(body);
    if ('kind' in shared) return shared;
    const reading = readingOf(body);
    const items: ItemTask[] = [];
    let chars = 0;
    for (let i = 0; i < responses.length; i++) {
      const response = responses[i]!;
      let toolsJson = shared.json;
      if (response.tools !== undefined && response.tools !== null) {
        // Validate each own registry now, so a bad one is a 400 before any parsing.
        const own = toolsOf(response.tools, `responses[${i}].`);
        if ('kind' in own) return own;
        toolsJson = own.json;
      }
      const format = response.tool_format ?? body.tool_format;
      const text = response.text;
      const started = response.reasoning_started ?? body.reasoning_started;
      const own: ReadingOptions = started !== undefined ? { ...reading, reasoning_started: started } : reading;
      const item: ItemTask = { op: 'item', text, toolsJson, toolFormat: format ?? null };
      if (hasReading(own)) item.reading = own;
      items.push(item);
      chars += text.length;
    }
    const idsJson = responses.map((r) => (r.id !== undefined ? JSON.stringify(r.id) : 'null'));
    if (items.length > 1 && chars >= limits.splitMinChars) return { kind: 'split', idsJson, items };
    // perf: a small batch costs less parsed here than spread over the pool (each pool task
    // costs about 50 µs of messaging); see README.md "Batches".
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; i < items.length; i++) {
      const answer = runItem(items[i]!);
      if (answer.status !== 200) return answer;
      const part = `{"id":${idsJson[i]},"result":${answer.body}}`;
      length += part.length;
      // Counted before the join: an answer too large is refused, never half built.
      if (length > limits.maxResponseBytes) return tooLarge();
      parts.push(part);
    }
    return ok(`{"results":[${parts.join(',')}]}`);
  }

  function transcript(body: TranscriptBody, top: TopTools): WorkerReply {
    const tools = top(body);
    if ('kind' in tools) return tools;
    const reading = readingOf(body);
    const entries = parseTranscript(body.messages, body.call_id_start ?? 0, (text, from) =>
      parseOne(text, tools.entry, body.tool_format, from, reading),
    );
    return ok(JSON.stringify({ results: entries.map((entry) => ({ index: entry.index, result: answerOf(entry.result, reading) })) }));
  }

  function scan(body: ScanBody, top: TopTools): WorkerReply {
    const tools = top(body);
    if ('kind' in tools) return tools;
    const result = scanUnits(body.text, cache.scanSpecOf(tools.entry));
    return ok(JSON.stringify({ source: result.source, units: result.units }));
  }

  /**
   * The body's JSON, and how its top-level `tools` resolve.
   *
   * perf: a gateway sends the same tool definitions with every request. The registry's own text
   * is the cache key; on a hit the body is parsed with that text cut out, so the definitions are
   * neither decoded, validated nor re-serialised again (docs/performance.md, "Tools cache").
   * Anything unusual about the body falls through to the ordinary path, which answers the same.
   */
  function parseBody(text: string): { body: unknown; top: TopTools } | Answer {
    const span = topLevelMemberSpan(text, 'tools', cache.latestText);
    const toolsText = span === null ? null : text.slice(span.start, span.end);
    const cached = toolsText === null ? undefined : cache.peek(toolsText);
    if (cached !== undefined) {
      // The cut-out value becomes [] (valid wherever tools is), and the handler is handed the
      // cached registry instead; it was validated when this very text was first seen.
      const rest = parseBodyText(`${text.slice(0, span!.start)}[]${text.slice(span!.end)}`);
      if (rest.ok) {
        const resolved: ResolvedTools = { entry: cached, json: toolsText };
        return { body: rest.value, top: () => resolved };
      }
    }
    const parsed = parseBodyText(text);
    if (!parsed.ok) return fail('invalid_json', parsed.message);
    return { body: parsed.value, top: (b) => toolsOf(b.tools, '', toolsText) };
  }

  function runRequest(task: RequestTask): WorkerReply {
    const decoded = decodeBodyText(task.body);
    if (!decoded.ok) return fail('invalid_json', decoded.message);
    const parsed = parseBody(decoded.text);
    if ('kind' in parsed) return parsed;
    const { body, top } = parsed;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return fail('invalid_request', 'body must be a JSON object');
    }
    if (task.route === 'scan') return checked(body, validators.scan, scan, top);
    if (Object.hasOwn(body, 'responses')) return checked(body, validators.batch, batch, top);
    if (Object.hasOwn(body, 'messages')) return checked(body, validators.transcript, transcript, top);
    return checked(body, validators.single, single, top);
  }

  /** The handler's answer for a body its schema passes (the validator narrows it to the schema's type), else a 4xx. */
  function checked<T>(body: object, validate: ValidateFunction<T>, handler: (b: T, top: TopTools) => WorkerReply, top: TopTools): WorkerReply {
    if (!validate(body)) {
      const rejection = rejectionOf(validate.errors, limits);
      return fail(rejection.code, rejection.message);
    }
    return handler(body, top);
  }

  function runItem(task: ItemTask): Answer {
    const tools = cache.get(task.toolsJson);
    const reading = task.reading ?? {};
    return ok(JSON.stringify(answerOf(parseOne(task.text, tools, task.toolFormat ?? undefined, undefined, reading), reading)));
  }

  /** A long stream's final parse: the framed tail, ready to write (its registry was validated when the stream opened). */
  function runStreamEnd(task: StreamEndTask): Answer {
    const { body, counts } = replayEnd(task, cache.get(task.spec.toolsJson).registry);
    return { kind: 'answer', status: 200, body, streamEvents: counts };
  }

  function runTask(task: WorkerTask): WorkerReply {
    try {
      if (task.op === 'stream-end') return runStreamEnd(task);
      return task.op === 'item' ? runItem(task) : runRequest(task);
    } catch (error) {
      const answer = fail('internal_error', 'the parse failed unexpectedly');
      answer.logDetail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return answer;
    }
  }

  // Timed inside the thread that parses, so the figure excludes queue wait and messaging: it is
  // what the load test compares with the library in a plain process. Wall time: Node 20 has no
  // per-thread CPU clock (process.threadCpuUsage came in 23.9), and /proc/thread-self/schedstat
  // is only brought up to date at scheduler ticks, far too coarse for a 0.1 ms parse.
  return function handleTask(task: WorkerTask): WorkerReply {
    const started = performance.now();
    const reply = runTask(task);
    reply.workSeconds = (performance.now() - started) / 1000;
    return reply;
  };
}
