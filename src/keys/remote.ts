// A key set fetched from the issuer's jwks_uri: memory, then an optional `store`
// (e.g. Workers KV), then the network. One fetch in flight, a timeout, a size cap,
// Cache-Control max-age within bounds, refetch on an unknown kid at most once per
// cooldown, the last good set served for a bounded time when the issuer fails,
// and a sequence number so an older response never replaces a newer set.

import { readCapped } from './read-capped.js';
import type { AlgSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import type { KeyEntry } from './entry.js';
import { parseJwks, type JSONWebKeySet } from './local.js';
import { optionsError } from '../options-error.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';

export type { JSONWebKeySet };
import { KEY_SOURCE, pick, type KeySource } from './source.js';

/**
 * Where fetched sets are shared beyond this isolate. `get` returns a set another
 * isolate stored (or undefined); `put` receives the parsed JSON and how long it
 * stays fresh, in seconds. Errors from either are treated as a miss.
 *
 * @example
 * // Workers KV as the store (KV's shortest life is 60 s).
 * const store: JWKSStore = {
 *   get: (url) => env.JWKS.get(url, 'json'),
 *   put: (url, jwks, ttl) => env.JWKS.put(url, JSON.stringify(jwks), { expirationTtl: Math.max(60, ttl) }),
 * };
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
  headers?: Record<string, string>;
  /** Injected fetch (tests, custom agents). Defaults to globalThis.fetch. */
  fetch?: typeof fetch;
  /** Injected clock in ms (tests). Defaults to Date.now. */
  now?: () => number;
}

/** The names createRemoteJWKSet accepts: checkOptionNames refuses any other (a misspelt option would turn a check off). */
export const REMOTE_SET_OPTION_NAMES = {
  timeoutDuration: true, cooldownDuration: true, cacheMaxAge: true, cacheMinAge: true, staleDuration: true,
  maxSize: true, allowHmac: true, store: true, headers: true, fetch: true, now: true,
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
  readonly #o: Required<Omit<RemoteJWKSetOptions, 'store' | 'headers' | 'fetch'>> & Pick<RemoteJWKSetOptions, 'store' | 'headers' | 'fetch'>;
  #set: Installed | undefined;
  #seq = 0;
  #inflight: Promise<Installed> | undefined;
  /** Clock time of the last network attempt (success or failure). */
  #lastAttempt = -Infinity;
  #lastError: JwtError | undefined;
  #triedStore = false;

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
      headers: options.headers,
      fetch: options.fetch,
    };
    for (const k of ['timeoutDuration', 'cooldownDuration', 'cacheMaxAge', 'cacheMinAge', 'staleDuration', 'maxSize'] as const) {
      const v = this.#o[k];
      if (typeof v !== 'number' || !(v >= 0) || !Number.isInteger(v)) throw optionsError(k, 'expected an integer, 0 or more');
    }
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
    if (!this.#triedStore && this.#o.store !== undefined) {
      this.#triedStore = true;
      const fromStore = await this.#readStore();
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

  async #readStore(): Promise<Installed | undefined> {
    const seq = ++this.#seq;
    try {
      const jwks = await this.#o.store!.get(this.url);
      if (jwks === undefined || jwks === null) return undefined;
      const keys = parseJwks(jwks);
      const now = this.#o.now();
      // The store expires its own entries; trust a stored set for the minimum age, then ask again.
      return this.#install({ keys, seq, freshUntil: now + this.#o.cacheMinAge });
    } catch {
      return undefined;
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
    const doFetch = this.#o.fetch ?? globalThis.fetch;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#o.timeoutDuration);
    let text: string;
    let cacheControl: string | null;
    try {
      let res: Response;
      try {
        res = await doFetch(this.url, {
          method: 'GET',
          headers: { accept: 'application/json, application/jwk-set+json', ...this.#o.headers },
          // A redirect could point the verifier at an attacker's keys: never follow one.
          redirect: 'manual',
          signal: controller.signal,
        });
      } catch (cause) {
        throw new JwtError(timedOut ? 'ERR_JWKS_TIMEOUT' : 'ERR_JWKS_FETCH_FAILED', { cause });
      }
      if (res.status !== 200) {
        void res.body?.cancel().catch(() => undefined);
        throw new JwtError('ERR_JWKS_FETCH_FAILED', { reason: `HTTP status ${res.status}` });
      }
      cacheControl = res.headers.get('cache-control');
      try {
        text = await readCapped(res, this.#o.maxSize, 'response');
      } catch (cause) {
        if (cause instanceof JwtError) throw cause;
        throw new JwtError(timedOut ? 'ERR_JWKS_TIMEOUT' : 'ERR_JWKS_FETCH_FAILED', { cause });
      }
    } finally {
      clearTimeout(timer);
    }
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
    if (this.#o.store !== undefined && installed.seq === seq) {
      try {
        await this.#o.store.put(this.url, json as JSONWebKeySet, Math.ceil(ttl / 1000));
      } catch {
        // The store is an optimisation; the set in memory is already good.
      }
    }
    return installed;
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
  // after a newer one is dropped, and callers get the newer set.
  #install(candidate: Installed): Installed {
    const current = this.#set;
    if (current !== undefined && current.seq > candidate.seq) return current;
    this.#set = candidate;
    return candidate;
  }
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
