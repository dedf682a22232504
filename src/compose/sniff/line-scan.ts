/**
 * The sniffer's walk: find `name({ ... })` and `name{ ... }` calls at line starts.
 *
 *     Let me check.\n  tool_code: run({ command: "ls" })  >\n```\n
 *                    ^ line start
 *                      ^ indentEnd (excision starts here)
 *                                 ^ name          call end ^ (trailing blanks and one `>`)
 *
 * A line start may carry, in order: spaces/tabs, one `<` (plus spaces/tabs), one allowlisted
 * label such as `tool_code:` (plus spaces/tabs). Fence lines (```` ``` ````) are recorded and
 * skipped, but their content is scanned: a fence never makes a call inert. A backtick outside a
 * call toggles inline code until the end of the line; names inside inline code are mentions.
 */
import type { ToolCall } from '../types.js';
import { fieldMessages } from '../field/messages.js';
import { LOOKALIKE } from '../../dialects/field/look-alikes.js';
import { FIELD_NAMESPACE_PREFIXES, SANDBOX_PRINT_OPEN } from '../../dialects/field/names.js';
import { DIALECTS } from '../../dialects/vocabulary.js';
import { Code, endsLineAt, skipBlanks } from '../../lex/codes.js';
import { identLength } from '../../lex/ident.js';
import { readPyCallAt } from '../../lex/py-call.js';
import { foldAlias, mayFold } from '../../policy/names.js';
import type { WorkMeter } from './meter.js';
import { ParseGate } from './parse-gate.js';
import { unknownToolFeedback, type KnownNames } from './names.js';

/** A fence line `[start, end)` (end past its newline) and how many calls preceded it. */
export interface FenceLine {
  start: number;
  end: number;
  callsBefore: number;
}

export interface LineScan {
  calls: ToolCall[];
  /** `written[i]`: the text `calls[i]` was read from (for the parse's call marks). */
  written: string[];
  errors: string[];
  /** `[start, end)` of every parsed call, in text order. */
  callRanges: [number, number][];
  fences: FenceLine[];
  /** The start of the line where the first error was found; -1 with none. */
  firstErrorLine: number;
}

const LINE_PREFIXES: readonly string[] = DIALECTS.BARE_CALL_LINE_PREFIXES;

/** Rust `u8::is_ascii_whitespace`: space, tab, LF, FF, CR (not VT). */
function isAsciiWhitespace(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.FormFeed || code === Code.CarriageReturn;
}

function isFenceAt(text: string, at: number): boolean {
  return text.charCodeAt(at) === Code.Backtick && text.charCodeAt(at + 1) === Code.Backtick && text.charCodeAt(at + 2) === Code.Backtick;
}

function endOfLine(text: string, at: number): number {
  const newline = text.indexOf('\n', at);
  return newline < 0 ? text.length : newline;
}

/**
 * The allowlisted labels grouped by their first code unit, so a line whose first character
 * starts no label costs one lookup instead of a `startsWith` per label.
 */
const PREFIXES_BY_FIRST_CODE: ReadonlyMap<number, readonly string[]> = groupByFirstCode(LINE_PREFIXES);

function groupByFirstCode(prefixes: readonly string[]): Map<number, string[]> {
  const groups = new Map<number, string[]>();
  for (const prefix of prefixes) {
    const first = prefix.charCodeAt(0);
    const group = groups.get(first);
    if (group === undefined) groups.set(first, [prefix]);
    else group.push(prefix);
  }
  return groups;
}

/** Where the name starts once the optional `<` and allowlisted label are skipped. */
function nameStart(text: string, indentEnd: number): number {
  let k = indentEnd;
  if (text.charCodeAt(k) === Code.LessThan) k = skipBlanks(text, k + 1);
  const candidates = PREFIXES_BY_FIRST_CODE.get(text.charCodeAt(k));
  if (candidates === undefined) return k;
  for (const prefix of candidates) {
    if (text.startsWith(prefix, k)) return skipBlanks(text, k + prefix.length);
  }
  return k;
}

type LineOutcome =
  /** Nothing at this line start; the walk resumes at `resume` as ordinary text. */
  | { kind: 'none'; resume: number }
  /** Handled; the walk resumes at `resume`, at a line start iff `lineStart`; `call`: a call was read. */
  | { kind: 'done'; resume: number; lineStart: boolean; call?: true };

export function scanLines(text: string, known: KnownNames, meter: WorkMeter): LineScan {
  const scan: LineScan = { calls: [], written: [], errors: [], callRanges: [], fences: [], firstErrorLine: -1 };
  const gate = new ParseGate(text);
  const length = text.length;
  let pos = 0;
  while (pos < length) {
    meter.steps++;
    const errors = scan.errors.length;
    const outcome = lineStart(text, pos, scan, known, gate, meter);
    if (scan.firstErrorLine < 0 && scan.errors.length > errors) scan.firstErrorLine = text.lastIndexOf('\n', pos - 1) + 1;
    if (outcome.kind === 'done' && outcome.lineStart) {
      pos = outcome.resume;
      continue;
    }
    // The gateway reads calls written one after another on a line (`f{…} f{…}`, Mistral's calls
    // with their special tokens skipped) as it reads them one per line; the reference reads the first.
    if (outcome.kind === 'done' && outcome.call === true && known.lookAlikes === true) {
      const next = skipBlanks(text, outcome.resume);
      if (identLength(text, next) > 0) {
        pos = next;
        continue;
      }
    }
    // `none` resumes at the indentation end; `done` mid-line resumes after what it handled.
    pos = outcome.resume;
    const code = text.charCodeAt(pos);
    if (outcome.kind === 'none' && code !== Code.LineFeed && isAsciiWhitespace(code)) {
      //     \r```\n       a CR or FF after the indentation keeps the walk at a line start
      //      ^ pos
      pos++;
      continue;
    }
    // perf: nothing before the next newline is at a line start (a backtick only opens inline
    // code, whose names are mentions), so jump there instead of walking each character.
    const newline = text.indexOf('\n', pos);
    const next = newline < 0 ? length : newline + 1;
    meter.steps += next - pos;
    pos = next;
  }
  return scan;
}

function lineStart(text: string, pos: number, scan: LineScan, known: KnownNames, gate: ParseGate, meter: WorkMeter): LineOutcome {
  const indentEnd = skipBlanks(text, pos);
  meter.steps += indentEnd - pos;
  if (isFenceAt(text, indentEnd)) {
    const lineEnd = endOfLine(text, indentEnd);
    const end = lineEnd < text.length ? lineEnd + 1 : lineEnd;
    meter.steps += end - indentEnd;
    scan.fences.push({ start: pos, end, callsBefore: scan.calls.length });
    return { kind: 'done', resume: end, lineStart: true };
  }
  const k = nameStart(text, indentEnd);
  const nameLength = identLength(text, k);
  meter.steps += nameLength;
  if (nameLength === 0) return { kind: 'none', resume: indentEnd };
  if (known.lookAlikes === true && ownLine(text, k)) {
    const sandboxed = sandboxCall(text, k, nameLength, known, scan);
    if (sandboxed !== null) return recordCall(scan, text, indentEnd, sandboxed.end, sandboxed.name, sandboxed.arguments);
  }
  const sep = text.charCodeAt(k + nameLength);
  if (sep === Code.Colon) {
    // The gateway keeps such a line as the prose it is (a quoted transcript's `Assistant: f(…)`,
    // a config's `example: f(…)`): the label's feedback is the reference runtime's policy.
    if (known.lookAlikes === true) return { kind: 'none', resume: indentEnd };
    const labelled = labelledCall(text, k, nameLength, known);
    if (labelled === null) return { kind: 'none', resume: indentEnd };
    scan.errors.push(labelled);
    const lineEnd = endOfLine(text, k);
    meter.steps += lineEnd - k;
    return { kind: 'done', resume: lineEnd, lineStart: true };
  }
  if (sep !== Code.LeftParen && sep !== Code.LeftBrace) return { kind: 'none', resume: indentEnd };
  const name = text.slice(k, k + nameLength);
  if (sep === Code.LeftParen) return parenCall(text, indentEnd, k, name, scan, known, gate);
  if (known.has(name)) return braceCall(text, indentEnd, k, name, scan, gate);
  return { kind: 'none', resume: indentEnd };
}

/**
 * `Hint: run(` with a label outside the allowlist and a registered tool after it: the model
 * prefixed a real call, so nothing runs and the line is reported. `k` starts the label, whose
 * `labelLength` characters are followed by the `:`.
 */
function labelledCall(text: string, k: number, labelLength: number, known: KnownNames): string | null {
  const inner = skipBlanks(text, k + labelLength + 1);
  const innerLength = identLength(text, inner);
  if (innerLength === 0 || text.charCodeAt(inner + innerLength) !== Code.LeftParen) return null;
  const tool = text.slice(inner, inner + innerLength);
  if (!known.has(tool)) return null;
  const label = text.slice(k, k + labelLength);
  return (
    `Saw \`${label}: ${tool}(...)\`. Do not prefix tool calls with \`${label}:\`; write \`${tool}({ ... })\` ` +
    'alone at the start of its own line. That line was read as prose and no tool ran: emit it again without the label.'
  );
}

/** End of a parsed call: trailing spaces/tabs and one `>` (from `<name(...)>`) go with it. */
function callEnd(text: string, end: number): number {
  end = skipBlanks(text, end);
  return text.charCodeAt(end) === Code.GreaterThan ? end + 1 : end;
}

function recordCall(scan: LineScan, text: string, indentEnd: number, end: number, name: string, args: Record<string, unknown>): LineOutcome {
  const stop = callEnd(text, end);
  scan.calls.push({ id: `tc_${scan.calls.length}`, name, arguments: args });
  scan.written.push(text.slice(indentEnd, stop));
  scan.callRanges.push([indentEnd, stop]);
  return { kind: 'done', resume: stop, lineStart: text.charCodeAt(stop - 1) === Code.LineFeed, call: true };
}

/** Whether `at` begins its line, unindented (an indented call is a statement of a program). */
/**
 * Gemini's call as its SDK's code sandbox writes it, on a line of its own outside a program's
 * block: `print(default_api.NAME(k=v))`, the `print` or the namespace left out, NAME registered
 * (Gemini 2.x answers with such a ```` ```tool_code ```` block when it does not call natively).
 * A plain `NAME(k=v)` line is read below; this reads only the printed or namespaced forms.
 */
function sandboxCall(text: string, k: number, nameLength: number, known: KnownNames, scan: LineScan): { name: string; arguments: Record<string, unknown>; end: number } | null {
  let at = k;
  // The name is the wrapper's whole word (`print(`, not `printer(`).
  const printed = nameLength + 1 === SANDBOX_PRINT_OPEN.length && text.startsWith(SANDBOX_PRINT_OPEN, k);
  if (printed) at = skipBlanks(text, k + SANDBOX_PRINT_OPEN.length);
  const prefix = FIELD_NAMESPACE_PREFIXES.find((candidate) => text.startsWith(candidate, at));
  if (prefix !== undefined) at += prefix.length;
  else if (!printed) return null;
  const py = readPyCallAt(text, at);
  if (!py.ok || !known.has(py.call.name)) return null;
  let end = py.call.end;
  if (printed) {
    end = skipBlanks(text, end);
    if (text.charCodeAt(end) !== Code.RightParen) return null;
    end++;
  }
  if (!endsLineAt(text, end) || inCodeBlock(text, scan)) return null;
  return { name: py.call.name, arguments: py.call.arguments, end };
}

function ownLine(text: string, at: number): boolean {
  return at === 0 || text.charCodeAt(at - 1) === Code.LineFeed;
}

/** Fence infos whose block holds calls, not a program: none, or Gemma 3's `tool_code`. */
const CALL_BLOCK_INFOS: ReadonlySet<string> = new Set(['', 'tool_code']);

/** Whether the scan stands inside a fenced block labelled with a language (```` ```python ````): its lines are code, not calls. */
function inCodeBlock(text: string, scan: LineScan): boolean {
  const open = scan.fences[scan.fences.length - 1];
  if (open === undefined || scan.fences.length % 2 === 0) return false;
  let at = open.start;
  while (text.charCodeAt(at) === Code.Space || text.charCodeAt(at) === Code.Tab) at++;
  const marker = text.charCodeAt(at);
  while (text.charCodeAt(at) === marker) at++;
  return !CALL_BLOCK_INFOS.has(text.slice(at, open.end).trim().toLowerCase());
}


function hasObjectArgument(text: string, afterParen: number): boolean {
  return text.charCodeAt(skipBlanks(text, afterParen)) === Code.LeftBrace;
}

/**
 *     run({ command: "ls" })      known: parse and record
 *     run("ls")                   known: not an object literal, report
 *     bash({ script: "ls" })      alias of a registered tool: parse, fold to run
 *     frobnicate({ x: 1 })        unknown with an object: report; `multiply(2, 3)` stays prose
 */
function parenCall(
  text: string,
  indentEnd: number,
  k: number,
  name: string,
  scan: LineScan,
  known: KnownNames,
  gate: ParseGate,
): LineOutcome {
  const afterParen = k + name.length + 1;
  const objectArgument = hasObjectArgument(text, afterParen);
  const skipName: LineOutcome = { kind: 'done', resume: afterParen, lineStart: false };
  if (known.has(name)) {
    if (!objectArgument) {
      // The gateway reads a line that is one call with Python keyword arguments (Gemma 3's
      // ```tool_code line, a pythonic call written without its list) as that call; any other
      // such line names the tool in prose. The reference asks for an object literal.
      if (known.lookAlikes === true) {
        const py = readPyCallAt(text, k);
        const line = ownLine(text, k) && !inCodeBlock(text, scan);
        if (line && py.ok && py.call.name === name && endsLineAt(text, py.call.end)) return recordCall(scan, text, indentEnd, py.call.end, name, py.call.arguments);
        // Cut off inside its arguments (`run(` at the end): a call attempt, reported as cut off
        // (the gateway's feedback names no other grammar to write it in).
        if (!py.ok && py.eof) {
          scan.errors.push(fieldMessages.truncated(LOOKALIKE.id, name));
          return skipName;
        }
        return { kind: 'none', resume: indentEnd };
      }
      scan.errors.push(`Tool '${name}' must be called with an object literal argument, like ${name}({ ... }).`);
      return skipName;
    }
    const parsed = gate.callExpr(k, name, scan.errors);
    if (parsed === null) return skipName;
    if (!parsed.ok) {
      scan.errors.push(parsed.error);
      return skipName;
    }
    // The gateway: a call a method chain goes on from (`search({ … })⏎  .then(…)`, a program's
    // promise) is part of a longer expression, the program's text.
    if (known.lookAlikes === true && chainedAfter(text, k + parsed.consumed)) return { kind: 'none', resume: indentEnd };
    return recordCall(scan, text, indentEnd, k + parsed.consumed, name, parsed.arguments);
  }
  if (!objectArgument) return { kind: 'none', resume: indentEnd };
  if (mayFold(name, known)) {
    const parsed = gate.callExpr(k, name, scan.errors);
    if (parsed === null) return skipName;
    const folded = parsed.ok ? foldAlias(name, parsed.arguments, known) : null;
    if (parsed.ok && folded !== null) return recordCall(scan, text, indentEnd, k + parsed.consumed, folded.name, folded.arguments);
  }
  // The gateway reads a whole call to an unregistered name as a call, which the parse's boundary
  // then refuses (an error and an `unknown_tool` drop of its text), as it refuses one from every
  // other lane; the reference reports it here and leaves its text in the prose.
  if (known.lookAlikes === true) {
    // In a block labelled with a language (```js) an unregistered name is the program's: prose.
    if (inCodeBlock(text, scan)) return { kind: 'none', resume: indentEnd };
    const parsed = gate.callExpr(k, name, scan.errors);
    if (parsed !== null && parsed.ok) return recordCall(scan, text, indentEnd, k + parsed.consumed, name, parsed.arguments);
  }
  scan.errors.push(unknownToolFeedback(name, known));
  return skipName;
}

/** A `.name` follows `at`, past blanks and at most one line break: a method chain goes on from what ends there. */
function chainedAfter(text: string, at: number): boolean {
  let i = skipBlanks(text, at);
  if (text.charCodeAt(i) === Code.CarriageReturn) i++;
  if (text.charCodeAt(i) === Code.LineFeed) i = skipBlanks(text, i + 1);
  return text.charCodeAt(i) === Code.Dot && identLength(text, i + 1) > 0;
}

/** `call:run{ command: "git status" }`: a registered name followed directly by an object. */
function braceCall(text: string, indentEnd: number, k: number, name: string, scan: LineScan, gate: ParseGate): LineOutcome {
  const parsed = gate.objectLiteral(k + name.length, name, scan.errors);
  if (parsed === null || !parsed.ok) {
    if (parsed !== null) scan.errors.push(parsed.error);
    return { kind: 'done', resume: k + name.length + 1, lineStart: false };
  }
  return recordCall(scan, text, indentEnd, k + name.length + parsed.consumed, name, parsed.value);
}
