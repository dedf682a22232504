/**
 * Runs a reference case through the project function that covers its entry point.
 *
 *   agent_parse_tool_calls, parse_text_tool_calls_with_tools -> parseToolCalls(input, {tools, tool_format})
 *   parse_fenced_json_tool_calls                             -> parseToolCalls(input, {tools, tool_format: "json"})
 *   parse_bare_calls_in_body                                 -> scanBareCalls(input, tools)
 *   scan_units, scan_units(...).to_json()                    -> scanUnits(input, validateScanSpec(options))
 *   ScanSpec::from_json                                      -> validateScanSpec(options)
 *
 * Modules are imported lazily and a missing export is reported as `missing`, so a case whose
 * implementation is not written yet fails on its own instead of breaking the whole file.
 */
import type { ReferenceCase } from './cases.js';

export type EntryRun =
  | { status: 'ran'; result: unknown }
  | { status: 'missing'; reason: string }
  | { status: 'threw'; reason: string };

type AnyFunction = (...args: unknown[]) => unknown;

async function exportOf(load: () => Promise<Record<string, unknown>>, module: string, name: string): Promise<AnyFunction | string> {
  let exports: Record<string, unknown>;
  try {
    exports = await load();
  } catch (error) {
    return `${module} failed to load: ${(error as Error).message}`;
  }
  const fn = exports[name];
  return typeof fn === 'function' ? (fn as AnyFunction) : `${module} does not export ${name}() yet`;
}

const loadCompose = () => import('../../src/compose/index.js') as Promise<Record<string, unknown>>;
const loadScan = () => import('../../src/scan/index.js') as Promise<Record<string, unknown>>;
const loadSniff = () => import('../../src/compose/sniff/bare-calls.js') as Promise<Record<string, unknown>>;

/**
 * The vectors' tools are `{name, parameters (JSON Schema), other: {description, ...}}`; the
 * project registry takes `{name, description, parameters}`.
 */
export function projectTools(tools: unknown[] | null): unknown[] | undefined {
  if (tools === null) return undefined;
  return tools.map((tool) => {
    const { name, parameters, other } = tool as { name: unknown; parameters?: unknown; other?: { description?: unknown } };
    const description = typeof other?.description === 'string' ? other.description : undefined;
    return description === undefined ? { name, parameters } : { name, description, parameters };
  });
}

function toolFormatOf(c: ReferenceCase): string {
  if (c.entry === 'parse_fenced_json_tool_calls') return 'json';
  const format = c.options.tool_format;
  return typeof format === 'string' ? format : 'text';
}

async function call(c: ReferenceCase): Promise<EntryRun> {
  const tools = projectTools(c.tools);
  switch (c.entry) {
    case 'agent_parse_tool_calls':
    case 'parse_text_tool_calls_with_tools':
    case 'parse_fenced_json_tool_calls': {
      const parse = await exportOf(loadCompose, 'src/compose', 'parseToolCalls');
      if (typeof parse === 'string') return { status: 'missing', reason: parse };
      // The reference vectors pin the reference runtime: profile `harn`, explicitly.
      return { status: 'ran', result: parse(c.input, { tools, tool_format: toolFormatOf(c), profile: 'harn' }) };
    }
    case 'parse_bare_calls_in_body': {
      const sniff = await exportOf(loadSniff, 'src/compose/sniff', 'scanBareCalls');
      if (typeof sniff === 'string') return { status: 'missing', reason: sniff };
      return { status: 'ran', result: sniff(c.input, tools) };
    }
    case 'scan_units':
    case 'scan_units(...).to_json()': {
      const validate = await exportOf(loadScan, 'src/scan', 'validateScanSpec');
      if (typeof validate === 'string') return { status: 'missing', reason: validate };
      const scan = await exportOf(loadScan, 'src/scan', 'scanUnits');
      if (typeof scan === 'string') return { status: 'missing', reason: scan };
      const spec = validate(c.options);
      // the wire shape: what JSON.stringify of the result carries
      return { status: 'ran', result: JSON.parse(JSON.stringify(scan(c.input, spec))) as unknown };
    }
    case 'ScanSpec::from_json': {
      const validate = await exportOf(loadScan, 'src/scan', 'validateScanSpec');
      if (typeof validate === 'string') return { status: 'missing', reason: validate };
      try {
        const spec = validate(c.options);
        return { status: 'ran', result: { ok: true, error: null, ...(spec as object) } };
      } catch (error) {
        return { status: 'ran', result: { ok: false, error: (error as Error).message } };
      }
    }
    default:
      return { status: 'missing', reason: `no project function covers entry ${c.entry}` };
  }
}

/** Runs the case; an exception from the project (model text must never throw) is reported, not rethrown. */
export async function runEntry(c: ReferenceCase): Promise<EntryRun> {
  try {
    return await call(c);
  } catch (error) {
    const err = error as Error;
    return { status: 'threw', reason: `${err.name}: ${err.message}` };
  }
}
