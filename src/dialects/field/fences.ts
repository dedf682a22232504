/**
 * The Markdown code fence models put a JSON call in: xLAM's list, a Hermes body inside
 * `<tool_call>`, RWKV's call. Its lines are markers of the grammar that reads the value.
 */
import type { CodeFence } from './types.js';

export const JSON_FENCE: CodeFence = { open: ['```json', '```JSON'], close: '```' };

/**
 * The fence a model puts a pythonic call list in (`[f(a=1)]` alone in a ```` ```python ````
 * block, Gemma 3's ```` ```tool_code ````, or an unlabelled one; longest first). Only a block whose first line opens the list is the grammar's: any other Python block
 * is code, and streams as prose.
 */
export const PYTHON_LIST_FENCE: CodeFence = { open: ['```python', '```py', '```tool_code', '```'], close: '```' };

/**
 * Labels of a code fence that holds calls wherever they stand in it (the reference's ```` ```tool ````
 * and its drifts). In a fence with any other label, or none, a call is read only as the
 * block's first text: further in (`output = '<tool_call>…'`, `echo '[TOOL_CALLS]…'`) it is the
 * program's or the sample's text.
 */
export const CALL_FENCE_INFOS: ReadonlySet<string> = new Set(['tool', 'tools', 'tool_code', 'tool_call', 'tool_calls', 'tool_use', 'function_call', 'function_calls', 'functions']);
