/**
 * One registry array per distinct `tools` text. The library normalises a registry once per
 * array identity; a gateway sends the same tools with every request, each time a new array, so
 * the sidecar keeps the first array it saw for a text and hands the library that one again.
 */
import { createStreamParser } from '../../compose/index.js';

const CAPACITY = 64;

export class RegistryCache {
  private readonly entries = new Map<string, unknown[]>();

  /**
   * The registry for `json` (whose parsed form is `tools`), checked by the library; a registry
   * it refuses throws its TypeError (the message names the entry and field).
   */
  get(json: string, tools: unknown[]): unknown[] {
    const cached = this.entries.get(json);
    if (cached !== undefined) {
      this.entries.delete(json);
      this.entries.set(json, cached);
      return cached;
    }
    createStreamParser({ tools, profile: 'gateway' });
    this.entries.set(json, tools);
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
    return tools;
  }
}
