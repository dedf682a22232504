/**
 * Normalised tool registries cached by content, per worker. A gateway sends the same tool list
 * with every request; the worker keys it by the registry's own JSON text (see handle.ts), so a
 * repeat costs a comparison with the latest text, or else a digest, instead of normalising it
 * and building the scan spec again. Bounded LRU (a Map kept in use order); keys are digests, so
 * a huge registry costs its digest, not its text, in the cache (plus one copy of the latest).
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
  #latest: { text: string; key: string; entry: CachedTools } | null = null;
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
   * The registry for `toolsJson` (the JSON text of the request's `tools`: the body's own text of
   * the member when the worker found it, else its re-serialisation; null for none).
   * `parsed` is the already-decoded value when the caller has it. A malformed registry throws
   * the library's TypeError (naming the field) and is not cached.
   */
  get(toolsJson: string | null, parsed?: unknown): CachedTools {
    const key = keyOf(toolsJson);
    const found = this.#hit(key);
    if (found !== undefined) return found;
    this.misses += 1;
    const value = toolsJson === null ? null : parsed !== undefined ? parsed : JSON.parse(toolsJson);
    const entry: CachedTools = { registry: normalizeTools(value), scanSpec: null };
    this.#entries.set(key, entry);
    if (toolsJson !== null) this.#remember(toolsJson, key, entry);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    return entry;
  }

  /**
   * The registry already cached for `toolsJson`, or undefined (not counted as a miss: the caller
   * then takes the path that decodes and validates the tools, and that path calls `get`).
   */
  peek(toolsJson: string): CachedTools | undefined {
    const latest = this.#latest;
    // A gateway repeats its tools: comparing with the last text costs less than a digest.
    if (latest !== null && latest.text === toolsJson && this.#entries.get(latest.key) === latest.entry) {
      this.hits += 1;
      this.#refresh(latest.key, latest.entry);
      return latest.entry;
    }
    const key = keyOf(toolsJson);
    const found = this.#hit(key);
    if (found !== undefined) this.#remember(toolsJson, key, found);
    return found;
  }

  /** The registry text of the latest hit or insertion (a whole JSON value), or null. */
  get latestText(): string | null {
    return this.#latest?.text ?? null;
  }

  #hit(key: string): CachedTools | undefined {
    const found = this.#entries.get(key);
    if (found === undefined) return undefined;
    this.hits += 1;
    this.#refresh(key, found);
    return found;
  }

  #refresh(key: string, entry: CachedTools): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
  }

  #remember(text: string, key: string, entry: CachedTools): void {
    // A copy: the text is usually a slice of a request body, which it would otherwise keep alive.
    if (this.#latest?.key !== key) this.#latest = { text: Buffer.from(text, 'utf8').toString('utf8'), key, entry };
  }

  scanSpecOf(entry: CachedTools): ScanSpec {
    entry.scanSpec ??= buildScanSpec(entry.registry);
    return entry.scanSpec;
  }
}

function keyOf(toolsJson: string | null): string {
  return toolsJson === null ? '' : createHash('sha256').update(toolsJson).digest('base64');
}
