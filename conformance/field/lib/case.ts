/**
 * The field case format (conformance/field/README.md): one JSON file per grammar under
 * conformance/field/cases/, each holding that grammar's cases.
 */
import type { Call, Json } from '../render/values.js';

export const FAMILIES = ['special-token-json', 'raw-parameter-markup', 'value-grammar', 'shared-tag', 'look-alike'] as const;
export type Family = (typeof FAMILIES)[number];

export const SECTIONS = ['1', '2', '3', '7a', '7b', '7c'] as const;
export type Section = (typeof SECTIONS)[number];

export interface FieldExpect {
  /** Exact calls in order; names and arguments deep-equal, ids ignored. Always present. */
  calls: Call[];
  /** Exact prose after trimming both sides. */
  prose?: string;
  prose_includes?: string[];
  prose_excludes?: string[];
  /** Exact reasoning text (trimmed), read from `result.reasoning`. */
  reasoning?: string;
  /** Each must be a prefix of some `tool_parse_errors` entry. */
  error_prefixes?: string[];
  /** Each must be a substring of some `tool_parse_errors` entry. */
  error_mentions?: string[];
  /** `true`: `tool_parse_errors` is empty. */
  no_errors?: boolean;
  /** Each must be the kind of some protocol violation. */
  violation_kinds?: string[];
  /** `true`: no protocol violation at all. */
  no_violations?: boolean;
  /** `true`: at least one dropped fragment; `false`: none. */
  dropped?: boolean;
}

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: { [key: string]: Json } };
}

export interface FieldCase {
  /** `<grammar>/<scenario>`, unique across all files. */
  id: string;
  scenario: string;
  note: string;
  text: string;
  /** OpenAI-form tools; `null` means no registry (`tools` absent). */
  tools: OpenAiTool[] | null;
  options?: { [key: string]: Json };
  expect: FieldExpect;
}

export interface FieldCaseFile {
  grammar: string;
  /** The dialect(s) the grammar stands for, in words. */
  title: string;
  family: Family;
  section: Section;
  cases: FieldCase[];
}
