// The library's JWKSStore hook on KV: a new isolate starts from the last good
// set another isolate fetched instead of going to the issuer. Entries are sealed
// (a foreign write must not plant a key), carry their fetch time and freshness (so a
// dropped key stops verifying within the max age whoever reads them) and are kept for
// the life the library gives (fresh life plus its stale window), so a cold isolate
// still has keys while the issuer is down.
// The shape the library asks of a store (src/keys/remote.ts): every read is bounded
// by cache.kvTimeoutMs (then a miss), and a write's promise is handed back to the
// request (key-set-tiers.ts, then ctx.waitUntil) instead of delaying it.

import { storedEntry, type JWKSStore, type StoredJWKS } from '../keys/store.js';
import type { Counters } from './counters.js';
import { bounded, KV_MIN_TTL, type KVLike } from './kv.js';
import type { Sealer } from './seal.js';

export class KvJwksStore implements JWKSStore {
  readonly #kv: KVLike;
  readonly #sealer: Sealer;
  readonly #timeoutMs: number;
  readonly #counters: Counters;

  constructor(kv: KVLike, sealer: Sealer, timeoutMs: number, counters: Counters) {
    this.#kv = kv;
    this.#sealer = sealer;
    this.#timeoutMs = timeoutMs;
    this.#counters = counters;
  }

  static key(url: string): string {
    // v2: the value is a StoredJWKS (the set with its times); a v1 value (the bare set) is never read.
    return `jwks:v2:${url}`;
  }

  async get(url: string): Promise<StoredJWKS | undefined> {
    const key = KvJwksStore.key(url);
    const value = await bounded(
      () => this.#kv.get(key, 'text'),
      this.#timeoutMs,
      null,
      () => this.#counters.inc('jwks_store_error'),
    );
    if (value === null) return undefined;
    const json = await this.#sealer.open(key, value).catch(() => undefined);
    if (json === undefined) {
      this.#counters.inc('jwks_store_error');
      return undefined;
    }
    const entry = storedEntry(JSON.parse(json));
    this.#counters.inc(entry === undefined ? 'jwks_store_error' : 'jwks_store_hit');
    return entry;
  }

  put(url: string, entry: StoredJWKS, ttlSeconds: number): Promise<void> {
    const key = KvJwksStore.key(url);
    const ttl = Math.max(KV_MIN_TTL, Math.ceil(ttlSeconds));
    return this.#sealer
      .seal(key, JSON.stringify(entry))
      .then((v) => this.#kv.put(key, v, { expirationTtl: ttl }))
      .catch(() => this.#counters.inc('jwks_store_error'));
  }

  /** A sealed JSON document kept beside the key sets (the OIDC discovery document). */
  async getDocument(url: string): Promise<unknown> {
    const key = `doc:v1:${url}`;
    const value = await bounded(
      () => this.#kv.get(key, 'text'),
      this.#timeoutMs,
      null,
      () => this.#counters.inc('jwks_store_error'),
    );
    if (value === null) return undefined;
    const json = await this.#sealer.open(key, value).catch(() => undefined);
    if (json === undefined) return undefined;
    return JSON.parse(json) as unknown;
  }

  putDocument(url: string, doc: unknown, ttlSeconds: number): Promise<void> {
    const key = `doc:v1:${url}`;
    return this.#sealer
      .seal(key, JSON.stringify(doc))
      .then((v) => this.#kv.put(key, v, { expirationTtl: Math.max(KV_MIN_TTL, Math.ceil(ttlSeconds)) }))
      .catch(() => this.#counters.inc('jwks_store_error'));
  }
}
