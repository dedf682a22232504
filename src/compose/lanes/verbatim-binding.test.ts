import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../types.js';
import { bindVerbatim, hasVerbatimDeclaration } from './verbatim-binding.js';
import { parseVerbatimOpener } from './verbatim-opener.js';

const call = (args: Record<string, unknown>): ToolCall => ({ id: 'tc_json', name: 'write_file', arguments: args });
const detailOf = (outcome: ReturnType<typeof bindVerbatim>): string => (outcome.ok ? '' : outcome.detail);

describe('verbatim openers', () => {
  it('reads counted and uncounted openers and nothing else', () => {
    expect(parseVerbatimOpener('<<END:5')).toEqual({ tag: 'END', count: '5' });
    expect(parseVerbatimOpener('<<EOF')).toEqual({ tag: 'EOF', count: null });
    expect(parseVerbatimOpener('<<a.b-c_1:0')).toEqual({ tag: 'a.b-c_1', count: '0' });
    for (const text of ['<<EOF\npackage', '<<1X', '<<X:', '<<X:1a', '<X', '<<', ' <<X', '<<X:-1']) expect(parseVerbatimOpener(text)).toBeNull();
  });

  it('sees declarations only in whole argument values', () => {
    expect(hasVerbatimDeclaration([call({ content: '<<T:1' })])).toBe(true);
    expect(hasVerbatimDeclaration([call({ content: '<<EOF\nbody' })])).toBe(false);
    expect(hasVerbatimDeclaration([call({ nested: { content: '<<T:1' } })])).toBe(false);
  });
});

describe('bindVerbatim', () => {
  it('binds bodies by opener in any order, keeping CR bytes', () => {
    const outcome = bindVerbatim([call({ old: '<<OLD:1', new: '<<NEW:2' })], '<<NEW:2\nNEW a\\b\r\nNEW c\nNEW\n\n<<OLD:1\nOLD "q"\nOLD');
    expect(outcome).toEqual({ ok: true, calls: [call({ old: 'OLD "q"\n', new: 'NEW a\\b\r\nNEW c\n' })] });
  });

  it('a zero count is an empty value', () => {
    expect(bindVerbatim([call({ content: '<<T:0' })], '<<T:0\nT')).toEqual({ ok: true, calls: [call({ content: '' })] });
  });

  it('binds across calls of one body and leaves the input calls untouched', () => {
    const calls = [call({ a: '<<A' }), call({ b: '<<B:1' })];
    const outcome = bindVerbatim(calls, '<<B:1\nbee\nB\n<<A\nay\nA');
    expect(outcome).toEqual({ ok: true, calls: [call({ a: 'ay' }), call({ b: 'bee\n' })] });
    expect(calls[0]?.arguments).toEqual({ a: '<<A' });
  });

  it('writes a bound `__proto__` argument as an own key', () => {
    const outcome = bindVerbatim([call(JSON.parse('{"__proto__": "<<P:1"}') as Record<string, unknown>)], '<<P:1\nx\nP');
    const args = outcome.ok ? outcome.calls[0]?.arguments : undefined;
    expect(args && Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toBe('x\n');
    expect(args && Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it('fails loud on every malformed shape', () => {
    expect(detailOf(bindVerbatim([call({ content: 'x' })], '<<ORPHAN:1\nstray\nORPHAN'))).toContain('`<<ORPHAN:1`');
    expect(detailOf(bindVerbatim([call({ content: '<<C:5' })], '<<C:5\nl1\nl2\nC'))).toContain('recount');
    expect(detailOf(bindVerbatim([call({ content: '<<C:1' })], '<<C:1\nbody\nC trailing payload'))).toContain('did not close');
    expect(detailOf(bindVerbatim([call({ content: '<<C:1' })], ''))).toContain('has 0 matching bodies, expected 1');
    expect(detailOf(bindVerbatim([call({ a: '<<B:1', b: '<<B:1' })], '<<B:1\nonly\nB'))).toContain('has 1 matching bodies, expected 2');
    expect(detailOf(bindVerbatim([call({ content: '<<C:1' })], '<<D:1\nbody\nD'))).toContain('`<<C:1` has 0 matching bodies');
    expect(detailOf(bindVerbatim([call({ content: '<<C:184467440737095516160' })], '<<C:184467440737095516160\nbody\nC'))).toContain('not a usable number');
    expect(detailOf(bindVerbatim([call({ content: '<<EOF' })], '<<EOF\nno close'))).toContain('never closed');
    expect(detailOf(bindVerbatim([call({ content: '<<EOF' })], '<<EOF\na\nEOF\nleft over'))).toContain('closed early');
    expect(detailOf(bindVerbatim([call({ content: '<<C:1' })], '<<C:1\na\nC\nleft over'))).toContain('`left over` matches no argument declaration');
  });
});
