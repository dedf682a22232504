import { describe, expect, it } from 'vitest';
import { EXCERPT_LIMIT, toolShapeFinding, toolShapeViolations } from './tool-shape.js';

const drop = (text: string, reason: 'salvaged_as_prose' | 'fenced_narration' | 'unparsed_call_block' = 'salvaged_as_prose') => ({ text, reason });

describe('tool-shape findings', () => {
  it('finds call markup anywhere in the rejoined drops, with a bounded excerpt', () => {
    const finding = toolShapeFinding([drop('Let me look.'), drop('<function=look>\n<parameter=file>a</parameter>', 'fenced_narration')]);
    expect(finding).toEqual({ shape: 'call_markup', dropped_reason: 'salvaged_as_prose', excerpt: '\u2026<function=look>\n<parameter=file>a</parameter>' });
  });

  it('finds a tag wrapping a call body, skipping protocol tags', () => {
    expect(toolShapeFinding([drop('<tool_call>run(x)</tool_call>')])).toBeNull();
    expect(toolShapeFinding([drop('<execute>run({"command": "ls"})</execute>')])?.shape).toBe('tagged_call_body');
    expect(toolShapeFinding([drop('<note>plain words</note>')])).toBeNull();
  });

  it('finds JSON with name and arguments keys', () => {
    const finding = toolShapeFinding([drop('{"name": "run", "arguments": {"command": "ls"}}')]);
    expect(finding?.shape).toBe('json_name_arguments');
    expect(finding?.excerpt.startsWith('\u2026"name"')).toBe(true);
  });

  it('ignores drops that already carry a diagnostic', () => {
    expect(toolShapeFinding([drop('<function=run>', 'unparsed_call_block')])).toBeNull();
  });

  it('truncates long excerpts', () => {
    const finding = toolShapeFinding([drop(`[TOOL_CALLS]${'x'.repeat(400)}`)]);
    expect(finding?.excerpt).toHaveLength(EXCERPT_LIMIT + 1);
    expect(finding?.excerpt.endsWith('\u2026')).toBe(true);
  });

  it('turns the finding into one unparsed_tool_syntax violation naming the taught syntax', () => {
    const [violation, ...rest] = toolShapeViolations([drop('<invoke name="run">')], 'json');
    expect(rest).toEqual([]);
    expect(violation?.kind).toBe('unparsed_tool_syntax');
    expect(violation?.dropped_reason).toBe('salvaged_as_prose');
    expect(violation?.message.startsWith('unparsed_tool_syntax:')).toBe(true);
    expect(violation?.message).toContain('```tool');
    expect(toolShapeViolations([drop('just words')], 'text')).toEqual([]);
  });

  it('reads many distinct unclosed tags without a finding', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `<t${i}>`).join(' ');
    expect(toolShapeFinding([drop(text)])).toBeNull();
  });
});
