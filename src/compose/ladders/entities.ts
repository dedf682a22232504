import { DIALECTS } from '../../dialects/vocabulary.js';
import { decodeEntities } from '../../lex/entities.js';

/**
 * Entity-decodes every string reachable from a recovered argument object, exactly once
 * (docs/design.md, "Entities"). Used by the JSON body, nested XML and markup trailing-JSON
 * rungs; never for markup `<parameter>` values, heredocs or TS object literals.
 */
export function decodeArgumentEntities<T>(args: T): T {
  return decodeEntities(args, DIALECTS.HTML_ENTITIES);
}
