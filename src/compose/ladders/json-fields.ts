import { DIALECTS } from '../../dialects/vocabulary.js';
import { setOwn } from './json.js';

/** Where a JSON tool object's arguments came from. */
export type ArgumentsSource = 'args' | 'arguments' | 'parameters' | 'siblings';

export interface JsonFields {
  /** The first non-blank string among the name keys, trimmed; `""` when none. */
  name: string;
  /** The arguments value as written (may be a string or a non-object; callers judge it). */
  arguments: unknown;
  argumentsFrom: ArgumentsSource;
}

/** Keys that never become sibling arguments: the name keys and the call id. */
const NOT_AN_ARGUMENT: ReadonlySet<string> = new Set([...DIALECTS.NAME_ALIASES, 'id']);

/**
 * Name and argument extraction from one JSON tool object (docs/design.md, "JSON calls").
 *
 * - name: the first of `name`, `tool_name`, `tool` holding a non-blank string;
 * - arguments: the first of `args`, `arguments`, `parameters` that is present and not null,
 *   even when empty (an empty container is never overridden);
 * - with none of those keys, the object's other keys are the arguments
 *   (`{"name": "look", "file": "x"}` → `{"file": "x"}`).
 */
export function jsonFields(item: Readonly<Record<string, unknown>>): JsonFields {
  let name = '';
  for (const key of DIALECTS.NAME_ALIASES) {
    const value = Object.hasOwn(item, key) ? item[key] : undefined;
    if (typeof value === 'string' && value.trim() !== '') {
      name = value.trim();
      break;
    }
  }
  for (const key of DIALECTS.ARGUMENT_ALIASES) {
    const value = Object.hasOwn(item, key) ? item[key] : undefined;
    if (value !== undefined && value !== null) {
      return { name, arguments: value, argumentsFrom: key as ArgumentsSource };
    }
  }
  const siblings: Record<string, unknown> = {};
  for (const key of Object.keys(item)) {
    if (!NOT_AN_ARGUMENT.has(key)) setOwn(siblings, key, item[key]);
  }
  return { name, arguments: siblings, argumentsFrom: 'siblings' };
}
