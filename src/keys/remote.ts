// A key set fetched from the issuer's jwks_uri: memory, then an optional `store`
// (e.g. Workers KV), then the network. One fetch in flight, a timeout, a size cap,
// Cache-Control max-age within bounds, refetch on an unknown kid at most once per
// cooldown, the last good set served for a bounded time when the issuer fails,
// and a sequence number so an older response never replaces a newer set.

import { Deadline, fetchCapped } from './fetch-deadline.js';
import type { AlgSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import type { KeyEntry } from './entry.js';
import { parseJwks, type JSONWebKeySet } from './local.js';
import { optionsError } from '../options-error.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';

export type { JSONWebKeySet };
import { KEY_SOURCE, pick, type KeySource } from './source.js';

/**
 * Where fetched sets are shared beyond this isolate: a cache, never a dependency.
 * `get` returns a set another isolate stored (or undefined) and is given
 * `storeTimeoutDuration` before the network is asked instead; `put` receives the
 * parsed JSON and how long it stays fresh, in seconds, and is never waited for (its
 * promise goes to the `waitUntil` option when one is given). Errors from either
 * are treated as a miss.
 *
 * @example
 * // Workers KV as the store (KV's shortest life is 60 s); the write outlives the response through waitUntil.
 * const store: JWKSStore = {
 *   get: (url) => env.JWKS.get(url, 'json'),
 *   put: (url, jwks, ttl) => env.JWKS.put(url, JSON.stringify(jwks), { expirationTtl: Math.max(60, ttl) }),
 * };
 * const jwks = createRemoteJWKSet(url, { store, waitUntil: (p) => ctx.waitUntil(p) });
 */
export interface JWKSStore {
  get(url: string): Promise<JSONWebKeySet | undefined | null> | JSONWebKeySet | undefined | null;
  put(url: string, jwks: JSONWebKeySet, ttlSeconds: number): Promise<void> | void;
}

/**
 * Options of createRemoteJWKSet; durations in ms, sizes in bytes.
 *
 * @example
 * createRemoteJWKSet(url, { timeoutDuration: 2000, cooldownDuration: 10_000, store });
 */
export interface RemoteJWKSetOptions {
  /** Abort a fetch after this many ms (default 5000). */
  timeoutDuration?: number;
  /** Minimum ms between fetches caused by an unknown kid or a failure (default 30000). */
  cooldownDuration?: number;
  /** Upper bound in ms on how long a set is fresh, whatever max-age says (default 600000). */
  cacheMaxAge?: number;
  /** Lower bound in ms on freshness, so a `max-age=0` issuer is not fetched per request (default 30000). */
  cacheMinAge?: number;
  /** How long past freshness the last good set is still served while fetches fail (default 3600000). */
  staleDuration?: number;
  /** Largest response body accepted, in bytes (default 262144). */
  maxSize?: number;
  /** Accept `kty: "oct"` keys from this set. Off: a published set must never carry HMAC secrets. */
  allowHmac?: boolean;
  store?: JWKSStore;
  /** How long `store.get` may take before the network is asked instead, in ms (default 500). */
  storeTimeoutDuration?: number;
  /** Receives each `store.put` promise (e.g. `(p) => ctx.waitUntil(p)`): no verify ever waits for a write. */
  waitUntil?: (write: Promise<unknown>) => void;
  headers?: Record<string, string>;
  /** Injected fetch (tests, custom agents), called as a plain function. Defaults to globalThis.fetch. */
  fetch?: typeof fetch;
  /** Injected clock in ms (tests). Defaults to Date.now. */
  now?: () => number;
}

/** The names createRemoteJWKSet accepts: checkOptionNames refuses any other (a misspelt option would turn a check off). */
export const REMOTE_SET_OPTION_NAMES = {
  timeoutDuration: true, cooldownDuration: true, cacheMaxAge: true, cacheMinAge: true, staleDuration: true,
  maxSize: true, allowHmac: true, store: true, storeTimeoutDuration: true, waitUntil: true, headers: true, fetch: true, now: true,
} as const satisfies OptionNames<RemoteJWKSetOptions>;

interface Installed {
  keys: KeyEntry[];
  seq: number;
  /** Clock time it stops being fresh. */
  freshUntil: number;
}

const MAX_AGE = /(?:^|,)\s*max-age\s*=\s*(\d{1,10})\s*(?:,|$)/i;

/**
 * A key set fetched from a URL (build it with createRemoteJWKSet): memory, then the
 * optional store, then the network; one fetch in flight at a time.
 *
 * @example
 * const set = createRemoteJWKSet('https://issuer.example/.well-known/jwks.json');
 * await set.reload(); // fetch now, e.g. at startup
 * set.fresh; // true while a fresh set is in memory
 */
export class RemoteJWKSet implements KeySource {
  readonly [KEY_SOURCE] = true as const;
  readonly url: string;
  readonly #o: Required<Omit<RemoteJWKSetOptions, 'store' | 'headers' | 'fetch' | 'waitUntil'>> & Pick<RemoteJWKSetOptions, 'store' | 'headers' | 'fetch' | 'waitUntil'>;
  #set: Installed | undefined;
  #seq = 0;
  #inflight: Promise<Installed> | undefined;
  /** Clock time of the last network attempt (success or failure). */
  #lastAttempt = -Infinity;
  #lastError: JwtError | undefined;
  /** The one store read (concurrent loads join it); 'done' once it settled. */
  #storeRead: Promise<Installed | undefined> | 'done' | undefined;

  constructor(url: string | URL, options: RemoteJWKSetOptions = {}) {
    const parsed = new URL(String(url));
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw optionsError('url', 'JWKS URL must be http(s)');
    }
    this.url = parsed.href;
    checkOptionNames(options, REMOTE_SET_OPTION_NAMES);
    this.#o = {
      timeoutDuration: options.timeoutDuration ?? 5_000,
      cooldownDuration: options.cooldownDuration ?? 30_000,
      cacheMaxAge: options.cacheMaxAge ?? 600_000,
      cacheMinAge: options.cacheMinAge ?? 30_000,
      staleDuration: options.staleDuration ?? 3_600_000,
      maxSize: options.maxSize ?? 262_144,
      allowHmac: options.allowHmac === true,
      now: options.now ?? Date.now,
      store: options.store,
      storeTimeoutDuration: options.storeTimeoutDuration ?? 500,
      waitUntil: options.waitUntil,
      headers: options.headers,
      fetch: options.fetch,
    };
    for (const k of ['timeoutDuration', 'cooldownDuration', 'cacheMaxAge', 'cacheMinAge', 'staleDuration', 'maxSize', 'storeTimeoutDuration'] as const) {
      const v = this.#o[k];
      if (typeof v !== 'number' || !(v >= 0) || !Number.isInteger(v)) throw optionsError(k, 'expected an integer, 0 or more');
    }
    if (options.waitUntil !== undefined && typeof options.waitUntil !== 'function') throw optionsError('waitUntil');
  }

  /** True when a fresh set is in memory (a verify will not wait on I/O for a known kid). */
  get fresh(): boolean {
    return this.#set !== undefined && this.#o.now() < this.#set.freshUntil;
  }

  select(spec: AlgSpec, kid: string | undefined): KeyEntry | Promise<KeyEntry> {
    const set = this.#set;
    if (set !== undefined && this.#o.now() < set.freshUntil) {
      const key = pick(set.keys, spec, kid, this.#o.allowHmac);
      if (key !== undefined) return key;
      return this.#afterMiss(spec, kid);
    }
    return this.#load().then((s) => {
      const key = pick(s.keys, spec, kid, this.#o.allowHmac);
      return key ?? this.#afterMiss(spec, kid);
    });
  }

  /** Fetch now (single flight), ignoring freshness and the cooldown. */
  reload(): Promise<void> {
    return this.#fetchShared().then(() => undefined);
  }

  // An unknown kid may mean the issuer rotated: refetch, at most once per cooldown.
  #afterMiss(spec: AlgSpec, kid: string | undefined): Promise<KeyEntry> {
    const now = this.#o.now();
    if (this.#inflight === undefined && now - this.#lastAttempt < this.#o.cooldownDuration) {
      return Promise.reject(new JwtError('ERR_JWKS_NO_MATCHING_KEY'));
    }
    return this.#fetchShared().then((s) => {
      const key = pick(s.keys, spec, kid, this.#o.allowHmac);
      if (key === undefined) throw new JwtError('ERR_JWKS_NO_MATCHING_KEY');
      return key;
    });
  }

  // No fresh set in memory: the store first (once per isolate), then the network;
  // on failure, the last good set while it is within the stale window.
  async #load(): Promise<Installed> {
    if (this.#o.store !== undefined && this.#storeRead !== 'done') {
      // Once per set: the first load reads the store, concurrent ones wait for that read.
      let read = this.#storeRead;
      if (read === undefined) {
        read = this.#readStore().finally(() => {
          this.#storeRead = 'done';
        });
        this.#storeRead = read;
      }
      const fromStore = await read;
      if (fromStore !== undefined) return fromStore;
    }
    const now = this.#o.now();
    const last = this.#set;
    if (this.#inflight === undefined && now - this.#lastAttempt < this.#o.cooldownDuration && this.#lastError !== undefined) {
      // The issuer failed moments ago: do not hammer it.
      if (last !== undefined && now < last.freshUntil + this.#o.staleDuration) return last;
      throw this.#lastError;
    }
    try {
      return await this.#fetchShared();
    } catch (error) {
      if (last !== undefined && this.#o.now() < last.freshUntil + this.#o.staleDuration) return last;
      throw error;
    }
  }

  // The store is a cache: a read that does not answer within its deadline is a miss.
  async #readStore(): Promise<Installed | undefined> {
    const seq = ++this.#seq;
    const deadline = new Deadline(this.#o.storeTimeoutDuration);
    try {
      const jwks = await deadline.race(Promise.resolve().then(() => this.#o.store!.get(this.url)));
      if (jwks === undefined || jwks === null) return undefined;
      const keys = parseJwks(jwks);
      const now = this.#o.now();
      // The store expires its own entries; trust a stored set for the minimum age, then ask again.
      return this.#install({ keys, seq, freshUntil: now + this.#o.cacheMinAge });
    } catch {
      return undefined;
    } finally {
      deadline.clear();
    }
  }

  #fetchShared(): Promise<Installed> {
    if (this.#inflight !== undefined) return this.#inflight;
    const seq = ++this.#seq;
    this.#lastAttempt = this.#o.now();
    const p = this.#fetchOnce(seq).then(
      (s) => {
        this.#lastError = undefined;
        return s;
      },
      (error: unknown) => {
        const e = error instanceof JwtError ? error : new JwtError('ERR_JWKS_FETCH_FAILED', { cause: error });
        this.#lastError = e;
        throw e;
      },
    );
    this.#inflight = p;
    const clear = (): void => {
      if (this.#inflight === p) this.#inflight = undefined;
    };
    p.then(clear, clear);
    return p;
  }

  async #fetchOnce(seq: number): Promise<Installed> {
    // One deadline over the request and the whole body (fetch-deadline.ts).
    const { text, headers } = await fetchCapped(this.url, {
      fetch: this.#o.fetch,
      headers: { accept: 'application/json, application/jwk-set+json', ...this.#o.headers },
      timeoutMs: this.#o.timeoutDuration,
      cap: this.#o.maxSize,
      what: 'key set',
    });
    const cacheControl = headers.get('cache-control');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new JwtError('ERR_JWKS_INVALID', { reason: 'response is not JSON' });
    }
    const keys = parseJwks(json);
    const now = this.#o.now();
    const ttl = this.#ttl(cacheControl);
    const installed = this.#install({ keys, seq, freshUntil: now + ttl });
    if (this.#o.store !== undefined && installed.seq === seq) this.#writeStore(json as JSONWebKeySet, Math.ceil(ttl / 1000));
    return installed;
  }

  // Never awaited: a write that hangs or fails must not hold the verifies that fetched.
  #writeStore(jwks: JSONWebKeySet, ttlSeconds: number): void {
    const store = this.#o.store!;
    // The set in memory is already good; a failed write only costs another isolate a fetch.
    const write = Promise.resolve()
      .then(() => store.put(this.url, jwks, ttlSeconds))
      .catch(() => undefined);
    try {
      this.#o.waitUntil?.(write);
    } catch {
      // A waitUntil that throws (the request already ended) loses the write, nothing else.
    }
  }

  #ttl(cacheControl: string | null): number {
    const { cacheMinAge: lo, cacheMaxAge: hi } = this.#o;
    if (cacheControl === null) return hi;
    if (/(?:^|,)\s*no-(?:store|cache)\b/i.test(cacheControl)) return Math.min(lo, hi);
    const m = MAX_AGE.exec(cacheControl);
    if (m === null) return hi;
    return Math.min(hi, Math.max(lo, Number(m[1]) * 1000));
  }

  // Sequence numbers are issued when a fetch starts: a slow old response that lands
  // after a newer one is dropped, and callers get the newer set. A key the new set
  // still holds keeps its entry (its imports and the cached verdicts it proved); one
  // it dropped is retired, so no cache serves what it proved (KeyEntry.validUntil).
  #install(candidate: Installed): Installed {
    const current = this.#set;
    if (current !== undefined && current.seq > candidate.seq) return current;
    const keys = current === undefined ? candidate.keys : carryOver(current.keys, candidate.keys);
    for (const k of keys) k.validUntil = candidate.freshUntil;
    const installed = { ...candidate, keys };
    this.#set = installed;
    return installed;
  }

  /**
   * The key a fresh set in memory holds for `spec` and `kid`, without any I/O;
   * undefined when there is no fresh set or no single key fits.
   */
  peek(spec: AlgSpec, kid: string | undefined): KeyEntry | undefined {
    const set = this.#set;
    if (set === undefined || this.#o.now() >= set.freshUntil) return undefined;
    try {
      return pick(set.keys, spec, kid, this.#o.allowHmac);
    } catch {
      return undefined;
    }
  }
}

/** `next` with each key `old` also held (same fingerprint) replaced by the old entry; the rest of `old` retired. */
function carryOver(old: readonly KeyEntry[], next: KeyEntry[]): KeyEntry[] {
  const byPrint = new Map<string | undefined, KeyEntry>();
  for (const k of old) byPrint.set(k.fingerprint, k);
  const kept = new Set<KeyEntry>();
  const out = next.map((k) => {
    const same = byPrint.get(k.fingerprint);
    if (same === undefined || k.fingerprint === undefined || kept.has(same)) return k;
    kept.add(same);
    return same;
  });
  for (const k of old) if (!kept.has(k)) k.validUntil = -Infinity;
  return out;
}

/**
 * A key set an issuer publishes at `url` (http or https), for `jwks` in createVerifier.
 * Cache-Control is honoured within [cacheMinAge, cacheMaxAge]; an unknown `kid`
 * refetches at most once per cooldown; redirects are failures; HMAC keys are refused
 * unless `allowHmac`.
 *
 * @example
 * import { createRemoteJWKSet, createVerifier } from 'edgejwt';
 *
 * const jwks = createRemoteJWKSet('https://issuer.example/.well-known/jwks.json', { timeoutDuration: 2000 });
 * const verifier = createVerifier({ algorithms: ['RS256'], jwks, issuer: 'https://issuer.example', audience: 'api' });
 */
export function createRemoteJWKSet(url: string | URL, options?: RemoteJWKSetOptions): RemoteJWKSet {
  return new RemoteJWKSet(url, options);
}
