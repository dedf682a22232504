/**
 * The worker's task handler, run in-process (coverage does not see worker threads): decoding,
 * validation against the route schemas, the three body forms, the registry cache, batch
 * splitting and prototype safety.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/server/errors.js';
import type { Answer, ItemTask, Split, WorkerReply } from '../../src/server/runner/wire.js';
import { createTaskHandler } from '../../src/server/worker/handle.js';
import { ToolsCache } from '../../src/server/worker/tools-cache.js';
import { contentText, parseTranscript } from '../../src/server/worker/transcript.js';
import { fieldPath } from '../../src/server/worker/validate.js';
import { assertResultShape, CANONICAL_TEXT } from './helpers.js';

const LIMITS = { maxBatch: 4, splitMinChars: 1_000_000, maxResponseBytes: 32 * 1024 * 1024 };

function request(body: unknown, route: 'parse' | 'scan' = 'parse') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { op: 'request' as const, route, body: new TextEncoder().encode(text) };
}

function answer(reply: WorkerReply): Answer {
  if (reply.kind !== 'answer') throw new Error(`expected an answer, got ${reply.kind}`);
  return reply;
}

function errorOf(reply: WorkerReply): { status: number; code: string; message: string } {
  const a = answer(reply);
  const body = JSON.parse(a.body) as { error: { code: string; message: string } };
  return { status: a.status, code: body.error.code, message: body.error.message };
}

describe('one response', () => {
  it('parses the canonical call end to end', () => {
    const handle = createTaskHandler(LIMITS);
    const a = answer(handle(request({ text: CANONICAL_TEXT, tools: ['look'] })));
    expect(a.status).toBe(200);
    const result: unknown = JSON.parse(a.body);
    assertResultShape(result);
    expect(result.calls).toHaveLength(1);
    expect(result.calls[0]!.name).toBe('look');
    expect(result.calls[0]!.arguments).toEqual({ path: 'a.rs' });
  });

  it('starts numeric call ids at call_id_start', () => {
    const handle = createTaskHandler(LIMITS);
    const a = answer(handle(request({ text: CANONICAL_TEXT, tools: ['look'], call_id_start: 7 })));
    const result: unknown = JSON.parse(a.body);
    assertResultShape(result);
    expect(result.calls[0]!.id).toBe('tc_7');
  });

  it('answers prose without calls with the full result shape', () => {
    const a = answer(createTaskHandler(LIMITS)(request({ text: 'Nothing to do here.' })));
    expect(a.status).toBe(200);
    const result: unknown = JSON.parse(a.body);
    assertResultShape(result);
    expect(result.calls).toEqual([]);
  });
});

describe('rejections name the field', () => {
  const handle = createTaskHandler(LIMITS);
  const cases: [string, unknown, number, string, string][] = [
    ['malformed JSON', '{"text": ', 400, 'invalid_json', 'not valid JSON'],
    ['an empty body', '', 400, 'invalid_json', 'empty'],
    ['a JSON array', '[1, 2]', 400, 'invalid_request', 'body must be a JSON object'],
    ['text of the wrong type', { text: 42 }, 400, 'invalid_request', 'body.text must be of type string'],
    ['a missing text', { tools: ['look'] }, 400, 'invalid_request', 'body.text is required'],
    ['an unknown tool_format', { text: 'x', tool_format: 'xml' }, 400, 'invalid_request', 'body.tool_format must be one of'],
    ['an unknown field', { text: 'x', colour: 'red' }, 400, 'invalid_request', 'body.colour is not a known field'],
    ['a negative call_id_start', { text: 'x', call_id_start: -1 }, 400, 'invalid_request', 'body.call_id_start'],
    ['tools of the wrong type', { text: 'x', tools: 'look' }, 400, 'invalid_request', 'body.tools must be of type array or object'],
    ['a tool without a name', { text: 'x', tools: [{ description: 'no name' }] }, 400, 'invalid_tools', 'tools[0].name'],
    ['a batch item without text', { responses: [{ id: 'a' }] }, 400, 'invalid_request', 'body.responses[0].text is required'],
    ['a bad registry in one batch item', { responses: [{ text: 'x' }, { text: 'y', tools: [{ name: 7 }] }] }, 400, 'invalid_tools', 'responses[1].tools[0].name'],
    ['a transcript message without role', { messages: [{ content: 'x' }] }, 400, 'invalid_request', 'body.messages[0].role is required'],
    ['a transcript content of the wrong type', { messages: [{ role: 'assistant', content: 5 }] }, 400, 'invalid_request', 'body.messages[0].content'],
    ['a batch over MAX_BATCH', { responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }, { text: 'e' }] }, 413, 'batch_too_large', 'limit of 4'],
  ];
  for (const [name, body, status, code, fragment] of cases) {
    it(name, () => {
      const error = errorOf(handle(request(body)));
      expect(error.status).toBe(status);
      expect(error.code).toBe(code);
      expect(error.message).toContain(fragment);
    });
  }

  it('rejects bytes that are not UTF-8', () => {
    const body = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const error = errorOf(handle({ op: 'request', route: 'parse', body }));
    expect(error).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(error.message).toContain('UTF-8');
  });

  it('validates /scan bodies with the scan schema', () => {
    const error = errorOf(handle(request({ text: 'x', tool_format: 'text' }, 'scan')));
    expect(error.message).toBe('body.tool_format is not a known field');
  });

  it('spells JSON-pointer paths as property paths', () => {
    expect(fieldPath('')).toBe('body');
    expect(fieldPath('/responses/12/text')).toBe('body.responses[12].text');
    expect(fieldPath('/a~1b/c~0d')).toBe('body.a/b.c~d');
  });
});

describe('batches', () => {
  const batch = {
    tools: ['look'],
    responses: [
      { id: 'first', text: CANONICAL_TEXT },
      { text: 'just prose' },
      { id: 'third', text: CANONICAL_TEXT, tool_format: 'text' },
    ],
  };

  it('parses a small batch in one task, in request order', () => {
    const a = answer(createTaskHandler(LIMITS)(request(batch)));
    expect(a.status).toBe(200);
    const { results } = JSON.parse(a.body) as { results: { id: string | null; result: unknown }[] };
    expect(results.map((r) => r.id)).toEqual(['first', null, 'third']);
    for (const r of results) assertResultShape(r.result);
    expect((results[0]!.result as { calls: unknown[] }).calls).toHaveLength(1);
    expect((results[1]!.result as { calls: unknown[] }).calls).toHaveLength(0);
  });

  it('splits a large batch into item tasks whose answers join to the same result', () => {
    const whole = createTaskHandler(LIMITS)(request(batch));
    const splitting = createTaskHandler({ maxBatch: 4, splitMinChars: 1, maxResponseBytes: 32 * 1024 * 1024 });
    const reply = splitting(request(batch));
    expect(reply.kind).toBe('split');
    const split = reply as Split;
    expect(split.idsJson).toEqual(['"first"', 'null', '"third"']);
    expect(split.items.map((i: ItemTask) => i.toolsJson)).toEqual(['["look"]', '["look"]', '["look"]']);
    expect(split.items[2]!.toolFormat).toBe('text');
    const parts = split.items.map((item, i) => `{"id":${split.idsJson[i]},"result":${answer(splitting(item)).body}}`);
    expect(JSON.parse(`{"results":[${parts.join(',')}]}`)).toEqual(JSON.parse(answer(whole).body));
  });

  it('lets an item registry override the batch registry', () => {
    const reply = createTaskHandler({ maxBatch: 4, splitMinChars: 1, maxResponseBytes: 32 * 1024 * 1024 })(request({
      tools: ['look'],
      responses: [{ text: 'a' }, { text: 'b', tools: ['run'] }],
    }));
    expect((reply as Split).items.map((i) => i.toolsJson)).toEqual(['["look"]', '["run"]']);
  });
});

describe('transcripts', () => {
  it('answers one result per assistant message with its index and ids unique across messages', () => {
    const handle = createTaskHandler(LIMITS);
    const a = answer(handle(request({
      tools: ['look'],
      messages: [
        { role: 'system', content: 'You are a coder.' },
        { role: 'user', content: 'look at a.rs' },
        { role: 'assistant', content: CANONICAL_TEXT },
        { role: 'tool', content: 'fn main() {}' },
        { role: 'assistant', content: [{ type: 'text', text: CANONICAL_TEXT }, { type: 'image_url' }] },
        { role: 'assistant', content: null },
      ],
    })));
    expect(a.status).toBe(200);
    const { results } = JSON.parse(a.body) as { results: { index: number; result: unknown }[] };
    expect(results.map((r) => r.index)).toEqual([2, 4, 5]);
    const ids = results.flatMap((r) => {
      assertResultShape(r.result);
      return r.result.calls.map((c) => c.id);
    });
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it('reads text parts and ignores the others', () => {
    expect(contentText('abc')).toBe('abc');
    expect(contentText(null)).toBe('');
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }])).toBe('ab');
  });

  it('keeps a held call whose arguments are not a JSON object with {}, and says so in tool_parse_errors', () => {
    const plain = (text: string) => ({
      calls: [], prose: text, user_response: null, done_marker: null, canonical_text: '', tool_parse_errors: [],
      protocol_violations: [], dropped: [], recovered_from_stray_count: 0,
    });
    const [entry] = parseTranscript(
      [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', function: { name: 'look', arguments: '{bad json' } }, { id: 'c2', function: { name: 'look', arguments: '{"path": "a"}' } }] }],
      0,
      plain,
    );
    expect(entry!.result.calls.map((c) => [c.id, c.arguments])).toEqual([['c1', {}], ['c2', { path: 'a' }]]);
    expect(entry!.result.tool_parse_errors).toHaveLength(1);
    expect(entry!.result.tool_parse_errors[0]).toContain('c1');
    expect(entry!.result.tool_parse_errors[0]).toContain('{bad json');
  });

  it('renames an id that repeats across messages', () => {
    const fixed = (text: string, start: number) => ({
      calls: [{ id: 'tc_fnmarkup_run', name: 'run', arguments: { n: start } }],
      prose: text, user_response: null, done_marker: null, canonical_text: '', tool_parse_errors: [],
      protocol_violations: [], dropped: [], recovered_from_stray_count: 0,
    });
    const entries = parseTranscript(
      [{ role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'assistant', content: 'c' }],
      0,
      fixed,
    );
    expect(entries.map((e) => e.result.calls[0]!.id)).toEqual(['tc_fnmarkup_run', 'tc_fnmarkup_run_m1', 'tc_fnmarkup_run_m2']);
    expect(entries.map((e) => e.result.calls[0]!.arguments)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
  });
});

describe('registry cache', () => {
  it('normalises a registry once per distinct content and evicts the least recently used', () => {
    const cache = new ToolsCache(2);
    const a = cache.get('["look"]');
    expect(cache.get('["look"]')).toBe(a);
    cache.get('["run"]');
    cache.get('["look"]'); // refresh "look": "run" is now the oldest
    cache.get('["edit"]');
    expect(cache.size).toBe(2);
    expect(cache.get('["look"]')).toBe(a);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 3, misses: 3 });
    cache.get('["run"]');
    expect(cache.misses).toBe(4);
  });

  it('is hit by requests that send the same tools again', () => {
    const cache = new ToolsCache();
    const handle = createTaskHandler(LIMITS, cache);
    const tools = Array.from({ length: 40 }, (_, i) => ({ name: `tool_${i}`, parameters: { type: 'object', properties: { p: { type: 'string' } } } }));
    for (let i = 0; i < 5; i++) handle(request({ text: 'x', tools }));
    expect(cache.misses).toBe(1);
    expect(cache.hits).toBe(4);
  });

  it('answers a request whose tools are cached exactly as it answers it cold', () => {
    const toolsArb = fc.oneof(
      fc.constant(['look', 'run']),
      fc.constant([{ name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } }]),
      fc.constant({ tools: [{ name: 'edit' }] }),
      fc.constant([{ name: 1 }]), // rejected by normalizeTools: a 400 each time
      fc.constant(5), // rejected by the schema
      fc.constant(null),
    );
    const texts = [CANONICAL_TEXT, 'look({path: "a"}) and run({})', '<tool_call>edit({"p": 1})</tool_call>'];
    const bodyArb = fc.record({
      form: fc.constantFrom('single', 'batch', 'transcript', 'scan'),
      text: fc.oneof(fc.constantFrom(...texts), fc.constant(7)),
      tools: toolsArb,
      extra: fc.boolean(),
      toolsFirst: fc.boolean(),
      indent: fc.constantFrom(0, 2),
    });
    const shared = createTaskHandler(LIMITS);
    fc.assert(
      fc.property(bodyArb, ({ form, text, tools, extra, toolsFirst, indent }) => {
        const rest: Record<string, unknown> =
          form === 'batch' ? { responses: [{ id: 'a', text }, { text: CANONICAL_TEXT }] }
          : form === 'transcript' ? { messages: [{ role: 'assistant', content: text }] }
          : { text };
        if (extra) rest.unexpected = true;
        const body = toolsFirst ? { tools, ...rest } : { ...rest, tools };
        const raw = JSON.stringify(body, null, indent);
        const route = form === 'scan' ? 'scan' : 'parse';
        const cold = answer(createTaskHandler(LIMITS)(request(raw, route)));
        for (let i = 0; i < 2; i++) {
          const warm = answer(shared(request(raw, route)));
          expect({ status: warm.status, body: warm.body }).toEqual({ status: cold.status, body: cold.body });
        }
      }),
      { numRuns: 150 },
    );
  });

  it('takes the cached registry without decoding the tools again', () => {
    const cache = new ToolsCache();
    const handle = createTaskHandler(LIMITS, cache);
    const tools = '[{"name": "look"}]';
    expect(answer(handle(request(`{"text": ${JSON.stringify(CANONICAL_TEXT)}, "tools": ${tools}}`))).status).toBe(200);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 0, misses: 1 });
    // Same tools text, other spacing elsewhere: a hit keyed by the registry's own text.
    const again = answer(handle(request(`{ "tools": ${tools},\n "text": ${JSON.stringify(CANONICAL_TEXT)} }`)));
    expect(again.status).toBe(200);
    expect((JSON.parse(again.body) as { calls: { name: string }[] }).calls.map((c) => c.name)).toEqual(['look']);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 1 });
    // A malformed body around cached tools still reports the original position.
    const broken = `{"text": "x", "tools": ${tools}, }`;
    expect(errorOf(handle(request(broken))).message).toBe(errorOf(createTaskHandler(LIMITS)(request(broken))).message);
  });

  it('peeks without counting a miss, and forgets the latest text once it is evicted', () => {
    const cache = new ToolsCache(1);
    expect(cache.peek('["look"]')).toBeUndefined();
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 0, misses: 0 });
    const look = cache.get('["look"]');
    expect(cache.latestText).toBe('["look"]');
    expect(cache.peek('["look"]')).toBe(look);
    cache.get('["run"]'); // evicts "look"
    expect(cache.latestText).toBe('["run"]');
    expect(cache.peek('["look"]')).toBeUndefined();
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 2 });
  });

  it('does not keep a registry that failed to normalise', () => {
    const cache = new ToolsCache();
    expect(() => cache.get('[{"name": 1}]')).toThrow(TypeError);
    expect(cache.size).toBe(0);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new ToolsCache(0)).toThrow(/capacity/);
  });
});

describe('prototype safety', () => {
  it('keeps __proto__ and constructor in the body as plain data', () => {
    const handle = createTaskHandler(LIMITS);
    const error = errorOf(handle(request('{"text": "x", "__proto__": {"polluted": true}}')));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(error.message).toBe('body.__proto__ is not a known field');
    const tools = '[{"name": "look", "constructor": {"prototype": {"polluted": true}}, "__proto__": {"polluted": true}}]';
    const a = answer(handle(request(`{"text": ${JSON.stringify(CANONICAL_TEXT)}, "tools": ${tools}}`)));
    expect(a.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('keeps __proto__ in model text as an own key of the arguments', () => {
    const handle = createTaskHandler(LIMITS);
    const text = '<tool_call>look({"__proto__": {"x": 1}, "path": "a.rs"})</tool_call>';
    const a = answer(handle(request({ text, tools: ['look'] })));
    expect(a.status).toBe(200);
    const result: unknown = JSON.parse(a.body);
    assertResultShape(result);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    // the answer is JSON text: read it back with JSON.parse semantics, which keep own keys
    const args = result.calls[0]!.arguments;
    expect(Object.getOwnPropertyNames(args)).toContain('__proto__');
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(a.body).toContain('"__proto__":{"x":1}');
  });
});

describe('scan', () => {
  it('answers the units of one response', () => {
    const a = answer(createTaskHandler(LIMITS)(request({ text: CANONICAL_TEXT, tools: ['look'] }, 'scan')));
    expect(a.status).toBe(200);
    const body = JSON.parse(a.body) as { source: string; units: { kind: string; start: number; end: number }[] };
    expect(body.source).toBe(CANONICAL_TEXT);
    expect(body.units.length).toBeGreaterThan(0);
    for (const unit of body.units) {
      expect(typeof unit.kind).toBe('string');
      expect(unit.end).toBeGreaterThanOrEqual(unit.start);
    }
  });
});

describe('properties', () => {
  const handle = createTaskHandler(LIMITS);
  const codes = new Set<string>(Object.keys(ERROR_CATALOGUE));

  function checkAnswer(reply: WorkerReply): Answer {
    const a = answer(reply);
    const body = JSON.parse(a.body) as Record<string, unknown>;
    if (a.status === 200) return a;
    expect([400, 413]).toContain(a.status);
    expect(codes.has((body.error as { code: string }).code)).toBe(true);
    return a;
  }

  it('answers any bytes with a status and a JSON body, never a throw or a 500', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      checkAnswer(handle({ op: 'request', route: 'parse', body: bytes }));
    }), { numRuns: 200 });
  });

  it('answers any JSON value the same way', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      checkAnswer(handle(request(JSON.stringify(value) ?? 'null')));
    }), { numRuns: 200 });
  });

  it('parses any text into the documented result shape', () => {
    const pieces = fc.constantFrom('<tool_call>', '</tool_call>', 'look(', '{"path": "a.rs"}', ')', '__proto__', '"', '\n', '```', 'prose ');
    const text = fc.oneof(fc.string({ maxLength: 80 }), fc.array(pieces, { maxLength: 12 }).map((p) => p.join('')));
    fc.assert(fc.property(text, (t) => {
      const a = checkAnswer(handle(request({ text: t, tools: ['look'] })));
      expect(a.status).toBe(200);
      assertResultShape(JSON.parse(a.body));
    }), { numRuns: 150 });
  });
});

describe('hostile shapes', () => {
  it('answers a registry nested too deeply to serialise with a 400, not a crash', () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const error = errorOf(createTaskHandler(LIMITS)(request(`{"text": "x", "tools": ${deep}}`)));
    expect(error.status).toBe(400);
    expect(['invalid_tools', 'invalid_request']).toContain(error.code);
  });

  it('answers a deeply nested body with a 400', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const error = errorOf(createTaskHandler(LIMITS)(request(`{"text": "x", "extra": ${deep}}`)));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});
