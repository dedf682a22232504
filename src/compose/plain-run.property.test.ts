import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { normalizeTools, type ToolRegistry } from '../dialects/registry.js';
import { validateScanSpec } from '../scan/index.js';
import { parseToolCalls } from './parse.js';
import { composeContext, type Profile } from './context.js';
import { laneMarkers } from './plain-piece.js';
import { registeredNames } from './field/admit.js';
import { LineIs, plainLineClassifier, plainRunEnd, type LineClassifier } from './plain-run.js';
import { maySniffCall } from './sniff-gate.js';
import { plainRunResult, taggedLane } from './tagged-lane.js';
import { toolShapeFinding } from './tool-shape.js';
import { withoutQuotedMarkupLines } from '../lex/inline-code.js';

// Pieces that, joined at random, make lines of every kind: prose, line calls and native payloads
// the sniffer runs, fences, protocol fragments, markers, and the blanks `trim` removes.
const PIECES = [
  'look', 'run', 'I will read it', 'I will read it', 'It is 4.', 'It is 4.', 'Hint:', 'call:', 'return ', 'x', '1', ',', ':', '.', ' ', '\t', '\n', '\n', '\n',
  '\r', '\u00a0', '\u2028', '\ufeff', '(', ')', '{', '}', '"', "'", '`', '```tool\n', '~~~\n', '>', '_call>', 'user_response>',
  '{"name": "look", "arguments": {"path": "a"}}', 'look({"path": "a"})', 'run(command="ls")', '<b>', '</b>', '[x](y)',
  '<user_response>', '</user_response>', '<tool_call>', '[TOOL_CALLS]',
  // Markdown and near-markers: inline code, links, a lone brace or tilde, marker prefixes.
  '`', '``', '`look`', '`look(x)`', '~', '~~', '[', ']', '[[', '[[CALL]', '[TOOL_CALLS', '[look(path="a")]', '{x}', '{', '{ ', '"', '{"',
  // Fenced blocks and their lines: openers with and without an info, closers, the canonical tool fence.
  '```python\n', '```\n', '```\n', '  ```json\n', '~~~\n', '````\n', '```tool\n', 'x = 1\n', '{\n', '\n"name": "look"',
  // Angle brackets: comparisons, generics, inline HTML, frames, heredocs and the ladder's tags mid-line.
  ' < ', '<', 'a<b', 'Vec<u8>', '<br>', ' <b>', '<=', '<|', '<|start|>', '<<', '<<EOF\n', '<think>', '</think>', '<done>', '<thinking>', '<tool>', '<look(x)>',
  '</function>', '<invoke name="x">', '<function=look>', '</parameter>', '<｜tool▁call▁end｜>',
  // Call look-alikes: plain only where no registered name (nor, with a registry, an unknown name's
  // object argument) makes the sniffer read a call or an error.
  'print(x)', 'print(x)\n', 'frob(', 'frob({ a: 1 })', 'frob{ a: 1 }', 'look{', 'look(', 'result = get_data(a=1)\n', '[frob(a=1)]', ' [look(path="a")]',
  'Sure: [frob(a=1), look(path="a")]', 'Hint: ', 'tool_code: ', '  ', '$look(', 'functions.look(',
  // Tags quoted as inline code, a mention mid-line.
  'Use the `<tool_call>` tag', ' `</function>`', 'a `<invoke name="x">`',
  // Closes named between words, and leaked ones glued to the text or ending the line.
  'then close it with </tool_call> and wait', ' </function>.', ' "</tool_call>" ', 'done.</tool_call>', ' </invoke>',
];

const tools = normalizeTools(['look', 'run']);
const REGISTRIES = [null, tools];

/** The gateway's classifier for `registry`, as tagged-lane.ts builds it. */
function classifierOf(registry: ToolRegistry | null): LineClassifier {
  return plainLineClassifier(laneMarkers(validateScanSpec(buildScanSpec(registry))), registry === null ? null : new Set(registeredNames(registry)));
}

describe('plain run: the leading lines of a gateway rest piece, read on their own', () => {
  it('reads as the run trimmed, with no call and no diagnostic, and each of its lines is plain alone', () => {
    let runs = 0;
    let split = 0;
    let allPlain = 0;
    let angled = 0;
    let lookAlikes = 0;
    let quoted = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }), fc.constantFrom(0, 1), (pieces, which) => {
        const registry = REGISTRIES[which]!;
        const test = classifierOf(registry);
        const text = pieces.join('');
        const end = plainRunEnd(text, test);
        const run = text.slice(0, end);
        if (run.trim() !== '') runs++;
        if (end > 0 && end < text.length) split++;
        for (const line of run.split(/(?<=\n)/)) expect(test(line) & LineIs.NotPlain).toBe(0);
        // The whole-text shortcut says yes only where every line is plain with nothing held.
        if (test.allPlain(text)) {
          allPlain++;
          const held = LineIs.NotPlain | LineIs.BacktickFence | LineIs.TildeFence | LineIs.BraceOpenAtEnd;
          for (const line of text.split(/(?<=\n)/)) expect(test(line) & held).toBe(0);
        }
        if (end < text.length) expect(text.charCodeAt(end - 1) === 0x0a || end === 0).toBe(true);
        // Nothing in a run reads as call syntax to the drop ledger's check (a grammar's tag is never prose).
        expect(toolShapeFinding([{ text: run, reason: 'salvaged_as_prose' }], { fieldGrammars: true })).toBeNull();
        // The run is the gateway's; `harn` (whose sniffer knows more names and folds aliases) reads
        // it the same where the sniffer has nothing to look at.
        if (maySniffCall(run)) lookAlikes++;
        // A tag quoted in prose (inline code, a close between words) is plain to the gateway only (lex/inline-code.ts):
        // the reference's walk reads it as a stray tag, so the whole parse is what must hold.
        if (withoutQuotedMarkupLines(run) !== run) {
          quoted++;
          const parsed = parseToolCalls(run, registry === null ? {} : { tools: ['look', 'run'] });
          // A reasoning close the field lane reads mid-line (`look < </think> </function>.`) cuts
          // the line before the rest lane sees it: what follows begins the answer (where a
          // line-start look-alike counts) and a quote there begins its piece, with no word before it.
          if (parsed.reasoning !== null) return;
          expect(parsed.calls).toEqual([]);
          expect(parsed.tool_parse_errors).toEqual([]);
          expect(parsed.protocol_violations).toEqual([]);
          // A reasoning open quoted as inline code is a mention region of its own line (field
          // lane), whose prose joins the lines before it by a blank line, as pieces' prose does.
          const lines = (t: string): string => t.replace(/\n[ \t\r]*\n/g, '\n');
          expect(lines(parsed.prose)).toBe(lines(run.trim()));
          return;
        }
        for (const profile of (maySniffCall(run) ? ['gateway'] : ['gateway', 'harn']) as Profile[]) {
          const ctx = composeContext(registry, 'text', null, profile);
          const read = taggedLane(run, ctx);
          expect(read.calls).toEqual([]);
          expect(read.tool_parse_errors).toEqual([]);
          expect(read.protocol_violations).toEqual([]);
          if (!run.includes('<')) {
            expect(plainRunResult(run, ctx)).toEqual(read);
            expect(read.prose).toBe(run.trim());
            continue;
          }
          // A mid-line `<` ends the scanner's text run, so the walk reads the line as two pieces
          // of narration; the plain run keeps it one. Same characters, nothing else found.
          angled++;
          const plain = plainRunResult(run, ctx);
          expect(plain.prose).toBe(run.trim());
          expect(read.dropped.every((d) => d.reason === 'salvaged_as_prose' || d.reason === 'fenced_narration')).toBe(true);
          const squeeze = (t: string): string => t.replace(/\s+/g, '');
          expect(squeeze(read.dropped.map((d) => d.text).join(''))).toBe(squeeze(run));
          expect(squeeze(read.prose)).toBe(squeeze(run));
        }
      }),
      // A fixed seed, so that a run of the suite is reproducible: random seeds found the case of
      // the nested-list test below, a whole-parse reading the classifier did not foresee.
      { numRuns: 4000, seed: 20261206 },
    );
    // Not vacuous: many texts have a run, and some end it before their end.
    expect(runs).toBeGreaterThan(600);
    expect(split).toBeGreaterThan(200);
    expect(allPlain).toBeGreaterThan(200);
    expect(angled).toBeGreaterThan(100);
    // Runs the registry-blind gate would have ended: a look-alike whose names the sniffer does not take.
    expect(lookAlikes).toBeGreaterThan(100);
    expect(quoted).toBeGreaterThan(20);
  });

  // Found by the property above with a random seed: a line opening with `[` went to the
  // pythonic list reader, whose lenient rung took everything up to a nested list's `)` as one
  // failed item and kept the call after it, while the classifier called the line plain. A failed
  // item now ends only at a `)` outside any list it opened (lex/py-call.ts `nextSibling`).
  it('a line opening with `[` whose nested list ends with a registered call reads as plain prose', () => {
    const text = '[TOOL_CALLSlook({"path": "a"}) "</tool_call>" Sure: [frob(a=1), look(path="a")]';
    const test = classifierOf(tools);
    expect(plainRunEnd(text, test)).toBe(text.length);
    expect(parseToolCalls(text, { tools: ['look', 'run'] }).calls).toEqual([]);
  });

  it('ends at a line holding a marker, a brace, a fence, a line call or a protocol fragment', () => {
    const test = classifierOf(tools);
    for (const line of ['<b>bold</b> a', '  < b', 'a <think> b', 'a <|start|>x', 'a <<EOF', 'it <look(x)>', 'see {"a": 1}', 'see {\n"a": 1}', 'a ```tick', '~~~', 'look(path="a")', 'it is foo_CALL>', '[TOOL_CALLS]x', 'a [[CALL] b']) {
      const text = `First line.\n\n${line}\nLast.`;
      expect(plainRunEnd(text, test)).toBe('First line.\n\n'.length);
    }
    expect(plainRunEnd('All plain.\nTwo (see below): fine.', test)).toBe('All plain.\nTwo (see below): fine.'.length);
    // A `<` mid-line starts nothing: comparisons, generics, inline HTML.
    const angles = 'If a < b and c <= d,\nuse `Vec<u8>` or a <br> tag.';
    expect(plainRunEnd(angles, test)).toBe(angles.length);
  });

  it('ends where the walk would read a call or a tag body: after a trimmed blank, across a tag\'s lines', () => {
    const none = classifierOf(null);
    // The walk trims its text the JavaScript way: a BOM or a no-break space leads a line call,
    // and with no registry a list alone in the text is calls whatever its names.
    expect(plainRunEnd('\ufefffrob({ a: 1 })', classifierOf(tools))).toBe(0);
    expect(plainRunEnd('\u00a0[look(path="a")]', none)).toBe(0);
    expect(plainRunEnd('</tool_call>[ run(x=1)]', classifierOf(tools))).toBe(0);
    // A tag opened on one line wraps what follows until its close: the run ends before a
    // look-alike after it, or before the close once a bracket stood between them.
    expect(plainRunEnd('look <b>print(x)\nlook</b>', none)).toBe(0);
    expect(plainRunEnd('look <b>\nprint(x)\nlook</b>', none)).toBe('look <b>\n'.length);
    expect(plainRunEnd('look<b>It is 4.print(x)\nlook</b>', none)).toBe('look<b>It is 4.print(x)\n'.length);
    const untagged = 'It is 4.print(x)\nlook</b>';
    expect(plainRunEnd(untagged, none)).toBe(untagged.length);
  });

  it('takes a fenced block whole once its closing fence line comes, and a brace open at a line\'s end once no payload follows', () => {
    const test = classifierOf(tools);
    const before = 'Code:\n';
    for (const [text, end] of [
      [`${before}\`\`\`py\nx = 1\n\`\`\`\nAfter.`, -1],
      [`${before}~~~\nfn f() {\n  let y = x + 1;\n}\n~~~\n`, -1],
      [`${before}\`\`\`py\nx = 1\n`, before.length],
      [`${before}\`\`\`py\nlook(path="a")\n\`\`\`\n`, before.length],
      [`${before}\`\`\`tool\nx = 1\n\`\`\`\n`, before.length],
      [`${before}\`\`\`py\nx\n~~~\n\`\`\`\n`, before.length],
      [`${before}A set {\n\n  a, b }\n`, -1],
      [`${before}An object {\n\n  "name": "look"}\n`, before.length],
      [`${before}Open {`, -1],
    ] as const) {
      expect(plainRunEnd(text, test)).toBe(end < 0 ? text.length : end);
    }
  });

  it('goes on through Markdown that starts nothing: inline code, links, a brace with text after it, a tilde', () => {
    const test = classifierOf(tools);
    const text = 'Run `npm test` first.\nSee [the guide](https://x.y/a_b) and [1].\nA set {a, b} of ~5 items.\n';
    expect(plainRunEnd(text, test)).toBe(text.length);
  });
});

describe('gateway: the plain run keeps its prose whatever follows in its piece', () => {
  it('keeps the lines before a response block, an unknown tag or a broken call block', () => {
    const lines = 'Here is what I found.\nIt is short.\n';
    expect(parseToolCalls(`${lines}<user_response>Done.</user_response>`).prose).toBe('Here is what I found.\nIt is short.\n\nDone.');
    const tagged = parseToolCalls(`${lines}<b>bold</b> words`);
    expect(tagged.prose.startsWith('Here is what I found.\nIt is short.')).toBe(true);
    expect(tagged.protocol_violations.map((v) => v.kind)).toContain('unknown_tag');
    expect(parseToolCalls(`${lines}<tool_call>{"name": "look", bad</tool_call>`, { tools: ['look'] }).prose).toBe('Here is what I found.\nIt is short.');
  });

  it('keeps a closed code block before a line call as prose (the reference deletes it as a call attempt)', () => {
    const text = 'Here is the plan:\n```sh\nnpm test\n```\nlook({"path": "a.rs"})\n';
    const gateway = parseToolCalls(text, { tools: ['look'] });
    expect(gateway.calls.map((c) => c.name)).toEqual(['look']);
    expect(gateway.prose).toBe('Here is the plan:\n```sh\nnpm test\n```');
    const harn = parseToolCalls(text, { tools: ['look'], profile: 'harn' });
    expect(harn.calls.map((c) => c.name)).toEqual(['look']);
    expect(harn.prose).not.toContain('npm test');
  });

  it('keeps a code block of unregistered look-alikes as prose before a line call; a registered name in it ends the run', () => {
    const text = 'Here is the fix:\n```python\nprint(x)\nitems.sort(key=len)\n```\nlook({"path": "a.rs"})\n';
    const gateway = parseToolCalls(text, { tools: ['look'] });
    expect(gateway.calls.map((c) => c.name)).toEqual(['look']);
    expect(gateway.prose).toBe('Here is the fix:\n```python\nprint(x)\nitems.sort(key=len)\n```');
    // `print` registered: `print(x)` may be a call, so the block is read with what follows it;
    // a positional argument is no call the gateway reads, and the code block stays prose.
    const registered = parseToolCalls(text, { tools: ['look', 'print'] });
    expect(registered.calls.map((c) => c.name)).toEqual(['look']);
    expect(registered.prose).toBe('Here is the fix:\n\n```python\nprint(x)\nitems.sort(key=len)\n```');
    expect(registered.tool_parse_errors).toEqual([]);
    const test = classifierOf(normalizeTools(['look']));
    expect(plainRunEnd(text, test)).toBe(text.indexOf('look('));
    expect(plainRunEnd(text, classifierOf(normalizeTools(['look', 'print'])))).toBe('Here is the fix:\n'.length);
    expect(plainRunEnd('frob({ a: 1 })\n', classifierOf(null))).toBe('frob({ a: 1 })\n'.length);
    expect(plainRunEnd('frob({ a: 1 })\n', test)).toBe(0);
  });

  it('leaves harn as the reference reads it: a response block replaces the untagged text', () => {
    expect(parseToolCalls('Here is what I found.\n<user_response>Done.</user_response>', { profile: 'harn' }).prose).toBe('Done.');
  });
});
