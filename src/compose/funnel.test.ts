import { describe, expect, it } from 'vitest';
import type { Unit } from '../scan/types.js';
import { consume, credited, droppedAs, newWalkState, structural } from './funnel.js';
import type { StructuralOutcome } from './diagnostics.js';

const text = (start: number, value: string): Unit => ({ kind: 'text', text: value, fenced: false, start, end: start + value.length });

describe('consume funnel', () => {
  it('records a drop in the ledger and the trace', () => {
    const state = newWalkState(true);
    consume(state, text(0, 'hello'), droppedAs('hello', 'salvaged_as_prose'));
    expect(state.dropped).toEqual([{ text: 'hello', reason: 'salvaged_as_prose' }]);
    expect(state.trace).toEqual([{ start: 0, end: 5, account: 'drop', outcome: 'salvaged_as_prose', text: 'hello' }]);
  });

  it('credits exactly the calls appended since the previous unit', () => {
    const state = newWalkState(true);
    state.calls.push({ id: 'tc_0', name: 'run', arguments: {} }, { id: 'tc_1', name: 'run', arguments: {} });
    consume(state, text(0, 'x'), credited(2));
    expect(state.creditedCalls).toBe(2);
    expect(state.trace?.[0]?.account).toBe('call');
    state.calls.push({ id: 'tc_2', name: 'run', arguments: {} });
    expect(() => consume(state, text(1, 'y'), credited(2))).toThrow(/claimed 2 call\(s\) but appended 1/);
  });

  it('refuses a call outcome that credited nothing', () => {
    expect(() => consume(newWalkState(false), text(0, 'x'), credited(1))).toThrow(/appended 0/);
  });

  it('refuses to drop or skip past a unit that appended an uncredited call', () => {
    const state = newWalkState(false);
    state.calls.push({ id: 'tc_0', name: 'run', arguments: {} });
    expect(() => consume(state, text(0, 'x'), structural('empty_text'))).toThrow(/without crediting/);
  });

  it('refuses a drop without text', () => {
    expect(() => consume(newWalkState(false), text(0, '  '), droppedAs('  ', 'salvaged_as_prose'))).toThrow(/no text/);
  });

  it('refuses a structural outcome outside the closed list', () => {
    expect(() => consume(newWalkState(false), text(0, 'x'), structural('whatever' as StructuralOutcome))).toThrow(/not a structural outcome/);
  });

  it('keeps no trace unless asked', () => {
    const state = newWalkState(false);
    consume(state, text(0, 'x'), structural('empty_text'));
    expect(state.trace).toBeNull();
  });
});
