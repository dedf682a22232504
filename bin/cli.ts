/**
 * The `tool-parse` command line, as a function of its arguments and streams so it can be tested
 * in-process. `bin/tool-parse.ts` only wires it to the real process.
 *
 *   tool-parse parse [FILE|-] [--tools tools.json] [--format FORMAT] [--call-id-start N]
 *                    [--profile gateway|harn] [--validate MODE] [--shape SHAPE] [--include F,...]
 *                    [--reasoning-started]
 *   tool-parse serve
 */
import { parseToolCalls, PROFILES, RESULT_FIELDS, SHAPES, VALIDATE_MODES, type ParseOptions, type ResultField } from '../src/compose/index.js';
import { normalizeTools } from '../src/dialects/index.js';

export interface CliIo {
  readText(path: string): Promise<string>;
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Starts the HTTP service (resolves once it listens). */
  serve(): Promise<void>;
}

export const USAGE = `Usage: tool-parse <command> [options]

Commands:
  parse [FILE|-]       Parse one model response (a file, or stdin when FILE is - or absent)
                       and print the result as JSON.
  serve                Start the HTTP service (configured by environment variables:
                       PORT, HOST, THREADS, MAX_QUEUE, TASK_TIMEOUT_MS, BODY_LIMIT,
                       MAX_BATCH, LOG_LEVEL, POOL, SHUTDOWN_TIMEOUT_MS, DRAIN_DELAY_MS).

Options for parse:
  --tools FILE         A JSON tool registry: a list of names or tool objects
                       (JSON Schema, OpenAI or Anthropic shape), or {"tools": [...]}.
  --format FORMAT      The tool-call grammar the model was taught: text, json,
                       native or adaptive. Default: none given (""), which under
                       the gateway profile reads as text; under harn it is the
                       reference's untaught format (no sibling retry).
  --call-id-start N    The first numeric call id (tc_N); default 0.
  --profile PROFILE    gateway (default: only registered names become calls, no
                       implicit tools, no alias folding) or harn (the reference
                       runtime exactly).
  --validate MODE      Arguments against the tool's JSON Schema: report (default
                       under gateway), reject or off (default under harn).
  --shape SHAPE        tool-parse (default), openai or anthropic.
  --include F,...      Only these result fields (e.g. calls,tool_parse_errors).
  --reasoning-started  The prompt opened the reasoning block (Qwen3, DeepSeek R1):
                       text up to the first reasoning close is reasoning (gateway).
  -h, --help           Show this help.

Exit status: 0 on success, 1 when an input cannot be read or is invalid, 2 on a usage error.
`;

const FORMATS = new Set(['text', 'json', 'native', 'adaptive']);
const CHOICES = {
  profile: PROFILES,
  validate: VALIDATE_MODES,
  shape: SHAPES,
} as const;

class UsageError extends Error {}
class InputError extends Error {}

interface ParseArgs {
  file: string;
  toolsFile: string | null;
  format: string | null;
  callIdStart: number | null;
  profile: (typeof PROFILES)[number] | null;
  validate: (typeof VALIDATE_MODES)[number] | null;
  shape: (typeof SHAPES)[number] | null;
  include: ResultField[] | null;
  reasoningStarted: boolean;
}

function choice<K extends keyof typeof CHOICES>(flag: K, value: string): (typeof CHOICES)[K][number] {
  const allowed = CHOICES[flag] as readonly string[];
  if (!allowed.includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}; got "${value}"`);
  return value as (typeof CHOICES)[K][number];
}

function parseArgs(args: readonly string[]): ParseArgs {
  const parsed: ParseArgs = { file: '-', toolsFile: null, format: null, callIdStart: null, profile: null, validate: null, shape: null, include: null, reasoningStarted: false };
  let fileSeen = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const valueOf = (flag: string): string => {
      const eq = arg.indexOf('=');
      if (eq !== -1) return arg.slice(eq + 1);
      const next = args[i + 1];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      i++;
      return next;
    };
    if (arg === '--tools' || arg.startsWith('--tools=')) parsed.toolsFile = valueOf('--tools');
    else if (arg === '--format' || arg.startsWith('--format=')) {
      const format = valueOf('--format');
      if (!FORMATS.has(format)) throw new UsageError(`--format must be one of text, json, native, adaptive; got "${format}"`);
      parsed.format = format;
    } else if (arg === '--call-id-start' || arg.startsWith('--call-id-start=')) {
      const text = valueOf('--call-id-start');
      const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(n)) throw new UsageError(`--call-id-start must be a non-negative integer; got "${text}"`);
      parsed.callIdStart = n;
    } else if (arg === '--profile' || arg.startsWith('--profile=')) parsed.profile = choice('profile', valueOf('--profile'));
    else if (arg === '--validate' || arg.startsWith('--validate=')) parsed.validate = choice('validate', valueOf('--validate'));
    else if (arg === '--shape' || arg.startsWith('--shape=')) parsed.shape = choice('shape', valueOf('--shape'));
    else if (arg === '--include' || arg.startsWith('--include=')) {
      const fields = valueOf('--include').split(',').map((f) => f.trim()).filter((f) => f !== '');
      for (const field of fields) {
        if (!(RESULT_FIELDS as readonly string[]).includes(field)) throw new UsageError(`--include: "${field}" is not a result field (${RESULT_FIELDS.join(', ')})`);
      }
      parsed.include = fields as ResultField[];
    } else if (arg === '--reasoning-started') parsed.reasoningStarted = true;
    else if (arg !== '-' && arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (fileSeen) throw new UsageError(`only one FILE may be given; got "${parsed.file}" and "${arg}"`);
    else {
      parsed.file = arg;
      fileSeen = true;
    }
  }
  return parsed;
}

async function read(what: string, load: () => Promise<string>): Promise<string> {
  try {
    return await load();
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new InputError(`cannot read ${what} (${reason})`);
  }
}

async function parseCommand(args: readonly string[], io: CliIo): Promise<void> {
  const options = parseArgs(args);
  const text = options.file === '-' ? await read('stdin', () => io.readStdin()) : await read(options.file, () => io.readText(options.file));
  const parseOptions: ParseOptions = {};
  if (options.toolsFile !== null) {
    const toolsFile = options.toolsFile;
    const raw = await read(toolsFile, () => io.readText(toolsFile));
    let tools: unknown;
    try {
      tools = JSON.parse(raw);
    } catch {
      throw new InputError(`${toolsFile} is not valid JSON`);
    }
    try {
      parseOptions.tools = normalizeTools(tools);
    } catch (error) {
      throw new InputError(`${toolsFile}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (options.format !== null) parseOptions.tool_format = options.format;
  if (options.callIdStart !== null) parseOptions.call_id_start = options.callIdStart;
  if (options.profile !== null) parseOptions.profile = options.profile;
  if (options.validate !== null) parseOptions.validate = options.validate;
  if (options.shape !== null) parseOptions.shape = options.shape;
  if (options.include !== null) parseOptions.include = options.include;
  if (options.reasoningStarted) parseOptions.reasoning_started = true;
  io.stdout(`${JSON.stringify(parseToolCalls(text, parseOptions), null, 2)}\n`);
}

/** Runs one command line; resolves to the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      io.stderr(USAGE);
      return 2;
    }
    if (command === '-h' || command === '--help' || command === 'help' || rest.includes('--help') || rest.includes('-h')) {
      io.stdout(USAGE);
      return 0;
    }
    if (command === 'parse') {
      await parseCommand(rest, io);
      return 0;
    }
    if (command === 'serve') {
      if (rest.length > 0) throw new UsageError(`serve takes no arguments (configure it with environment variables); got "${rest[0]}"`);
      await io.serve();
      return 0;
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`tool-parse: ${error.message}\nRun "tool-parse --help" for usage.\n`);
      return 2;
    }
    if (error instanceof InputError) {
      io.stderr(`tool-parse: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
