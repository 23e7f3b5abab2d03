// The per-verifier verify cache: successful results keyed by the exact token.
// The Map is indexed by a small integer folded from the token's last characters
// (signature bytes: a fresh copy of a token is never hashed whole, and a Smi key is
// the Map's cheapest lookup), and the whole token is then compared: a hit needs
// exact equality. Approximate LRU (CLOCK): a hit only sets a
// flag; eviction gives recently used entries a second chance. Failures are never
// stored; each entry holds only inside the clock window its exp, nbf and max age
// allow, which get() checks on every hit, and only while the key that proved it is
// still vouched for (KeyProof: a fetched set's key until the set goes stale or a
// refresh drops it).

import type { OptionNames } from './option-names.js';

/**
 * Size and life of a verifier's cache (`cache` in createVerifier).
 *
 * @example
 * createVerifier({ algorithms: ['HS256'], key, cache: { max: 10_000, ttl: 30 } });
 */
export interface CacheOptions {
  /** Entries kept (default 1000). */
  max?: number;
  /** Longest life of an entry in seconds, whatever `exp` says (default 60). */
  ttl?: number;
}

/**
 * The names the `cache` option accepts: checkOptionNames refuses any other (a misspelt option would turn a check off).
 */
export const CACHE_OPTION_NAMES = { max: true, ttl: true } as const satisfies OptionNames<CacheOptions>;

/** Characters of the token's end folded into the Map key (the very last one carries few bits). */
const TAIL = 10;

/** The Map key of `token`: a 30-bit fold of its last TAIL characters. Equal keys prove nothing; equal tokens do. */
function keyOf(token: string): number {
  let h = 0;
  for (let i = Math.max(0, token.length - TAIL); i < token.length; i++)
    h = Math.imul(h ^ token.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) & 0x3fffffff;
}

/**
 * The key that proved a cached verdict, as the cache sees it: clock ms until which
 * its verdicts may be served (KeyEntry.validUntil: Infinity for a key held in code).
 *
 * @example
 * cache.set(token, result, now, from, until, keyEntry); // keyEntry.validUntil is read on every hit
 */
export interface KeyProof {
  readonly validUntil: number;
}

interface Entry<V, P> {
  token: string;
  /** The key that proved it; undefined when none is tracked (a direct-claims JWE). */
  proof: P | undefined;
  value: V;
  /** Clock ms from which the result holds (nbf, iat with tolerance). */
  from: number;
  /** Clock ms at which it stops holding (exp, max age, ttl): the entry is dead. */
  until: number;
  used: boolean;
}

export class VerifyCache<V, P extends KeyProof = KeyProof> {
  readonly max: number;
  readonly ttlMs: number;
  readonly #map = new Map<number, Entry<V, P>>();

  constructor(max: number, ttlSeconds: number) {
    this.max = max;
    this.ttlMs = ttlSeconds * 1000;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The cached result if `nowMs` lies in its validity window; otherwise undefined (verify afresh). */
  get(token: string, nowMs: number): V | undefined {
    const key = keyOf(token);
    const e = this.#map.get(key);
    if (e === undefined || e.token !== token) return undefined;
    if (nowMs >= e.until) {
      this.#map.delete(key);
      return undefined;
    }
    if (nowMs < e.from) return undefined;
    // The key's set went stale or a refresh dropped the key: verify afresh (the source decides).
    if (e.proof !== undefined && nowMs >= e.proof.validUntil) return undefined;
    e.used = true;
    return e.value;
  }

  /** The key that proved the entry for `token`, if one is held. */
  proofOf(token: string): P | undefined {
    const e = this.#map.get(keyOf(token));
    return e?.token === token ? e.proof : undefined;
  }

  /**
   * The result holds for clock ms in [fromMs, untilMs), the end capped by the ttl, and while `proof` vouches for it.
   */
  set(token: string, value: V, nowMs: number, fromMs: number, untilMs: number, proof?: P): void {
    if (this.max <= 0) return;
    const key = keyOf(token);
    if (this.#map.size >= this.max && !this.#map.has(key)) this.#evict(nowMs);
    // A different token with the same key simply replaces the entry (a miss later, never a false hit).
    this.#map.set(key, {
      token,
      value,
      proof,
      from: fromMs,
      until: Math.min(untilMs, nowMs + this.ttlMs),
      used: false,
    });
  }

  clear(): void {
    this.#map.clear();
  }

  #evict(nowMs: number): void {
    // Oldest first; a used entry is moved to the back once (second chance).
    let budget = this.#map.size;
    for (const [k, e] of this.#map) {
      if (budget-- <= 0) break;
      this.#map.delete(k);
      if (e.used && nowMs < e.until) {
        e.used = false;
        this.#map.set(k, e);
        continue;
      }
      return;
    }
    // Every entry was recently used: drop the oldest.
    const first = this.#map.keys().next();
    if (!first.done) this.#map.delete(first.value);
  }
}
