// The per-verifier verify cache: successful results keyed by the exact token.
// The Map is indexed by a small integer folded from the token's last characters
// (signature bytes: a fresh copy of a token is never hashed whole, and a Smi key is
// the Map's cheapest lookup), and the whole token is then compared: a hit needs
// exact equality. Approximate LRU (CLOCK): a hit only sets a
// flag; eviction gives recently used entries a second chance. Failures are never
// stored; each entry holds only inside the clock window its exp, nbf and max age
// allow, which get() checks on every hit.

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

/** The names the `cache` option accepts: checkOptionNames refuses any other (a misspelt option would turn a check off). */
export const CACHE_OPTION_NAMES = { max: true, ttl: true } as const satisfies OptionNames<CacheOptions>;

/** Characters of the token's end folded into the Map key (the very last one carries few bits). */
const TAIL = 10;

/** The Map key of `token`: a 30-bit fold of its last TAIL characters. Equal keys prove nothing; equal tokens do. */
function keyOf(token: string): number {
  let h = 0;
  for (let i = Math.max(0, token.length - TAIL); i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) & 0x3fffffff;
}

interface Entry<V> {
  token: string;
  value: V;
  /** Clock ms from which the result holds (nbf, iat with tolerance). */
  from: number;
  /** Clock ms at which it stops holding (exp, max age, ttl): the entry is dead. */
  until: number;
  used: boolean;
}

export class VerifyCache<V> {
  readonly max: number;
  readonly ttlMs: number;
  readonly #map = new Map<number, Entry<V>>();

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
    e.used = true;
    return e.value;
  }

  delete(token: string): void {
    const key = keyOf(token);
    if (this.#map.get(key)?.token === token) this.#map.delete(key);
  }

  /** The result holds for clock ms in [fromMs, untilMs); the end is capped by the ttl. */
  set(token: string, value: V, nowMs: number, fromMs: number, untilMs: number): void {
    if (this.max <= 0) return;
    const key = keyOf(token);
    if (this.#map.size >= this.max && !this.#map.has(key)) this.#evict(nowMs);
    // A different token with the same key simply replaces the entry (a miss later, never a false hit).
    this.#map.set(key, { token, value, from: fromMs, until: Math.min(untilMs, nowMs + this.ttlMs), used: false });
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
