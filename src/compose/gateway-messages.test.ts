import { describe, expect, it } from 'vitest';
import { MESSAGE_CORPUS, MESSAGE_TOOLS } from '../../test/support/message-corpus.js';
import { MACHINE_PREFIXES } from './diagnostics.js';
import { jsonBodyMessagesFor, markupMessagesFor, nestedXmlMessagesFor } from './ladders/messages.js';
import { laneMessagesFor } from './lanes/messages.js';
import { messagesFor } from './messages.js';
import { parseToolCalls } from './parse.js';
import type { Profile } from './context.js';

/** Wording that tells a model to change grammar (or quotes the taught one as an instruction). */
const STEERING = [
  'from now on',
  'next turn',
  'from the next turn',
  'use the canonical',
  'canonical form',
  'canonical ```tool',
  'write each call as',
  'write every call as',
  'put it inside',
  'put calls inside',
  'put prose inside',
  'while `tool_format`',
  '<tool_call>name(',
  '```tool fence holding',
  'inside a ```tool fence',
  'instead of',
  'instead.',
  're-emit it as',
  'write either',
  'only <tool_call>',
];

const FORMATS = ['text', 'json', 'native', ''] as const;

function feedback(text: string, toolFormat: string, profile: Profile): string[] {
  const r = parseToolCalls(text, { tools: MESSAGE_TOOLS, tool_format: toolFormat, profile });
  return [...r.protocol_violations.map((v) => v.message), ...r.tool_parse_errors];
}

function allFeedback(profile: Profile): { where: string; message: string }[] {
  const out: { where: string; message: string }[] = [];
  for (const [label, text] of Object.entries(MESSAGE_CORPUS)) {
    for (const format of FORMATS) for (const message of feedback(text, format, profile)) out.push({ where: `${label} [${format}]`, message });
  }
  return out;
}

const steeringIn = (message: string): string[] => STEERING.filter((phrase) => message.toLowerCase().includes(phrase.toLowerCase()));

describe('gateway feedback never steers a grammar', () => {
  const gateway = allFeedback('gateway');
  const harn = allFeedback('harn');

  it('no message or error of the corpus, under any tool_format, carries a steering phrase', () => {
    expect(gateway.length).toBeGreaterThan(60);
    expect(gateway.filter(({ message }) => steeringIn(message).length > 0)).toEqual([]);
  });

  it('the corpus reaches the steering sites: under harn the same texts still give the reference wording', () => {
    const harnText = harn.map((h) => h.message).join('\n');
    for (const old of [
      'It ran this turn; use the canonical form from now on.',
      'from the next turn on.',
      'put it inside <tool_call>...</tool_call> next turn.',
      'did not run because its body is not a readable tool call; put calls inside <tool_call>...</tool_call>.',
      'did not run because the turn already made a call in the taught grammar',
      'It ran this turn; use ```tool from now on.',
      'it did NOT run. Re-emit it as a strict JSON object inside a ```tool fence.',
      "it ran this turn, but from now on write each call as a strict JSON object inside a ```tool fence.",
      'write each call as a strict JSON object inside a ```tool fence instead.',
      're-emit complete calls as canonical ```tool JSON blocks.',
      'use `<tool_call>name({ ... })</tool_call>` from now on.',
      'Put prose inside <assistant_prose>',
      'only <tool_call>, <assistant_prose>, <user_response> and <done> are accepted.',
      'so nothing ran. Write every call as',
      'Write `<tool_call>look({ ... })</tool_call>` instead.',
      'Write either `name({ ... })` or JSON',
    ]) {
      expect(harnText, old).toContain(old);
    }
    expect(harn.filter(({ message }) => steeringIn(message).length > 0).length).toBeGreaterThan(20);
  });

  // Sites the field grammars read first under gateway (Mistral, several markup calls, a JSON
  // body) are covered by the table checks below.
  it('gateway says what was read at the same sites', () => {
    const gatewayText = gateway.map((g) => g.message).join('\n');
    for (const neutral of [
      'A call to `look` was read from chat-template function markup.',
      'A call was read from a chat-template tool-call envelope.',
      'was written as a bare call expression, which this response\'s grammar does not read as a call, so it did NOT run.',
      'A tool call written in the tagged `<tool_call>` grammar was read.',
      'protocol_violation: a tool call was read from a chat-template tool envelope.',
      'protocol_violation: `<tool_call>...</tool_call>` markup arrived, but no call could be read from it, so nothing ran.',
      'A call written as an angle-wrapped `<name(...)>` expression was read.',
      'body did not hold a complete JSON object.',
      'A call was read from a fenced ```tool block.',
      'A fenced ```tool block did not run because its body is not a readable tool call.',
      'A fenced ```tool block did not run because the turn already made its calls elsewhere in the response.',
      'protocol_violation: a tool call was read from a ```json fence.',
      'protocol_violation: a tool call was read from a bare JSON object outside any fence.',
      'A call was read from `<tool_call>...</tool_call>` markup.',
      'Text outside the response tags: "</user_response>".',
      'The top-level tag "<thought>" is not a response tag this parser recognises.',
      '<assistant_prose> was opened and never closed before the response ended.',
      'unparsed_tool_syntax: this text looks like a tool call but was not read as one, so nothing ran. Fragment:',
    ]) {
      expect(gatewayText, neutral).toContain(neutral);
    }
  });
});

/**
 * Each table's entries, filled with sample arguments: a name, then a one-item list, which reads
 * as a string in a template, as a truthy flag and as a list of names or parameters.
 */
function rendered(table: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(table)) {
    if (typeof entry === 'string') out[key] = entry;
    else if (typeof entry === 'function') out[key] = String((entry as (...a: unknown[]) => unknown)('look', ['path'], ['path']));
  }
  return out;
}

const TABLES = {
  walk: messagesFor,
  lanes: laneMessagesFor,
  markup: markupMessagesFor,
  nestedXml: nestedXmlMessagesFor,
  jsonBody: jsonBodyMessagesFor,
} as const;

/** The leading forms downstream code matches (docs/design.md, "Diagnostics"). */
const LEADING_FORMS = [
  ...Object.values(MACHINE_PREFIXES),
  'The ```tool block is not valid JSON:',
  'Unterminated ```tool fence',
  'The `<tool_calls>` chat-template envelope is malformed:',
  "Unknown tool '",
];

describe.each(Object.entries(TABLES))('the %s message table', (_name, tableFor) => {
  const harn = rendered(tableFor('harn') as Record<string, unknown>);
  const gateway = rendered(tableFor('gateway') as Record<string, unknown>);

  it('an absent profile reads as harn', () => {
    expect(tableFor(undefined)).toBe(tableFor('harn'));
  });

  it('gateway has every entry harn has, and no entry that steers a grammar', () => {
    expect(Object.keys(gateway).sort()).toEqual(Object.keys(harn).sort());
    expect(Object.entries(gateway).filter(([, message]) => steeringIn(message).length > 0)).toEqual([]);
  });

  it('a rewritten entry keeps the leading form downstream code matches', () => {
    for (const key of Object.keys(harn)) {
      const form = LEADING_FORMS.find((f) => harn[key]!.startsWith(f));
      if (form !== undefined) expect(gateway[key], key).toMatch(new RegExp(`^${form.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}`));
    }
  });
});

describe('a call behind a label', () => {
  const transcript = "Here is the conversation:\n\nUser: What's the weather in Paris?\nAssistant: get_weather(city=\"Paris\")\nTool: {\"temp\": 18}\nAssistant: It's 18°C in Paris.";

  it('is the prose it is under gateway: a quoted transcript kept whole, no error', () => {
    const r = parseToolCalls(transcript, { tools: ['get_weather'], profile: 'gateway' });
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors).toEqual([]);
    expect(r.prose).toBe(transcript);
  });

  it('is reported under harn, whose runtime asks the model to write it again', () => {
    const r = parseToolCalls(transcript, { tools: ['get_weather'], profile: 'harn' });
    expect(r.calls).toEqual([]);
    expect(r.tool_parse_errors.join('\n')).toContain('Do not prefix tool calls with `Assistant:`');
  });
});
