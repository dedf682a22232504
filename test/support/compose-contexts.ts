/** Registries and contexts shared by the lane tests (the registries of the worked examples). */
import { composeContext, type ComposeContext } from '../../src/compose/context.js';

/** SAMPLE: `edit` and `run` (registry_names `[edit, ledger, load_skill, run]`). */
export const SAMPLE_TOOLS = [
  {
    name: 'edit',
    parameters: {
      type: 'object',
      properties: { action: { type: 'string' }, path: { type: 'string' }, content: { type: 'string' } },
      required: ['action', 'path'],
    },
  },
  { name: 'run', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
];

export function jsonCtx(tools: unknown = null): ComposeContext {
  return composeContext(tools, 'json', null, 'harn');
}

export function textCtx(tools: unknown = SAMPLE_TOOLS): ComposeContext {
  return composeContext(tools, 'text', null, 'harn');
}
