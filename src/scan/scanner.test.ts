import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { tilingViolation } from './invariants.js';
import { scanUnits } from './scanner.js';
import type { AngleCallUnit, ScanSpec, Unit } from './types.js';
import { validateScanSpec } from './validate.js';

const spec = validateScanSpec(buildScanSpec(['look', 'edit', 'run']));

function scan(text: string): Unit[] {
  const result = scanUnits(text, spec);
  expect(tilingViolation(result)).toBeNull();
  return result.units;
}

describe('scanUnits', () => {
  it('reports UTF-16 offsets (an emoji is two code units)', () => {
    const text = '😀 hi\n<tool_call>look({ path: "é😀" })</tool_call>';
    const [prose, block] = scan(text);
    expect(prose).toMatchObject({ kind: 'text', start: 0, end: 6 });
    expect(block).toMatchObject({ kind: 'block', start: 6, end: text.length, body: 'look({ path: "é😀" })' });
  });

  it('keeps __proto__ in angle-call arguments as an own key', () => {
    const [unit] = scan('<look({ "__proto__": { "x": 1 } })>') as [AngleCallUnit];
    expect(unit.kind).toBe('angle_call');
    expect(Object.prototype.hasOwnProperty.call(unit.arguments, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(unit.arguments)).toBe(Object.prototype);
    expect(JSON.stringify(unit.arguments)).toBe('{"__proto__":{"x":1}}');
  });

  it('attaches the call head to every body-carrying unit, and reserved only when true', () => {
    const units = scan('<tool_call>look({})</tool_call>\n<done>x({})</done>\n<tool_call>\nedit{ a: 1 }');
    expect(units.map((u) => [u.kind, 'head_name' in u ? u.head_name : null, 'head_sep' in u ? u.head_sep : null])).toEqual([
      ['block', 'look', '('],
      ['block', 'x', '('],
      ['unclosed_block', 'edit', '{'],
    ]);
    expect(units.some((u) => 'reserved' in u)).toBe(false);
    const [reserved] = scan('[[CALL]run({})');
    expect(reserved).toMatchObject({ kind: 'unclosed_block', tag: 'tool_call', reserved: true, head_name: 'run' });
  });

  it('an unclosed reserved stub resyncs on raw characters, a real call block on the string-aware bound', () => {
    const rest = 'run({ a: "x\n<tool_call>\n" })\n<tool_call>\nlook({})\n</tool_call>';
    const [stub] = scan(`[[CALL]${rest}`);
    expect(stub).toMatchObject({ kind: 'unclosed_block', reserved: true, body: 'run({ a: "x\n' });
    const [call] = scan(`<tool_call>${rest}`);
    expect(call).toMatchObject({ kind: 'unclosed_block', body: 'run({ a: "x\n<tool_call>\n" })\n' });
  });

  it('units are plain JSON-able records', () => {
    const result = scanUnits('Intro.\n<tool_call>look({})</tool_call>\n<notes>\n<look({ a: [1, "b"] })>', spec);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('a validated spec is compiled once and reused', () => {
    const a = scanUnits('<tool_call>look({})</tool_call>', spec);
    const b = scanUnits('<tool_call>look({})</tool_call>', spec);
    expect(a).toEqual(b);
  });
});

describe('reserved openers from the spec', () => {
  it('compare the whole last code point, not its last UTF-16 unit', () => {
    const custom = validateScanSpec({ ...buildScanSpec(['look']), reserved_openers: ['[[CALL😀'] });
    expect(scanUnits('[[CALL😀😀look({})', custom).units.map((u) => u.kind)).toEqual(['text']);
    expect(scanUnits('[[CALL😀look({})', custom).units[0]).toMatchObject({ kind: 'unclosed_block', reserved: true, body: 'look({})' });
  });
});

describe('raw specs', () => {
  it('follow the spec object as it is now, not as it was at an earlier scan', () => {
    const raw = buildScanSpec(['look']) as { -readonly [K in keyof ScanSpec]: ScanSpec[K] };
    expect(scanUnits('<action>look({})</action>', raw).units[0]?.kind).toBe('tag');
    raw.call_tags = ['action'];
    expect(scanUnits('<action>look({})</action>', raw).units[0]).toMatchObject({ kind: 'block', tag: 'action' });
    raw.call_tags = [''];
    expect(() => scanUnits('x', raw)).toThrow(/spec\.call_tags\[0\]/);
  });
});
