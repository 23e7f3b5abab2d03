// What a key-set store holds and answers: the tiers a remote key set reads before the
// network (memory -> e.g. the Cache API of this data centre -> Workers KV -> issuer).
// Every tier is a cache, never a dependency: a read that fails, hangs past the one
// deadline of the lookup, or returns something malformed is a miss.

import type { JSONWebKeySet } from './local.js';

type Awaitable<T> = T | Promise<T>;

/**
 * A fetched key set as a store keeps it: the issuer's JSON and the wall-clock times
 * (ms since the epoch) that bound its use, so that whichever tier serves it, a key
 * the issuer dropped stops verifying once the set is no longer fresh.
 *
 * @example
 * const entry: StoredJWKS = { jwks: { keys: [jwk] }, fetchedAt: Date.now(), freshUntil: Date.now() + 600_000 };
 */
export interface StoredJWKS {
  jwks: JSONWebKeySet;
  /** When it was fetched from the issuer. */
  fetchedAt: number;
  /** Until when it is fresh; past it, only a stale fallback while the issuer fails (staleDuration). */
  freshUntil: number;
}

/**
 * The last time an isolate sharing the store asked the issuer for a set, and how it
 * went, so that refetches (an unknown `kid`, an expired set, a failure) cost one fetch
 * per cooldown per place, not one per isolate.
 *
 * @example
 * const note: FetchAttempt = { at: Date.now(), id: crypto.randomUUID() }; // in flight
 */
export interface FetchAttempt {
  at: number;
  /** Random, so that the isolate that wrote a note can tell it from another's. */
  id: string;
  /** Absent while the fetch is in flight. */
  outcome?: 'ok' | 'failed';
}

/**
 * A tier of fetched key sets shared beyond this isolate: a cache, never a dependency.
 * `get` returns the entry another isolate stored (or undefined); `put` gets the entry
 * and how long it is worth keeping in seconds (fresh life plus staleDuration) and is
 * never waited for (its promise goes to the `waitUntil` option). Errors are misses.
 * A store shared by the isolates of one data centre (the Cache API) may also keep
 * fetch attempts (`getAttempt` and `putAttempt`, both or neither); without them the
 * refetch bounds hold per isolate.
 *
 * @example
 * // Workers KV as a tier (KV's shortest life is 60 s); no waiting on writes.
 * const kvStore: JWKSStore = {
 *   get: (url) => env.JWKS.get(url, 'json'),
 *   put: (url, entry, ttl) => env.JWKS.put(url, JSON.stringify(entry), { expirationTtl: Math.max(60, ttl) }),
 * };
 * // Nearest first: this data centre's cache (sealed), then KV, then the issuer.
 * const jwks = createRemoteJWKSet(url, {
 *   store: [cacheApiStore({ seal: await createSealer(env.CACHE_KEY) }), kvStore],
 *   waitUntil: (p) => ctx.waitUntil(p),
 * });
 *
 * @example
 * // Deno (Deno KV as the one tier; Bun or Node: any key-value client the same way). No Cache API needed:
 * // refetch bounds then hold per process.
 * const kv = await Deno.openKv();
 * const denoStore: JWKSStore = {
 *   get: async (url) => (await kv.get<StoredJWKS>(['jwks', url])).value,
 *   put: async (url, entry, ttl) => void (await kv.set(['jwks', url], entry, { expireIn: ttl * 1000 })),
 * };
 * const jwks = createRemoteJWKSet(url, { store: denoStore });
 */
export interface JWKSStore {
  get(url: string): Awaitable<StoredJWKS | undefined | null>;
  put(url: string, entry: StoredJWKS, ttlSeconds: number): Awaitable<void>;
  getAttempt?(url: string): Awaitable<FetchAttempt | undefined | null>;
  putAttempt?(url: string, attempt: FetchAttempt, ttlSeconds: number): Awaitable<void>;
}

/** `value` as a StoredJWKS when it has that shape; undefined for anything else. */
export function storedEntry(value: unknown): StoredJWKS | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<StoredJWKS>;
  if (typeof v.jwks !== 'object' || v.jwks === null) return undefined;
  if (!Number.isFinite(v.fetchedAt) || !Number.isFinite(v.freshUntil)) return undefined;
  return { jwks: v.jwks, fetchedAt: v.fetchedAt!, freshUntil: v.freshUntil! };
}

/** `value` as a FetchAttempt when it has that shape; undefined for anything else. */
export function fetchAttempt(value: unknown): FetchAttempt | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<FetchAttempt>;
  if (!Number.isFinite(v.at) || typeof v.id !== 'string') return undefined;
  if (v.outcome !== undefined && v.outcome !== 'ok' && v.outcome !== 'failed') return undefined;
  return v.outcome === undefined ? { at: v.at!, id: v.id } : { at: v.at!, id: v.id, outcome: v.outcome };
}
