// Test fixture (not a test file: `.spec.ts` is excluded from the build and not collected by
// vitest). The registries of the worked examples (conformance/composer), as composer contexts.
import { composeContext, type ComposeContext } from '../context.js';

const str = (required = false) => ({ type: 'string', required });

/** SAMPLE: `edit` and `run` → names `[edit, ledger, load_skill, run]`. */
export const SAMPLE_TOOLS = {
  _type: 'tool_registry',
  tools: [
    {
      name: 'edit',
      description: 'Edit a file',
      parameters: {
        action: { type: 'string', required: true, enum: ['create', 'patch', 'replace_body'] },
        path: str(true),
        content: str(),
        new_body: str(),
        function_name: str(),
        import_statement: str(),
        ops: { type: 'list', required: false },
      },
    },
    { name: 'run', description: 'Run a command', parameters: { command: str(true) } },
  ],
};

/** CORPUS: `look`, `edit`, `run`, `verify`. */
export const CORPUS_TOOLS = {
  _type: 'tool_registry',
  tools: [
    { name: 'look', parameters: { file: str(true), intent: str() } },
    {
      name: 'edit',
      parameters: {
        action: str(), path: str(), old_string: str(), new_string: str(), content: str(), anchor: str(),
        range_start: { type: 'int' }, range_end: { type: 'int' }, overwrite: { type: 'bool' }, ops: { type: 'list' },
      },
    },
    { name: 'run', parameters: { command: str(true) } },
    { name: 'verify', parameters: {} },
  ],
};

/** ECHO: `echo_marker`. */
export const ECHO_TOOLS = { _type: 'tool_registry', tools: [{ name: 'echo_marker', parameters: { value: str(true) } }] };

/** Contexts of the reference runtime (profile `harn`): the ladders' tests pin its behaviour. */
export const sample = (format = 'text'): ComposeContext => composeContext(SAMPLE_TOOLS, format, null, 'harn');
export const corpus = (format = 'text'): ComposeContext => composeContext(CORPUS_TOOLS, format, null, 'harn');
export const echo = (format = 'text'): ComposeContext => composeContext(ECHO_TOOLS, format, null, 'harn');
export const none = (format = 'text'): ComposeContext => composeContext(null, format, null, 'harn');
