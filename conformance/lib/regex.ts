/**
 * The reference writes its `matches` patterns for Rust's `regex` crate: flags come inline as a
 * leading `(?i)`, `(?s)`, `(?m)` (or combined, `(?is)`), and `\A` / `\z` anchor the whole
 * text. JavaScript wants the flags outside the pattern, so they are lifted out here.
 */

const LEADING_FLAGS = /^\(\?([imsU]+)\)/;

export function compileReferenceRegex(pattern: string): RegExp {
  if (typeof pattern !== 'string') throw new TypeError('matches check value must be a string');
  let source = pattern;
  let flags = '';
  for (let lifted = LEADING_FLAGS.exec(source); lifted; lifted = LEADING_FLAGS.exec(source)) {
    for (const flag of lifted[1] ?? '') {
      if (flag === 'U') throw new TypeError(`matches: the (?U) swap-greed flag has no JS equivalent: ${pattern}`);
      if (!flags.includes(flag)) flags += flag;
    }
    source = source.slice(lifted[0].length);
  }
  // \A and \z mean start and end of the whole text whatever the `m` flag says
  source = source.replace(/\\A/g, '(?<![\\s\\S])').replace(/\\z/g, '(?![\\s\\S])');
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    // Rust accepts escapes such as `\-` or `\<` that JavaScript's unicode mode rejects
    return new RegExp(source, flags);
  }
}
