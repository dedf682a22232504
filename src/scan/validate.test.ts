import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { scanUnits } from './scanner.js';
import { isValidatedScanSpec, validateScanSpec } from './validate.js';

type Mutable = Record<string, unknown> & { harmony: Record<string, unknown> };

function standard(): Mutable {
  return JSON.parse(JSON.stringify(buildScanSpec(['look']))) as Mutable;
}

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('validateScanSpec', () => {
  it('accepts the standard spec and returns a frozen, validated copy', () => {
    const input = standard();
    const spec = validateScanSpec(input);
    expect(spec).not.toBe(input);
    expect(Object.isFrozen(spec) && Object.isFrozen(spec.harmony) && Object.isFrozen(spec.call_tags)).toBe(true);
    expect(isValidatedScanSpec(spec)).toBe(true);
    expect(isValidatedScanSpec(input)).toBe(false);
    expect(validateScanSpec(spec)).toBe(spec);
    expect(spec.call_tags).toEqual(['tool_call', 'toolcall']);
  });

  it('defaults strip_thinking to true when absent or null, and keeps false', () => {
    const absent = standard();
    delete absent.strip_thinking;
    expect(validateScanSpec(absent).strip_thinking).toBe(true);
    expect(validateScanSpec({ ...standard(), strip_thinking: null }).strip_thinking).toBe(true);
    expect(validateScanSpec({ ...standard(), strip_thinking: false }).strip_thinking).toBe(false);
  });

  it('names the first missing field, in the reference order', () => {
    const spec = standard();
    delete spec.call_tags;
    delete spec.known_tools;
    const message = messageOf(() => validateScanSpec(spec));
    expect(message).toContain('spec.call_tags');
    expect(message).toContain('required');
  });

  it('names nested harmony fields with their full path', () => {
    const spec = standard();
    delete spec.harmony.standalone_markers;
    expect(messageOf(() => validateScanSpec(spec))).toContain('spec.harmony.standalone_markers');
  });

  const wrongTypes: [string, (spec: Mutable) => void, string][] = [
    ['spec itself', () => {}, 'spec must be a dict'],
    ['a list field', (s) => (s.block_tags = 'done'), 'spec.block_tags must be a list; got string'],
    ['a list entry', (s) => (s.wrapper_tags = ['x', 3]), 'spec.wrapper_tags[1] must be a string; got number'],
    ['harmony', (s) => ((s as Record<string, unknown>).harmony = []), 'spec.harmony must be a dict; got list'],
    ['a harmony string', (s) => (s.harmony.frame_prefix = 1), 'spec.harmony.frame_prefix must be a string; got number'],
    ['a markup entry', (s) => (s.markup_openers = ['<f=']), 'spec.markup_openers[0] must be a dict'],
    ['a markup close', (s) => (s.markup_openers = [{ opener: '<f=' }]), 'spec.markup_openers[0].close is required'],
    ['strip_thinking', (s) => (s.strip_thinking = 'yes'), 'spec.strip_thinking must be a bool; got string'],
    ['known_tools', (s) => (s.known_tools = { look: true }), 'spec.known_tools must be a list; got dict'],
  ];
  for (const [what, mutate, expected] of wrongTypes) {
    it(`rejects a wrong type: ${what}`, () => {
      const spec = standard();
      mutate(spec);
      const input = what === 'spec itself' ? ['not', 'a', 'dict'] : spec;
      expect(messageOf(() => validateScanSpec(input))).toContain(expected);
    });
  }

  const emptyStrings: [string, (spec: Mutable) => void, string][] = [
    ['message_marker (the reference loops forever)', (s) => (s.harmony.message_marker = ''), 'spec.harmony.message_marker'],
    ['markup close (the reference emits an empty unit)', (s) => (s.markup_openers = [{ opener: '<f=', close: '' }]), 'spec.markup_openers[0].close'],
    ['markup opener', (s) => (s.markup_openers = [{ opener: '', close: '</f>' }]), 'spec.markup_openers[0].opener'],
    ['a call tag', (s) => (s.call_tags = ['tool_call', '']), 'spec.call_tags[1]'],
    ['a reserved opener', (s) => (s.reserved_openers = ['']), 'spec.reserved_openers[0]'],
    ['frame_prefix', (s) => (s.harmony.frame_prefix = ''), 'spec.harmony.frame_prefix'],
    ['tool_call_header_prefix', (s) => (s.harmony.tool_call_header_prefix = ''), 'spec.harmony.tool_call_header_prefix'],
    ['a known tool', (s) => (s.known_tools = ['']), 'spec.known_tools[0]'],
  ];
  for (const [what, mutate, path] of emptyStrings) {
    it(`rejects an empty string: ${what}`, () => {
      const spec = standard();
      mutate(spec);
      const message = messageOf(() => validateScanSpec(spec));
      expect(message).toContain(path);
      expect(message).toContain('non-empty');
    });
  }

  it('ignores extra keys and accepts empty lists', () => {
    const spec = { ...standard(), call_tags: [], extra: 1, harmony: { ...standard().harmony, more: true } };
    const validated = validateScanSpec(spec);
    expect(validated.call_tags).toEqual([]);
    expect('extra' in validated).toBe(false);
    expect(scanUnits('[[CALL]look({})', validated).units.map((u) => u.kind)).toEqual(['text']);
  });

  it('scanUnits rejects a non-string text and an invalid spec with a TypeError', () => {
    expect(() => scanUnits(42 as unknown as string, buildScanSpec())).toThrow(TypeError);
    expect(() => scanUnits('x', {} as never)).toThrow(/spec\.call_tags/);
  });
});
