import { describe, expect, it } from 'vitest';
import type { ReferenceCase } from './cases.js';
import { projectTools, runEntry } from './entries.js';

function caseOf(entry: string, options: Record<string, unknown> = {}): ReferenceCase {
  return { id: 't::x', entry, kind: 'compose', informational: false, input: 'hello', tools: null, options, checks: [], note: '' };
}

describe('projectTools', () => {
  it('maps the vectors tool shape onto the project registry shape', () => {
    const tools = [{ name: 'run', parameters: { type: 'object' }, other: { description: 'Run it.', harn_parameters: {} } }, { name: 'look' }];
    expect(projectTools(tools)).toEqual([
      { name: 'run', description: 'Run it.', parameters: { type: 'object' } },
      { name: 'look', parameters: undefined },
    ]);
    expect(projectTools(null)).toBeUndefined();
  });
});

describe('runEntry', () => {
  it('reports an entry no project function covers as missing, not as a crash', async () => {
    await expect(runEntry(caseOf('normalize_tool_args'))).resolves.toEqual({
      status: 'missing',
      reason: 'no project function covers entry normalize_tool_args',
    });
  });
  it('turns a spec validation failure into {ok: false, error} for ScanSpec::from_json', async () => {
    const run = await runEntry(caseOf('ScanSpec::from_json', { block_tags: [] }));
    // only meaningful once src/scan exports validateScanSpec; until then it is reported missing
    if (run.status === 'missing') return expect(run.reason).toContain('validateScanSpec');
    expect(run.status).toBe('ran');
    expect(run.status === 'ran' && (run.result as { ok: boolean }).ok).toBe(false);
  });
});
