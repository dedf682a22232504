/**
 * Namespace prefixes the field grammars put before a tool name (`functions.get_weather` in
 * Kimi ids and Harmony recipients). A prefix is stripped when what follows names a registered
 * tool, and always when the caller passed no registry (it is the channel, not the name).
 */
export const FIELD_NAMESPACE_PREFIXES: readonly string[] = ['functions.'];

/** The longest tool name a field grammar may carry; longer heads are not names. */
export const FIELD_NAME_MAX = 256;
