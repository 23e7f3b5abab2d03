// Where the guard keeps fetched key sets and discovery documents beyond this isolate,
// nearest first: this data centre's Cache API (sealed with CACHE_KEY; one copy per
// data centre, and it keeps the fetch-attempt notes that bound refetches per data
// centre), then the KV copy. Both are caches, never dependencies. Writes are collected
// here and handed to the request's ctx.waitUntil once its verify settles (verify-tiers.ts).

import { Deadline } from '../keys/fetch-deadline.js';
import { openCacheApiStore, type CacheApiStore } from '../keys/cache-store.js';
import { readNearestFirst } from '../keys/tiers.js';
import type { JWKSStore } from '../keys/store.js';
import type { KvJwksStore } from './jwks-store.js';
import type { Sealer } from './seal.js';

/** What discovery (discovery.ts) reads and writes its documents through. */
export interface DocumentStore {
  /** Within `lookup` (the verify's deadline). */
  getDocument(url: string, lookup: Deadline): Promise<unknown>;
  putDocument(url: string, doc: unknown, ttlSeconds: number): void;
}

/**
 * This data centre's Cache API tier, when the runtime has one (`caches.default`: not in Node).
 *
 * @example
 * const colo = config.cache.jwksColo ? coloTier(sealer) : undefined;
 */
export function coloTier(sealer: Sealer | undefined): CacheApiStore | undefined {
  const caches = (globalThis as { caches?: { default?: unknown } }).caches;
  if (sealer === undefined || caches?.default === undefined) return undefined;
  return openCacheApiStore({ seal: sealer });
}

/**
 * The guard's key-set tiers (each optional) and the writes they started.
 *
 * @example
 * const tiers = new KeySetTiers(coloTier(sealer), kvJwksStore, config.cache.kvTimeoutMs);
 * createRemoteJWKSet(url, { store: tiers.stores, waitUntil: tiers.hold });
 * ctx.waitUntil(tiers.drain() ?? Promise.resolve());
 */
export class KeySetTiers implements DocumentStore {
  /** Nearest first, for createRemoteJWKSet's `store`. */
  readonly stores: JWKSStore[];
  /** The same tiers, for discovery documents. */
  readonly #documents: (CacheApiStore | KvJwksStore)[];
  /** The cap on a lookup in every tier (within the verify's deadline), ms. */
  readonly lookupMs: number;
  #pending: Promise<unknown>[] = [];

  constructor(colo: CacheApiStore | undefined, kv: KvJwksStore | undefined, lookupMs: number) {
    this.lookupMs = lookupMs;
    this.#documents = [colo, kv].filter((s) => s !== undefined);
    this.stores = this.#documents;
  }

  /** Keeps a write for the current request's waitUntil (the library's `waitUntil` option). */
  hold = (write: Promise<unknown>): void => {
    this.#pending.push(write.catch(() => undefined));
  };

  /** Writes started since the last call, for the current request's ctx.waitUntil. */
  drain(): Promise<void> | undefined {
    if (this.#pending.length === 0) return undefined;
    const all = Promise.all(this.#pending).then(() => undefined);
    this.#pending = [];
    return all;
  }

  /** The document from the nearest tier that has it, all tiers within `lookup` and lookupMs; copied nearer from KV. */
  async getDocument(url: string, lookup: Deadline): Promise<unknown> {
    const deadline = lookup.within(this.lookupMs);
    try {
      const seen = await readNearestFirst(
        this.#documents,
        deadline,
        (t) => t.getDocument(url),
        () => true,
      );
      const found = seen.at(-1);
      if (found !== undefined) {
        seen.forEach((d, i) => d === undefined && this.hold(this.#documents[i]!.putDocument(url, found, COPY_TTL)));
      }
      return found;
    } finally {
      deadline.clear();
    }
  }

  putDocument(url: string, doc: unknown, ttlSeconds: number): void {
    for (const tier of this.#documents) this.hold(tier.putDocument(url, doc, ttlSeconds));
  }
}

/** A document copied up from KV is kept for an hour: its own life there is not known. */
const COPY_TTL = 3600;
