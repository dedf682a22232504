/**
 * The Markdown code fence models put a JSON call in: xLAM's list, a Hermes body inside
 * `<tool_call>`, RWKV's call. Its lines are markers of the grammar that reads the value.
 */
import type { CodeFence } from './types.js';

export const JSON_FENCE: CodeFence = { open: ['```json', '```JSON'], close: '```' };
