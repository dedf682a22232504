import { describe, expect, it } from 'vitest';
import { nestedXml } from './nested-xml.js';
import { sample } from './registries.spec.js';

describe('nestedXml', () => {
  it('reads `<name>{json}</name>` and entity-decodes the arguments (Ex41)', () => {
    const r = nestedXml('<edit>{"action":"create","path":"a.ts","content":"x =&gt; x"}</edit>', sample());
    expect(r).toEqual({
      matched: true,
      ok: true,
      call: { id: 'tc_xml_edit', name: 'edit', arguments: { action: 'create', path: 'a.ts', content: 'x => x' } },
    });
  });

  it('ignores whatever follows the object', () => {
    for (const tail of ['</edit>', '</run>', '</tool_call>', '', ' trailing prose']) {
      expect(nestedXml(`<edit>\n{"path":"a"}${tail}`, sample()), tail).toMatchObject({ ok: true, call: { arguments: { path: 'a' } } });
    }
  });

  it('is not matched without a bare open tag followed by `{`', () => {
    for (const body of ['<edit path="a">{"x":1}</edit>', '<edit>text</edit>', 'edit({})', '<1x>{}', '< edit>{}', '']) {
      expect(nestedXml(body, sample()), body).toEqual({ matched: false });
    }
  });

  it('diagnoses an unregistered tag name, listing the registry', () => {
    const r = nestedXml('<frob>{"a":1}</frob>', sample());
    expect(r).toMatchObject({ matched: true, ok: false });
    expect(r.matched && !r.ok && r.error).toMatch(/^Unknown tool 'frob' in nested XML tool-call body\. Available tools: \[edit, ledger, load_skill, run\]$/);
  });

  it('diagnoses an unclosed, invalid or non-object JSON body', () => {
    const incomplete = nestedXml('<edit>{"path": "a"', sample());
    expect(incomplete.matched && !incomplete.ok && incomplete.error).toMatch(/^<tool_call><edit> body did not hold a complete JSON object/);
    const invalid = nestedXml('<edit>{path: "a"}</edit>', sample());
    expect(invalid.matched && !invalid.ok && invalid.error).toMatch(/^<tool_call><edit> body is not a valid JSON object: /);
  });
});
