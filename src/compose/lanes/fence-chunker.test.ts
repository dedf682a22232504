import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fenceInfoIntent, jsonChunks } from './fence-chunker.js';
import { jsonFenceKind } from './fence-info.js';
import { JsonProgress } from './json-progress.js';

describe('fence info', () => {
  it('reads the tagged lane intent', () => {
    expect(fenceInfoIntent('tool')).toBe('canonical');
    expect(fenceInfoIntent(' TOOL ')).toBe('canonical');
    expect(fenceInfoIntent('tool python')).toBe('canonical');
    expect(fenceInfoIntent('tool-x')).toBe('canonical');
    expect(fenceInfoIntent('tool_code')).toBe('drift');
    expect(fenceInfoIntent('json')).toBe('drift');
    expect(fenceInfoIntent('tools')).toBe('');
    expect(fenceInfoIntent('python')).toBe('');
  });

  it('reads the JSON lane kind: only ```tool is clean; ~~~tool and drift spellings are reported', () => {
    expect(jsonFenceKind('```', 'tool')).toEqual({ tool: true, drift: null });
    expect(jsonFenceKind('~~~', 'tool')).toEqual({ tool: true, drift: '~~~tool' });
    expect(jsonFenceKind('```', 'Tool Python')).toEqual({ tool: true, drift: '```tool python' });
    expect(jsonFenceKind('```', 'function_call')).toEqual({ tool: true, drift: '```function_call' });
    expect(jsonFenceKind('```', 'rust')).toEqual({ tool: false });
  });
});

describe('jsonChunks', () => {
  it('splits tool bodies from prose and returns documentation fences to prose verbatim', () => {
    const chunks = jsonChunks('Intro\n```tool\n{"a": 1}\n```\n```rust\nfn x() {}\n```\nOutro');
    expect(chunks.bodies).toEqual(['{"a": 1}']);
    expect(chunks.prose).toBe('Intro\n```rust\nfn x() {}\n```\nOutro');
    expect(chunks.violations).toEqual([]);
  });

  it('closes an open tool fence at the end and returns an open documentation fence to prose', () => {
    expect(jsonChunks('```tool\n{"a": 1}').bodies).toEqual(['{"a": 1}']);
    const doc = jsonChunks('```python\nprint(1)');
    expect(doc.bodies).toEqual([]);
    expect(doc.prose).toBe('```python\nprint(1)');
  });

  it('a second ```tool line closes the current body and opens the next', () => {
    expect(jsonChunks('```tool\n{"a": 1}\n```tool\n{"b": 2}\n```').bodies).toEqual(['{"a": 1}', '{"b": 2}']);
    const drifted = jsonChunks('```tool\n{"a": 1}\n```tool_code\n{"b": 2}\n```');
    expect(drifted.bodies).toEqual(['{"a": 1}', '{"b": 2}']);
    expect(drifted.violations.map((v) => v.kind)).toEqual(['fence_dialect']);
    const doc = jsonChunks('```tool\n{"a": 1}\n```tools list\nnot a call\n```');
    expect(doc.bodies).toEqual(['{"a": 1}']);
    expect(doc.prose).toBe('```tools list\nnot a call\n```');
  });

  it('keeps a fence line inside a still-open JSON value as content', () => {
    expect(jsonChunks('```tool\n{"a":\n```\n1}\n```').bodies).toEqual(['{"a":\n```\n1}']);
  });

  it('keeps counted and uncounted verbatim bodies whole, fences included', () => {
    const counted = jsonChunks('```tool\n{"c": "<<T:2"}\n<<T:2\n```\n```tool\nT\n```');
    expect(counted.bodies).toEqual(['{"c": "<<T:2"}\n<<T:2\n```\n```tool\nT']);
    const uncounted = jsonChunks('```tool\n{"c": "<<EOF"}\n<<EOF\n```\nEOF\n```\nafter');
    expect(uncounted.bodies).toEqual(['{"c": "<<EOF"}\n<<EOF\n```\nEOF']);
    expect(uncounted.prose).toBe('after');
    const unusable = jsonChunks('```tool\n{"c": "<<C:99999999999999999999"}\n<<C:99999999999999999999\nbody\nC\n```\nafter');
    expect(unusable.bodies).toEqual(['{"c": "<<C:99999999999999999999"}\n<<C:99999999999999999999\nbody\nC']);
    expect(unusable.prose).toBe('after');
  });

  it('takes a bare JSON turn as the only body, with a bare_json violation', () => {
    const chunks = jsonChunks('  [{"name": "a"}]  ');
    expect(chunks.bodies).toEqual(['[{"name": "a"}]']);
    expect(chunks.prose).toBe('');
    expect(chunks.violations.map((v) => [v.kind, v.excerpt])).toEqual([['bare_json', '[{"name": "a"}]']]);
  });

  it('records fence_dialect when a drifted fence opens, before its body is read', () => {
    const chunks = jsonChunks('~~~tool\nnot json\n~~~');
    expect(chunks.bodies).toEqual(['not json']);
    expect(chunks.violations.map((v) => v.kind)).toEqual(['fence_dialect']);
  });

  it('is linear: 8x the input is about 8x the lines visited and characters tracked', () => {
    // Adversarial shape: an open JSON value followed by many fence lines (each one a close
    // candidate) and many prose lines.
    const unit = '```tool\n{"a": [\n```\n```\n' + 'x\n'.repeat(20);
    const small = jsonChunks(unit.repeat(50));
    const large = jsonChunks(unit.repeat(400));
    expect(large.steps / small.steps).toBeGreaterThan(7.5);
    expect(large.steps / small.steps).toBeLessThan(8.5);
    const tracked = (text: string) => {
      const progress = new JsonProgress();
      for (const line of text.split('\n')) progress.feedLine(line);
      return progress.steps;
    };
    const nested = '{"k": "' + 'v'.repeat(30) + '", "n": [1, 2, {"x": null}],\n';
    expect(tracked(nested.repeat(800)) / tracked(nested.repeat(100))).toBeLessThanOrEqual(8);
  });

  it('never throws and keeps every non-fence prose line (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('`', '~', '{', '}', '"', '\n', 't', 'o', 'l', '<', '<<T:1', 'T', ' ', 'x') }), (text) => {
        const chunks = jsonChunks(text);
        expect(typeof chunks.prose).toBe('string');
        expect(chunks.steps).toBe(text.split('\n').length);
      }),
    );
  });
});
