/**
 * The worker reads request bodies through the types derived from their schemas
 * (src/server/worker/bodies.ts): a validated body needs no type assertion, so one that appears
 * means a handler reads a field its schema does not promise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WORKER = fileURLToPath(new URL('../../src/server/worker', import.meta.url));

/** The code of a file with its comments blanked, so prose that says "as" is not read as a cast. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** `body.text as string`, `(response as X)`, `messages as T[]`: an assertion on a value read from a body. */
const BODY_CAST = /\b(?:body|record|responses?|messages?)\b(?:[.?!]*[\w$]+|\[[^\]]*\])*\)?\s+as\s+(?!const\b)/;

function bodyCasts(text: string): string[] {
  return code(text)
    .split('\n')
    .filter((line) => BODY_CAST.test(line))
    .map((line) => line.trim());
}

describe('request bodies in the worker', () => {
  it('the check finds the casts it is meant to refuse', () => {
    expect(bodyCasts('const t = body.text as string;')).toHaveLength(1);
    expect(bodyCasts('const r = body.responses as Body[];')).toHaveLength(1);
    expect(bodyCasts('parse(body.messages as TranscriptMessage[], 0);')).toHaveLength(1);
    expect(bodyCasts('const record = body as Body;')).toHaveLength(1);
    expect(bodyCasts('const t = response.text as string;')).toHaveLength(1);
    expect(bodyCasts('// the body is read as sent\nconst KINDS = [1] as const;')).toEqual([]);
  });

  for (const name of readdirSync(WORKER).filter((f) => f.endsWith('.ts'))) {
    it(`${name} asserts no type on a body field`, () => {
      expect(bodyCasts(readFileSync(join(WORKER, name), 'utf8'))).toEqual([]);
    });
  }
});
