/**
 * `OffsetTable`: a number per source offset (0 meaning "nothing recorded"), for the memos of
 * one scan. Most scans record a few entries, so a small Map holds them; past a limit (about
 * `size / DENSE_AFTER` entries, clamped) the table moves into a typed array sized by the
 * source, whose lookups stay fast however many entries an adversarial body records.
 *
 * Why not allocate the typed array up front: a zero-filled Int32Array of an 80 KB source costs
 * about as much as `JSON.parse` of the whole source, and most scans never need it. Moving only
 * after many entries keeps the allocation small next to the work already done.
 */

/** Entries kept in the Map before moving to the dense form: one per this many offsets... */
const DENSE_AFTER = 32;
/** ...but at least this many (tables of small sources)... */
const MIN_SPARSE_ENTRIES = 64;
/** ...and at most this many: a large Map costs more per entry than the typed array it defers. */
const MAX_SPARSE_ENTRIES = 1024;

export class OffsetTable {
  readonly #size: number;
  readonly #sparseLimit: number;
  #sparse: Map<number, number> | undefined;
  #dense: Int32Array | undefined;

  /** A table for offsets `0 <= at < size`. */
  constructor(size: number) {
    this.#size = size;
    this.#sparseLimit = Math.min(MAX_SPARSE_ENTRIES, Math.max(MIN_SPARSE_ENTRIES, Math.floor(size / DENSE_AFTER)));
  }

  /** The value recorded at `at`, or 0. */
  get(at: number): number {
    const dense = this.#dense;
    if (dense !== undefined) return dense[at] as number;
    const sparse = this.#sparse;
    if (sparse === undefined) return 0;
    return sparse.get(at) ?? 0;
  }

  /** Record `value` (non-zero) at `at`. */
  set(at: number, value: number): void {
    const dense = this.#dense;
    if (dense !== undefined) {
      dense[at] = value;
      return;
    }
    const sparse = (this.#sparse ??= new Map());
    sparse.set(at, value);
    if (sparse.size <= this.#sparseLimit) return;
    const moved = new Int32Array(this.#size);
    for (const [offset, recorded] of sparse) moved[offset] = recorded;
    this.#dense = moved;
    this.#sparse = undefined;
  }
}
