// A key set fetched from the issuer's jwks_uri: memory, then the `store` tiers nearest
// first (e.g. this data centre's Cache API, then Workers KV; tiers.ts), then the network.
// One fetch in flight, one deadline over each lookup (stores, claim and fetch), a size
// cap, Cache-Control max-age within bounds, refetch on an unknown kid at most once per
// cooldown (per data centre when a tier keeps fetch attempts), the last good set from
// the nearest tier served for a bounded time when the issuer fails, and a sequence
// number so an older response never replaces a newer set.

import { Deadline, fetchCapped } from './fetch-deadline.js';
import type { AlgSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import type { KeyEntry } from './entry.js';
import { parseJwks, type JSONWebKeySet } from './local.js';
import { optionsError } from '../options-error.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';
import { KEY_SOURCE, pick, type KeySource } from './source.js';
import type { FetchAttempt, JWKSStore, StoredJWKS } from './store.js';
import { StoreTiers } from './tiers.js';

export type { FetchAttempt, JSONWebKeySet, JWKSStore, StoredJWKS };

/**
 * Options of createRemoteJWKSet; durations in ms, sizes in bytes.
 *
 * @example
 * createRemoteJWKSet(url, { timeoutDuration: 2000, cooldownDuration: 10_000, store });
 */
export interface RemoteJWKSetOptions {
  /**
   * The most a verify waits on I/O for this set, in ms (default 5000): one deadline over the whole lookup
   * beyond memory (the store tiers, the claim of the data centre's fetch or the wait for another isolate's,
   * and the fetch with its body). Past it: ERR_JWKS_TIMEOUT, or the last set within staleDuration.
   */
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
  /** Tiers read before the network, nearest first (JWKSStore); each a cache, never a dependency. */
  store?: JWKSStore | readonly JWKSStore[];
  /**
   * A cap on the lookup in the stores (all tiers together) and on the claim of a fetch, in ms (default 500),
   * each within what is left of timeoutDuration.
   */
  storeTimeoutDuration?: number;
  /** Receives each store write (e.g. `(p) => ctx.waitUntil(p)`): no verify ever waits for one. */
  waitUntil?: (write: Promise<unknown>) => void;
  headers?: Record<string, string>;
  /** Injected fetch (tests, custom agents), called as a plain function. Defaults to globalThis.fetch. */
  fetch?: typeof fetch;
  /** Injected clock in ms (tests). Defaults to Date.now. */
  now?: () => number;
}

/**
 * The names createRemoteJWKSet accepts: checkOptionNames refuses any other (a misspelt option would turn a check
 * off).
 */
export const REMOTE_SET_OPTION_NAMES = {
  timeoutDuration: true,
  cooldownDuration: true,
  cacheMaxAge: true,
  cacheMinAge: true,
  staleDuration: true,
  maxSize: true,
  allowHmac: true,
  store: true,
  storeTimeoutDuration: true,
  waitUntil: true,
  headers: true,
  fetch: true,
  now: true,
} as const satisfies OptionNames<RemoteJWKSetOptions>;

interface Installed {
  keys: KeyEntry[];
  seq: number;
  /** Clock time it was fetched from the issuer (by this isolate or the one that stored it). */
  fetchedAt: number;
  /** Clock time it stops being fresh. */
  freshUntil: number;
}

/** A tier entry dated later than this past our clock is refused (a clock that far off is not a cache's). */
const FUTURE_SKEW_MS = 60_000;

const MAX_AGE = /(?:^|,)\s*max-age\s*=\s*(\d{1,10})\s*(?:,|$)/i;

/**
 * A key set fetched from a URL (build it with createRemoteJWKSet): memory, then the
 * store tiers, then the network; one fetch in flight at a time.
 *
 * @example
 * const set = createRemoteJWKSet('https://issuer.example/.well-known/jwks.json');
 * await set.reload(); // fetch now, e.g. at startup
 * set.fresh; // true while a fresh set is in memory
 */
export class RemoteJWKSet implements KeySource {
  readonly [KEY_SOURCE] = true as const;
  readonly url: string;
  readonly #o: Required<Omit<RemoteJWKSetOptions, 'store' | 'headers' | 'fetch' | 'waitUntil'>> &
    Pick<RemoteJWKSetOptions, 'headers' | 'fetch' | 'waitUntil'>;
  readonly #tiers: StoreTiers | undefined;
  #set: Installed | undefined;
  #seq = 0;
  /** The one fetch in flight. */
  readonly #fetching = new Flight<Installed>();
  /** Clock time of the last network attempt (success or failure), this isolate's or one a tier noted. */
  #lastAttempt = -Infinity;
  #lastError: JwtError | undefined;
  /** The one tier lookup in progress (concurrent loads join it). */
  readonly #tierRead = new Flight<Installed | undefined>();
  /** The one refresh beyond memory in progress (tiers, the place's claim, the network). */
  readonly #refresh = new Flight<Installed>();

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
      storeTimeoutDuration: options.storeTimeoutDuration ?? 500,
      waitUntil: options.waitUntil,
      headers: options.headers,
      fetch: options.fetch,
    };
    for (const k of [
      'timeoutDuration',
      'cooldownDuration',
      'cacheMaxAge',
      'cacheMinAge',
      'staleDuration',
      'maxSize',
      'storeTimeoutDuration',
    ] as const) {
      const v = this.#o[k];
      if (typeof v !== 'number' || !(v >= 0) || !Number.isInteger(v))
        throw optionsError(k, 'expected an integer, 0 or more');
    }
    if (options.waitUntil !== undefined && typeof options.waitUntil !== 'function') throw optionsError('waitUntil');
    const stores = options.store === undefined ? [] : Array.isArray(options.store) ? options.store : [options.store];
    for (const st of stores as unknown[]) {
      const s = st as Partial<JWKSStore> | null;
      if (typeof s !== 'object' || s === null || typeof s.get !== 'function' || typeof s.put !== 'function') {
        throw optionsError('store', 'expected objects with get and put');
      }
    }
    const o = this.#o;
    this.#tiers =
      stores.length === 0
        ? undefined
        : new StoreTiers([...(stores as JWKSStore[])], {
            url: this.url,
            staleMs: o.staleDuration,
            cooldownMs: o.cooldownDuration,
            fetchMs: o.timeoutDuration,
            lookupMs: o.storeTimeoutDuration,
            waitUntil: o.waitUntil,
            now: o.now,
          });
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
      return this.#afterMiss(spec, kid, undefined);
    }
    return this.#within(async (deadline) => {
      const s = await this.#load(deadline);
      const key = pick(s.keys, spec, kid, this.#o.allowHmac);
      return key ?? this.#afterMiss(spec, kid, deadline);
    });
  }

  /** Fetch now (single flight), ignoring freshness and the cooldown. */
  reload(): Promise<void> {
    return this.#within((deadline) => this.#fetchShared(undefined, deadline)).then(() => undefined);
  }

  // Every wait of one lookup beyond memory (tiers, claim, another isolate's fetch, ours) is
  // within one deadline of timeoutDuration, so a verify never waits longer than that.
  async #within<T>(lookup: (deadline: Deadline) => Promise<T>): Promise<T> {
    const deadline = new Deadline(this.#o.timeoutDuration);
    try {
      return await lookup(deadline);
    } finally {
      deadline.clear();
    }
  }

  // An unknown kid may mean the issuer rotated: look again, at most once per cooldown
  // per isolate (and fetch at most once per cooldown per place where a tier keeps attempts).
  // `deadline`: the lookup this verify already began (undefined: none yet, one is started).
  #afterMiss(spec: AlgSpec, kid: string | undefined, deadline: Deadline | undefined): Promise<KeyEntry> {
    const now = this.#o.now();
    if (!this.#refresh.running && now - this.#lastAttempt < this.#o.cooldownDuration) {
      return Promise.reject(new JwtError('ERR_JWKS_NO_MATCHING_KEY'));
    }
    // The first miss of this verify: one deadline from here (the check above runs again, with the same answer).
    if (deadline === undefined) return this.#within((d) => this.#afterMiss(spec, kid, d));
    // A refresh another verify started is joined, and waited for no longer than our own deadline.
    return deadline.race(this.#refresh.join(() => this.#refreshOnce(true, deadline))).then((s) => {
      const key = pick(s.keys, spec, kid, this.#o.allowHmac);
      if (key === undefined) throw new JwtError('ERR_JWKS_NO_MATCHING_KEY');
      return key;
    });
  }

  // No fresh set in memory: the tiers, then the network; on failure (ours, or one a
  // tier noted within the cooldown), the newest set we hold while it is within the stale window.
  async #load(deadline: Deadline): Promise<Installed> {
    const tiers = this.#tiers;
    if (!this.#coolingAfterFailure() && tiers !== undefined) {
      // A tier read already running began no later than ours, so it ends within our deadline.
      const fresh = await this.#tierRead.join(() => this.#readTiers(tiers, deadline));
      if (fresh !== undefined) return fresh;
    }
    // The issuer failed moments ago (here or elsewhere): do not hammer it.
    if (this.#coolingAfterFailure()) return this.#staleOr(this.#lastError!);
    try {
      return await deadline.race(this.#refresh.join(() => this.#refreshOnce(false, deadline)));
    } catch (error) {
      return this.#staleOr(error);
    }
  }

  #coolingAfterFailure(): boolean {
    const since = this.#o.now() - this.#lastAttempt;
    return !this.#fetching.running && this.#lastError !== undefined && since < this.#o.cooldownDuration;
  }

  #staleOr(error: unknown): Installed {
    const last = this.#set;
    if (last !== undefined && this.#o.now() < last.freshUntil + this.#o.staleDuration) return last;
    throw error;
  }

  // Under storeTimeoutDuration, within what is left of the lookup.
  async #readTiers(tiers: StoreTiers, lookup: Deadline): Promise<Installed | undefined> {
    const deadline = lookup.within(this.#o.storeTimeoutDuration);
    try {
      const entry = await tiers.read(deadline);
      const got = entry === undefined ? this.#set : this.#adopt(entry);
      return got !== undefined && this.#o.now() < got.freshUntil ? got : undefined;
    } finally {
      deadline.clear();
    }
  }

  // Beyond memory: for an unknown kid, a newer set another isolate stored; then, where a
  // tier keeps attempts, one isolate of the place claims the fetch and the others wait
  // for what it stores (or its failure). Every step within `deadline`.
  async #refreshOnce(forKid: boolean, deadline: Deadline): Promise<Installed> {
    this.#lastAttempt = this.#o.now();
    const tiers = this.#tiers;
    if (tiers === undefined) return this.#fetchShared(undefined, deadline);
    const before = this.#set;
    const newer = (s: Installed | undefined): s is Installed =>
      s !== undefined && s !== before && this.#o.now() < s.freshUntil;
    if (forKid) {
      const got = await this.#readTiers(tiers, deadline);
      if (newer(got)) return got;
    }
    if (!tiers.shared) return this.#fetchShared(undefined, deadline);
    const claim = await tiers.claim(deadline);
    if (claim.won) return this.#fetchShared(claim.id, deadline);
    const other = await tiers.awaitOther(
      claim.note,
      (e) => {
        const s = this.#adopt(e);
        return newer(s) ? s : undefined;
      },
      deadline,
    );
    if (other !== undefined && !('id' in other)) return other;
    if (other?.outcome === 'failed') {
      // Its fetch failed: the same answer as our own failure, for the cooldown.
      this.#lastAttempt = Math.max(this.#lastAttempt, other.at);
      this.#lastError = new JwtError('ERR_JWKS_FETCH_FAILED', { reason: 'the last fetch from this place failed' });
      throw this.#lastError;
    }
    // Its fetch succeeded with nothing newer for us: the kid is not in the set.
    if (forKid && before !== undefined) return before;
    // It succeeded but its set is not here (a lost write): ask ourselves. No outcome in time: give up.
    if (other !== undefined) return this.#fetchShared(undefined, deadline);
    throw new JwtError('ERR_JWKS_TIMEOUT');
  }

  // A tier's entry, installed when it is newer than the set in memory; what memory holds afterwards.
  #adopt(entry: StoredJWKS): Installed | undefined {
    const now = this.#o.now();
    const current = this.#set;
    if (entry.fetchedAt > now + FUTURE_SKEW_MS) return current;
    if (current !== undefined && current.fetchedAt >= entry.fetchedAt) return current;
    let keys: KeyEntry[];
    try {
      keys = parseJwks(entry.jwks);
    } catch {
      return current;
    }
    // Whatever a tier claims, a set is never fresh longer than cacheMaxAge after its fetch.
    const freshUntil = Math.min(entry.freshUntil, entry.fetchedAt + this.#o.cacheMaxAge);
    const installed = this.#install({ keys, seq: ++this.#seq, fetchedAt: entry.fetchedAt, freshUntil });
    if (now < installed.freshUntil) this.#lastError = undefined;
    return installed;
  }

  // `claimed`: the id of the note a won claim wrote; without one the attempt is noted here.
  // The outcome is noted too, so the place's other isolates stop waiting (or serve stale).
  // The fetch gets what is left of `deadline`; a caller joining it waits for the first starter's.
  #fetchShared(claimed: string | undefined, deadline: Deadline): Promise<Installed> {
    return this.#fetching.join(() => {
      // The stores and the claim used the whole lookup: no fetch, and nothing noted (the issuer did not fail).
      if (deadline.passed) return Promise.reject(new JwtError('ERR_JWKS_TIMEOUT'));
      const seq = ++this.#seq;
      const at = this.#o.now();
      this.#lastAttempt = at;
      const id = claimed ?? crypto.randomUUID();
      const tiers = this.#tiers?.shared === true ? this.#tiers : undefined;
      if (tiers !== undefined && claimed === undefined) tiers.handOff(tiers.noteAttempt({ at, id }));
      return this.#fetchOnce(seq, deadline).then(
        (s) => {
          this.#lastError = undefined;
          tiers?.handOff(tiers.noteAttempt({ at, id, outcome: 'ok' }));
          return s;
        },
        (error: unknown) => {
          const e = error instanceof JwtError ? error : new JwtError('ERR_JWKS_FETCH_FAILED', { cause: error });
          this.#lastError = e;
          tiers?.handOff(tiers.noteAttempt({ at, id, outcome: 'failed' }));
          throw e;
        },
      );
    });
  }

  async #fetchOnce(seq: number, deadline: Deadline): Promise<Installed> {
    // The lookup's deadline over the request and the whole body (fetch-deadline.ts).
    const { text, headers } = await fetchCapped(this.url, {
      fetch: this.#o.fetch,
      headers: { accept: 'application/json, application/jwk-set+json', ...this.#o.headers },
      deadline,
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
    const installed = this.#install({ keys, seq, fetchedAt: now, freshUntil: now + ttl });
    // Never awaited: a failed write only costs another isolate a fetch.
    if (installed.seq === seq)
      this.#tiers?.write({ jwks: json as JSONWebKeySet, fetchedAt: now, freshUntil: now + ttl });
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
  // after a newer one is dropped, and callers get the newer set. A key the new set
  // still holds keeps its entry (its imports and the cached verdicts it proved); one
  // it dropped is retired, so no cache serves what it proved (KeyEntry.validUntil).
  #install(candidate: Installed): Installed {
    const current = this.#set;
    if (current !== undefined && (current.seq > candidate.seq || current.fetchedAt > candidate.fetchedAt))
      return current;
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

/** One promise at a time: callers while it runs share it; it is forgotten once settled. */
class Flight<T> {
  #current: Promise<T> | undefined;

  get running(): boolean {
    return this.#current !== undefined;
  }

  join(start: () => Promise<T>): Promise<T> {
    if (this.#current !== undefined) return this.#current;
    const p = start();
    this.#current = p;
    const clear = (): void => {
      if (this.#current === p) this.#current = undefined;
    };
    p.then(clear, clear);
    return p;
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
