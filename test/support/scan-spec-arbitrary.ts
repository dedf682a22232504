/** Random scan specs for the scanner's property and oracle tests. */
import fc from 'fast-check';

/**
 * A spec whose every vocabulary entry is drawn from `word` (short strings over a tiny alphabet,
 * so entries collide with each other and the text); `knownTools` draws the tool names.
 */
export function scanSpecArbitrary(word: fc.Arbitrary<string>, knownTools: fc.Arbitrary<string[]>) {
  const list = fc.array(word, { maxLength: 3 });
  return fc.record({
    call_tags: list,
    block_tags: list,
    wrapper_tags: list,
    markup_openers: fc.array(fc.record({ opener: word, close: word }), { maxLength: 2 }),
    reserved_openers: list,
    harmony: fc.record({
      header_markers: list,
      standalone_markers: list,
      frame_prefix: word,
      frame_suffix: word,
      message_marker: word,
      tool_call_header_prefix: word,
      corrupted_openers: list,
    }),
    known_tools: knownTools,
    strip_thinking: fc.boolean(),
  });
}
