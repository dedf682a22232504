import { describe, expect, it } from 'vitest';
import { isSentenceLine } from './sentence.js';

describe('isSentenceLine', () => {
  it('reads sentences of prose', () => {
    for (const line of ['Sure, I can help with that.', 'Of course! Here is what I found:', 'I\'m not sure it will rain?', 'Die Sonne scheint heute.', 'Ça va très bien, merci.']) {
      expect(isSentenceLine(line), line).toBe(true);
    }
  });

  it('reads no line of code, nor a line too short to tell', () => {
    for (const line of ['import math as m', 'print(1)', 'x = 1.', 'assert x is not 1.', 'for item in items:', '# A comment line.', 'Sure.', 'Yes, indeed.', 'Done', 'The weather is nice', '今天天气很好。', 'Call f(x) now.', 'See "this" here.']) {
      expect(isSentenceLine(line), line).toBe(false);
    }
  });
});
