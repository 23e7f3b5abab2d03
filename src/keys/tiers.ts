// The stores of a remote key set, nearest first, read under one deadline for the
// whole lookup (not one per tier): the first fresh entry wins and is copied into the
// nearer tiers that lacked it; past freshness the newest entry is kept as the stale
// fallback. Writes go to every tier and are handed to waitUntil, never awaited by a
// verify. The first tier that keeps fetch attempts is where isolates coordinate.

import type { Deadline } from './fetch-deadline.js';
import { fetchAttempt, storedEntry, type FetchAttempt, type JWKSStore, type StoredJWKS } from './store.js';

export interface TierSettings {
  url: string;
  /** Past freshness, how long an entry is still worth keeping (staleDuration), ms. */
  staleMs: number;
  /** How long an attempt note matters (cooldownDuration), ms. */
  cooldownMs: number;
  waitUntil: ((write: Promise<unknown>) => void) | undefined;
  now: () => number;
}

export class StoreTiers {
  readonly #stores: readonly JWKSStore[];
  readonly #notes: JWKSStore | undefined;
  readonly #s: TierSettings;

  constructor(stores: readonly JWKSStore[], settings: TierSettings) {
    this.#stores = stores;
    this.#notes = stores.find((s) => typeof s.getAttempt === 'function' && typeof s.putAttempt === 'function');
    this.#s = settings;
  }

  /** True when a tier keeps fetch attempts (refetches bounded per data centre). */
  get shared(): boolean {
    return this.#notes !== undefined;
  }

  /** The first fresh entry nearest first, else the newest stale one; undefined when no tier answers in time. */
  async read(deadline: Deadline): Promise<StoredJWKS | undefined> {
    const seen: (StoredJWKS | undefined)[] = [];
    let best: StoredJWKS | undefined;
    for (const store of this.#stores) {
      if (deadline.passed) break;
      let entry: StoredJWKS | undefined;
      try {
        entry = storedEntry(await deadline.race(Promise.resolve().then(() => store.get(this.#s.url))));
      } catch {
        break;
      }
      seen.push(entry);
      if (entry !== undefined && (best === undefined || entry.fetchedAt > best.fetchedAt)) best = entry;
      if (entry !== undefined && this.#s.now() < entry.freshUntil) break;
    }
    const found = best;
    if (found !== undefined) {
      // Copy it where it was missing or older, so the next isolate finds it nearer.
      seen.forEach((e, i) => {
        if (e === undefined || e.fetchedAt < found.fetchedAt) this.#put(this.#stores[i]!, found);
      });
    }
    return found;
  }

  /** Every tier gets the set just fetched. */
  write(entry: StoredJWKS): void {
    for (const store of this.#stores) this.#put(store, entry);
  }

  /** The last fetch attempt noted by any isolate sharing the nearest attempt-keeping tier. */
  async lastAttempt(deadline: Deadline): Promise<FetchAttempt | undefined> {
    const notes = this.#notes;
    if (notes === undefined) return undefined;
    return fetchAttempt(await deadline.race(Promise.resolve().then(() => notes.getAttempt!(this.#s.url))));
  }

  /** Note an attempt; the promise settles when the tier has it (callers that coordinate wait for it). */
  noteAttempt(attempt: FetchAttempt): Promise<void> {
    const notes = this.#notes;
    if (notes === undefined) return Promise.resolve();
    const ttl = Math.ceil(this.#s.cooldownMs / 1000) + 1;
    return Promise.resolve().then(() => notes.putAttempt!(this.#s.url, attempt, ttl));
  }

  /** Hand a write that nobody waits for to waitUntil. */
  handOff(write: Promise<unknown>): void {
    const settled = write.catch(() => undefined);
    try {
      this.#s.waitUntil?.(settled);
    } catch {
      // A waitUntil that throws (the request already ended) loses the write, nothing else.
    }
  }

  #put(store: JWKSStore, entry: StoredJWKS): void {
    const ttl = Math.ceil((entry.freshUntil + this.#s.staleMs - this.#s.now()) / 1000);
    if (ttl <= 0) return;
    this.handOff(Promise.resolve().then(() => store.put(this.#s.url, entry, ttl)));
  }
}
