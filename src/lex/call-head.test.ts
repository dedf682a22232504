import { describe, expect, it } from 'vitest';
import { callHead } from './call-head.js';

describe('callHead', () => {
  const table: [string, { name: string; sep: string } | null][] = [
    ['look({ path: "a.rs" })', { name: 'look', sep: '(' }],
    ['\n  edit{ a: 1 }', { name: 'edit', sep: '{' }],
    [' look ({})', { name: 'look', sep: '(' }],
    ['look\t\t{', { name: 'look', sep: '{' }],
    ['\u00a0\u2028look()', { name: 'look', sep: '(' }],
    ['look\n({})', null],
    ['Reading the file.', null],
    ['$x(1)', { name: '$x', sep: '(' }],
    ['123({})', null],
    ['`look({})`', null],
    ['', null],
    ['look', null],
    ['look   ', null],
    ['\ufefflook()', null],
    ['lööк()', null],
  ];
  for (const [body, expected] of table) {
    it(JSON.stringify(body), () => expect(callHead(body)).toEqual(expected));
  }

  it('reads only the given range', () => {
    const text = 'xx look({}) yy';
    expect(callHead(text, 2, 8)).toEqual({ name: 'look', sep: '(' });
    expect(callHead(text, 2, 7)).toBeNull();
  });
});
