import { normalizeTools, registryNames, type ToolsInput } from './registry.js';
import { DIALECTS } from './vocabulary.js';

export interface MarkupOpener {
  readonly opener: string;
  readonly close: string;
}

export interface HarmonyVocabulary {
  readonly header_markers: readonly string[];
  readonly standalone_markers: readonly string[];
  readonly frame_prefix: string;
  readonly frame_suffix: string;
  readonly message_marker: string;
  readonly tool_call_header_prefix: string;
  readonly corrupted_openers: readonly string[];
}

/** The vocabulary the scanner consumes. Every field but `strip_thinking` is required. */
export interface ScanSpec {
  readonly call_tags: readonly string[];
  readonly block_tags: readonly string[];
  readonly wrapper_tags: readonly string[];
  readonly markup_openers: readonly MarkupOpener[];
  readonly reserved_openers: readonly string[];
  readonly harmony: HarmonyVocabulary;
  readonly known_tools: readonly string[];
  readonly strip_thinking?: boolean;
}

function spellingsOf(canonical: string): string[] {
  const entry = DIALECTS.TAGGED_DIALECT.find((d) => d.canonical === canonical);
  return entry ? [...entry.spellings] : [];
}

/**
 * The scan spec (`tool_parse_scan_spec`): the vocabulary projection the scanner consumes,
 * every value taken from the dialect data, with `known_tools` = registry names + implicit names.
 */
export function buildScanSpec(tools?: ToolsInput): ScanSpec {
  const registry = normalizeTools(tools);
  return {
    call_tags: spellingsOf('tool_call'),
    block_tags: [...spellingsOf('assistant_prose'), ...spellingsOf('user_response'), ...spellingsOf('done')],
    wrapper_tags: [...DIALECTS.CONTENTLESS_WRAPPER_TAGS],
    markup_openers: DIALECTS.MARKUP_DIALECTS.map(({ opener, close }) => ({ opener, close })),
    reserved_openers: [DIALECTS.RESERVED_MALFORMED_CALL_OPENER],
    harmony: {
      header_markers: [...DIALECTS.HARMONY_HEADER_MARKERS],
      standalone_markers: [...DIALECTS.HARMONY_STANDALONE_MARKERS],
      frame_prefix: DIALECTS.HARMONY_FRAME_PREFIX,
      frame_suffix: DIALECTS.HARMONY_FRAME_SUFFIX,
      message_marker: DIALECTS.HARMONY_MESSAGE_MARKER,
      tool_call_header_prefix: DIALECTS.HARMONY_TOOL_CALL_HEADER_PREFIX,
      corrupted_openers: [...DIALECTS.HARMONY_CORRUPTED_OPENERS],
    },
    known_tools: [...registryNames(registry)],
    strip_thinking: true,
  };
}
