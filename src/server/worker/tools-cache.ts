/**
 * Normalised tool registries cached by content, per worker. A gateway sends the same tool list
 * with every request; hashing its JSON is far cheaper than normalising it and building the
 * scan spec again. Bounded LRU (a Map kept in use order); keys are digests, so a huge registry
 * costs its digest, not its text, in the cache.
 */
import { createHash } from 'node:crypto';
import { buildScanSpec, normalizeTools, type ToolRegistry } from '../../dialects/index.js';
import type { ScanSpec } from '../../scan/types.js';

export interface CachedTools {
  registry: ToolRegistry | null;
  /** Built on first use by /scan. */
  scanSpec: ScanSpec | null;
}

export const DEFAULT_TOOLS_CACHE_SIZE = 64;

export class ToolsCache {
  readonly #entries = new Map<string, CachedTools>();
  readonly #capacity: number;
  hits = 0;
  misses = 0;

  constructor(capacity: number = DEFAULT_TOOLS_CACHE_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError('capacity must be a positive integer');
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The registry for `toolsJson` (canonical JSON of the request's `tools`, or null for none).
   * `parsed` is the already-decoded value when the caller has it. A malformed registry throws
   * the library's TypeError (naming the field) and is not cached.
   */
  get(toolsJson: string | null, parsed?: unknown): CachedTools {
    const key = toolsJson === null ? '' : createHash('sha256').update(toolsJson).digest('base64');
    const found = this.#entries.get(key);
    if (found !== undefined) {
      this.hits += 1;
      this.#entries.delete(key);
      this.#entries.set(key, found);
      return found;
    }
    this.misses += 1;
    const value = toolsJson === null ? null : parsed !== undefined ? parsed : JSON.parse(toolsJson);
    const entry: CachedTools = { registry: normalizeTools(value), scanSpec: null };
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    return entry;
  }

  scanSpecOf(entry: CachedTools): ScanSpec {
    entry.scanSpec ??= buildScanSpec(entry.registry);
    return entry.scanSpec;
  }
}
