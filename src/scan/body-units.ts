/**
 * Builders for the body-carrying units (`block`, `unclosed_block`): the body is sliced once and
 * its call head attached, so the composer branches on `head_name` without a regex.
 */
import { callHead } from '../lex/call-head.js';
import type { BlockUnit, UnclosedBlockUnit } from './types.js';

function attachHead(unit: BlockUnit | UnclosedBlockUnit, reserved: boolean): void {
  const head = callHead(unit.body);
  if (head !== null) {
    unit.head_name = head.name;
    unit.head_sep = head.sep;
  }
  if (reserved) unit.reserved = true;
}

export function closedBlock(source: string, start: number, end: number, tag: string, bodyStart: number, bodyEnd: number, reserved = false): BlockUnit {
  const unit: BlockUnit = { kind: 'block', start, end, tag, body: source.slice(bodyStart, bodyEnd), closed: true };
  attachHead(unit, reserved);
  return unit;
}

export function unclosedBlock(source: string, start: number, end: number, tag: string, bodyStart: number, reserved = false): UnclosedBlockUnit {
  const unit: UnclosedBlockUnit = { kind: 'unclosed_block', start, end, tag, body: source.slice(bodyStart, end), closed: false };
  attachHead(unit, reserved);
  return unit;
}
