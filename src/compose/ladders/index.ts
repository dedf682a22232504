// The composer's recovery ladders: call-block bodies, unclosed blocks, chat-template markup,
// nested XML and JSON bodies, narration, and the argument/name policy
// (docs/design.md, "Recovery ladders"). Other composer files import from here.
export type { BodyHead, BodyOutcome, BodyRung, DirectParse, MarkupOutcome, UnclosedOutcome } from './types.js';
export { BODY_RUNG_NAMES } from './types.js';
export { callFromBody } from './body.js';
export { unclosedBlockOutcome } from './unclosed.js';
export { parseMarkup } from './markup.js';
export { nestedXml } from './nested-xml.js';
export { labelBody } from './label.js';
export type { LabelledBody } from './label.js';
export { jsonCallFromBody } from './json-body.js';
export { narration } from './narration.js';
export type { NarrationFinding } from './narration.js';
export { jsonFields } from './json-fields.js';
export type { JsonFields } from './json-fields.js';
export { normalizeCall, stripChannelMarkers, unwrapGenericWrapper, foldNameAlias } from './names.js';
export type { FoldedName, NameRewrite, NormalizedCall } from './names.js';
export type { JsonBodyOutcome } from './json-body.js';
export type { NestedXmlOutcome } from './nested-xml.js';
export { TRUNCATED_PREFIX } from './messages.js';
export { decodeArgumentEntities } from './entities.js';
