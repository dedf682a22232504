/** The realistic tools the field cases register (OpenAI form, JSON Schema parameters). */
import type { Json } from '../render/values.js';
import type { OpenAiTool } from './case.js';

const tool = (name: string, description: string, parameters: { [key: string]: Json }): OpenAiTool => ({
  type: 'function',
  function: { name, description, parameters },
});

export const GET_WEATHER = tool('get_weather', 'Forecast for a city.', {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer' },
    units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city'],
});

export const SEARCH = tool('search', 'Web search.', {
  type: 'object',
  properties: { query: { type: 'string' }, limit: { type: 'integer' } },
  required: ['query'],
});

export const WRITE_FILE = tool('write_file', 'Write a file.', {
  type: 'object',
  properties: { path: { type: 'string' }, content: { type: 'string' } },
  required: ['path', 'content'],
});

/** Every raw-text typing rule of spec section 4 in one tool; `ticket` has no schema on purpose. */
export const SCHEDULE = tool('schedule', 'Book a meeting room.', {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    confirm: { type: 'boolean' },
    meta: { type: 'object', properties: { room: { type: 'string' }, floor: { type: 'integer' } } },
    limit: { type: ['integer', 'null'] },
    label: { type: 'string' },
  },
  required: ['count'],
});

export const REGISTRY: OpenAiTool[] = [GET_WEATHER, SEARCH, WRITE_FILE];
export const TYPED_REGISTRY: OpenAiTool[] = [GET_WEATHER, SEARCH, WRITE_FILE, SCHEDULE];
