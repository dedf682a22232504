/**
 * Wire shapes of the structural scanner (docs/design.md, "Unit kinds").
 *
 * Offsets (`start`, `end`, and every `consumed` count of the lexer primitives) are
 * UTF-16 code-unit indexes into `ScanResult.source`, i.e. ordinary JavaScript string
 * indexes. The reference reports UTF-8 byte offsets; the two agree on ASCII text.
 */

// The spec's shape belongs to the dialect data it projects; the scanner only reads it.
export type { HarmonyVocabulary, MarkupOpener, ScanSpec } from '../dialects/scan-spec.js';

export type HeadSep = '(' | '{';

interface UnitBase {
  start: number;
  end: number;
}

export interface TextUnit extends UnitBase {
  kind: 'text';
  text: string;
  fenced: false;
}

export interface FencedLineUnit extends UnitBase {
  kind: 'fenced_line';
  text: string;
}

export interface BlockUnit extends UnitBase {
  kind: 'block';
  tag: string;
  body: string;
  closed: true;
  head_name?: string;
  head_sep?: HeadSep;
  reserved?: true;
}

export interface UnclosedBlockUnit extends UnitBase {
  kind: 'unclosed_block';
  tag: string;
  body: string;
  closed: false;
  head_name?: string;
  head_sep?: HeadSep;
  reserved?: true;
}

export interface StrayCloseUnit extends UnitBase {
  kind: 'stray_close';
  tag: string;
}

export interface WrapperUnit extends UnitBase {
  kind: 'wrapper';
  tag: string;
}

export interface MarkupUnit extends UnitBase {
  kind: 'markup';
  opener: string;
  text: string;
}

export interface AngleCallUnit extends UnitBase {
  kind: 'angle_call';
  name: string;
  arguments: Record<string, unknown>;
}

export interface HarmonyLineUnit extends UnitBase {
  kind: 'harmony_line';
  text: string;
}

export interface HarmonySkipUnit extends UnitBase {
  kind: 'harmony_skip';
}

export interface TagUnit extends UnitBase {
  kind: 'tag';
  raw: string;
  name: string;
}

export type Unit =
  | TextUnit
  | FencedLineUnit
  | BlockUnit
  | UnclosedBlockUnit
  | StrayCloseUnit
  | WrapperUnit
  | MarkupUnit
  | AngleCallUnit
  | HarmonyLineUnit
  | HarmonySkipUnit
  | TagUnit;

export type UnitKind = Unit['kind'];

export interface ScanResult {
  /** The text after thinking-tag stripping; every offset indexes this string. */
  source: string;
  units: Unit[];
}
