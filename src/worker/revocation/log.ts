// The revocation list itself, in memory: entries numbered by a version that only
// grows, lapsed entries dropped, a bound on how many are held. The Durable Object
// keeps one of these in step with its storage; the "isolate" store is one alone.

import type { RevocationEntry, VersionedEntry } from './entry.js';

/**
 * What a view asks for: every live entry newer than its version. `full` says the
 * answer replaces what the view holds (it asked from 0, or from a version this list
 * never reached: the list was lost and started again).
 *
 * @example
 * const delta: RevocationDelta = { version: 3, full: false, entries: [{ jti: 'a', exp: 1_800_000_600, version: 3 }] };
 */
export interface RevocationDelta {
  readonly version: number;
  readonly full: boolean;
  readonly entries: readonly VersionedEntry[];
}

/** Default bound on live entries; a revoke beyond it is refused (never an eviction). */
export const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * An ordered, bounded, self-pruning list of revocations.
 *
 * @example
 * const log = new RevocationLog();
 * log.revoke({ jti: 'a', exp: now + 60 }, now); // { version: 1, pruned: [] }
 * log.since(0, now).entries.length; // 1
 */
export class RevocationLog {
  #version = 0;
  // Insertion order is version order: entries are only ever appended.
  readonly #entries = new Map<number, VersionedEntry>();

  constructor(readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Restore from storage: the last version handed out and the entries still held. */
  load(version: number, entries: Iterable<VersionedEntry>): void {
    this.#entries.clear();
    const sorted = [...entries].sort((a, b) => a.version - b.version);
    for (const e of sorted) this.#entries.set(e.version, e);
    this.#version = Math.max(version, sorted.at(-1)?.version ?? 0);
  }

  /**
   * Add `entry` as the next version, after dropping what lapsed at `nowS`. Returns the
   * new version and the versions pruned (for storage), or undefined when the list is full.
   */
  revoke(entry: RevocationEntry, nowS: number): { version: number; pruned: number[] } | undefined {
    const pruned = this.prune(nowS);
    if (this.#entries.size >= this.maxEntries) return undefined;
    const version = ++this.#version;
    this.#entries.set(version, { ...entry, version });
    return { version, pruned };
  }

  /** Drop entries whose `exp` is at or before `nowS`; returns their versions. */
  prune(nowS: number): number[] {
    const gone: number[] = [];
    for (const [v, e] of this.#entries) if (e.exp <= nowS) gone.push(v);
    for (const v of gone) this.#entries.delete(v);
    return gone;
  }

  /** Live entries newer than `version` (all of them from 0 or from a version never reached). */
  since(version: number, nowS: number): RevocationDelta {
    const full = !(Number.isSafeInteger(version) && version > 0 && version <= this.#version);
    const entries: VersionedEntry[] = [];
    for (const e of this.#entries.values()) if ((full || e.version > version) && e.exp > nowS) entries.push(e);
    return { version: this.#version, full, entries };
  }

  /** The earliest `exp` held, in seconds (when the next prune is due), or undefined. */
  nextExpiry(): number | undefined {
    let min: number | undefined;
    for (const e of this.#entries.values()) if (min === undefined || e.exp < min) min = e.exp;
    return min;
  }
}
