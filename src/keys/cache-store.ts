// A key-set tier in the Cache API: `caches.default` on Workers is one cache per data
// centre shared by every isolate of the zone, read in a few ms, and free. It is also
// shared by every other Worker of the zone, so each entry is sealed (seal.ts): one that
// does not open is a miss. Keys are synthetic https URLs made from the key-set URL
// alone (a keyed digest, so no other Worker can name our entries), never from a request.
// The tier keeps fetch-attempt notes too, so refetches are bounded per data centre.

import { optionsError } from '../options-error.js';
import type { Sealer } from './seal.js';
import { fetchAttempt, storedEntry, type FetchAttempt, type JWKSStore, type StoredJWKS } from './store.js';

/** The two methods of a Cache the store calls (a Workers or WinterTC `Cache` satisfies it). */
export interface CacheLike {
  match(request: Request): Promise<Response | undefined>;
  put(request: Request, response: Response): Promise<void>;
}

/**
 * Options of cacheApiStore.
 *
 * @example
 * cacheApiStore({ seal: await createSealer(env.CACHE_KEY) }); // caches.default on Workers
 */
export interface CacheApiStoreOptions {
  /** Seals every entry; required: the Cache API is shared by every Worker of a zone. */
  seal: Sealer;
  /** The cache (or the promise `caches.open(name)` returns). Default: `caches.default` where it exists. */
  cache?: CacheLike | Promise<CacheLike>;
}

const HOST = 'https://edgejwt-cache.invalid';
const encoder = new TextEncoder();

/**
 * A JWKSStore in the Cache API, for `store` in createRemoteJWKSet: nearest tier on
 * Workers (one copy per data centre, sealed). Throws ERR_OPTIONS_INVALID without a
 * `seal`, and without a `cache` where `caches.default` does not exist (Node, Deno and
 * Bun have no shared default cache: give `caches.open(name)` where there is one, or
 * leave this tier out). On `*.workers.dev` the Cache API stores nothing: the tier is
 * then an empty miss, and the other tiers and the network still serve.
 *
 * @example
 * // Workers: this data centre's cache, then KV, then the issuer.
 * import { cacheApiStore, createRemoteJWKSet, createSealer } from 'edgejwt';
 * const seal = await createSealer(env.CACHE_KEY);
 * const jwks = createRemoteJWKSet('https://id.example/.well-known/jwks.json', {
 *   store: [cacheApiStore({ seal }), kvStore],
 *   waitUntil: (p) => ctx.waitUntil(p),
 * });
 *
 * @example
 * // Deno (a named cache); Bun and Node have no Cache API: use memory and your own store.
 * const store = cacheApiStore({ seal, cache: caches.open('edgejwt') });
 */
export function cacheApiStore(options: CacheApiStoreOptions): JWKSStore {
  return openCacheApiStore(options);
}

/**
 * cacheApiStore with its document methods, for the guard's OIDC discovery documents.
 *
 * @example
 * const colo = openCacheApiStore({ seal });
 * colo.putDocument(discoveryUrl, doc, 86_400);
 */
export function openCacheApiStore(options: CacheApiStoreOptions): CacheApiStore {
  const o = (options ?? {}) as Partial<CacheApiStoreOptions>;
  const seal = o.seal as Sealer | undefined;
  if (seal === undefined || typeof seal !== 'object' || typeof seal.seal !== 'function') {
    throw optionsError('seal', 'the Cache API is shared by every Worker of the zone: give a Sealer (createSealer)');
  }
  const cache = o.cache ?? (globalThis as { caches?: { default?: CacheLike } }).caches?.default;
  if (cache === undefined || cache === null) {
    throw optionsError('cache', 'no caches.default here: give cache (e.g. caches.open(name)) or leave this tier out');
  }
  return new CacheApiStore(Promise.resolve(cache), seal);
}

/** A sealed Cache API tier: key sets, fetch-attempt notes and JSON documents. */
export class CacheApiStore implements JWKSStore {
  readonly #cache: Promise<CacheLike>;
  readonly #seal: Sealer;
  readonly #keys = new Map<string, Promise<string>>();

  constructor(cache: Promise<CacheLike>, seal: Sealer) {
    this.#cache = cache;
    this.#seal = seal;
  }

  async get(url: string): Promise<StoredJWKS | undefined> {
    return storedEntry(await this.#read(url, 'jwks'));
  }

  put(url: string, entry: StoredJWKS, ttlSeconds: number): Promise<void> {
    return this.#write(url, 'jwks', entry, ttlSeconds);
  }

  async getAttempt(url: string): Promise<FetchAttempt | undefined> {
    return fetchAttempt(await this.#read(url, 'attempt'));
  }

  putAttempt(url: string, attempt: FetchAttempt, ttlSeconds: number): Promise<void> {
    return this.#write(url, 'attempt', attempt, ttlSeconds);
  }

  /** A sealed JSON document kept beside the key sets (an OIDC discovery document); undefined on a miss. */
  getDocument(url: string): Promise<unknown> {
    return this.#read(url, 'doc');
  }

  putDocument(url: string, doc: unknown, ttlSeconds: number): Promise<void> {
    return this.#write(url, 'doc', doc, ttlSeconds);
  }

  async #read(url: string, kind: string): Promise<unknown> {
    const key = await this.#key(url, kind);
    const cache = await this.#cache;
    // Called on the cache object: never a detached method.
    const res = await cache.match(new Request(key));
    if (res === undefined) return undefined;
    const json = await this.#seal.open(key, await res.text());
    if (json === undefined) return undefined;
    try {
      return JSON.parse(json) as unknown;
    } catch {
      return undefined;
    }
  }

  async #write(url: string, kind: string, value: unknown, ttlSeconds: number): Promise<void> {
    const key = await this.#key(url, kind);
    const body = await this.#seal.seal(key, JSON.stringify(value));
    const cache = await this.#cache;
    const headers = { 'content-type': 'text/plain', 'cache-control': `max-age=${Math.max(1, Math.ceil(ttlSeconds))}` };
    await cache.put(new Request(key), new Response(body, { headers }));
  }

  // A keyed digest of the key-set URL: stable per URL and secret, unguessable without it.
  #key(url: string, kind: string): Promise<string> {
    const memo = `${kind} ${url}`;
    let key = this.#keys.get(memo);
    if (key === undefined) {
      key = this.#seal.digest(`edgejwt cache key ${kind}`, encoder.encode(url)).then((d) => `${HOST}/${kind}/v1/${d}`);
      this.#keys.set(memo, key);
    }
    return key;
  }
}
