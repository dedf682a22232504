/**
 * Namespace prefixes the field grammars put before a tool name (`functions.get_weather` in
 * Kimi ids and Harmony recipients), and those models copy from other SDKs' spellings of a tool
 * (`default_api.` from Gemini's, `tools.`). A prefix is stripped when what follows names a
 * registered tool, and always when the caller passed no registry (it is the channel, not the name).
 */
export const FIELD_NAMESPACE_PREFIXES: readonly string[] = ['functions.', 'default_api.', 'tools.'];

/**
 * Separators after a namespace of any name (GLM-5.3-Flash's `Weather/get_weather`): what follows
 * the last one is the name when the registry holds it; with no registry the name stays as written
 * (a namespace that is not a known channel may be part of the name).
 */
export const FIELD_NAMESPACE_SEPARATORS: readonly string[] = ['/'];

/**
 * Gemini's code sandbox prints a call's result, so models trained on it write the call wrapped
 * so (`print(default_api.get_weather(city="Paris"))`): the wrapper's opening, around a call.
 */
export const SANDBOX_PRINT_OPEN = 'print(';

/** The longest tool name a field grammar may carry; longer heads are not names. */
export const FIELD_NAME_MAX = 256;

/**
 * A body of raw code whose head names no tool (Llama 3.1's `<|python_tag|>print(1)`, InternLM2's
 * `<|interpreter|>`) calls the code interpreter: the first of these names the registry holds
 * (with no registry, the first), with the code under `CODE_ARGUMENT` (llama.cpp reads both so).
 */
export const CODE_TOOL_NAMES: readonly string[] = ['python', 'code_interpreter', 'ipython'];
export const CODE_ARGUMENT = 'code';
