/** Every field grammar's renderer, by grammar id (the `grammar` of conformance/field/cases/<id>.json). */
import { JSON_RENDERERS } from './json-grammars.js';
import { MARKUP_RENDERERS } from './markup-grammars.js';
import { LOOKALIKE_RENDERERS, VALUE_RENDERERS } from './value-grammars.js';
import type { Renderer } from './values.js';

export type { Call, Json, Renderer, RenderOptions } from './values.js';

export const RENDERERS: Readonly<Record<string, Renderer>> = {
  ...JSON_RENDERERS,
  ...MARKUP_RENDERERS,
  ...VALUE_RENDERERS,
  ...LOOKALIKE_RENDERERS,
};

export function renderer(grammar: string): Renderer {
  const render = RENDERERS[grammar];
  if (render === undefined) throw new Error(`no renderer for field grammar ${grammar}`);
  return render;
}
