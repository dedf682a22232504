import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { compileScanSpec, type LessThanEntry } from './compile.js';
import { scanUnits } from './scanner.js';
import { validateScanSpec } from './validate.js';

function needleOf(entry: LessThanEntry): string {
  switch (entry.branch) {
    case 'call':
    case 'block':
      return entry.forms.open;
    case 'markup':
      return entry.opener;
    default:
      return entry.needle;
  }
}

const word = fc.string({ unit: fc.constantFrom('<', '/', 'a', 'b', '|'), minLength: 1, maxLength: 3 });
const words = fc.array(word, { maxLength: 3 });

describe('compileScanSpec dispatch table', () => {
  it('offers, for any text at a `<`, exactly the entries whose needle matches, in branch order', () => {
    fc.assert(
      fc.property(words, words, words, fc.array(fc.record({ opener: word, close: word }), { maxLength: 3 }), fc.string({ unit: fc.constantFrom('<', '/', 'a', 'b', '|', '>'), maxLength: 6 }), (call_tags, block_tags, wrapper_tags, markup_openers, rest) => {
        const spec = validateScanSpec({ ...buildScanSpec(), call_tags, block_tags, wrapper_tags, markup_openers });
        const vocab = compileScanSpec(spec);
        const text = `<${rest}`;
        // The branch loops of the reference, written out naively.
        const expected: string[] = [
          ...call_tags.map((t) => `call <${t}>`),
          ...block_tags.map((t) => `block <${t}>`),
          ...markup_openers.filter((m) => m.opener.startsWith('<')).map((m) => `markup ${m.opener}`),
          ...call_tags.map((t) => `stray_close </${t}>`),
          ...wrapper_tags.flatMap((t) => [`wrapper <${t}>`, `wrapper </${t}>`]),
        ].filter((label) => text.startsWith(label.slice(label.indexOf(' ') + 1)));
        const slot = vocab.lessThan.get(text.charCodeAt(1)) ?? vocab.lessThanAny;
        const offered = [...slot.beforeAngle, ...slot.afterAngle].map((e) => `${e.branch} ${needleOf(e)}`).filter((label) => text.startsWith(label.slice(label.indexOf(' ') + 1)));
        expect(offered).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('a one-character markup opener `<` applies at every `<`', () => {
    const spec = validateScanSpec({ ...buildScanSpec(), markup_openers: [{ opener: '<', close: '>' }] });
    expect(scanUnits('<x> <y>', spec).units.map((u) => u.kind)).toEqual(['markup', 'markup']);
  });

  it('is computed once per validated spec', () => {
    const spec = validateScanSpec(buildScanSpec());
    expect(compileScanSpec(spec)).toBe(compileScanSpec(spec));
  });
});
