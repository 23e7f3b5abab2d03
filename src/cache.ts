// The per-verifier verify cache: successful results keyed by the exact token.
// Approximate LRU (CLOCK): a hit only sets a flag, so it costs one Map lookup and
// a time check; eviction gives recently used entries a second chance. Failures are
// never stored; time claims are re-checked by the caller on every hit.

export interface CacheOptions {
  /** Entries kept (default 1000). */
  max?: number;
  /** Longest life of an entry in seconds, whatever `exp` says (default 60). */
  ttl?: number;
}

interface Entry<V> {
  value: V;
  /** Clock ms after which the entry is dead. */
  until: number;
  used: boolean;
}

export class VerifyCache<V> {
  readonly max: number;
  readonly ttlMs: number;
  readonly #map = new Map<string, Entry<V>>();

  constructor(max: number, ttlSeconds: number) {
    this.max = max;
    this.ttlMs = ttlSeconds * 1000;
  }

  get size(): number {
    return this.#map.size;
  }

  get(token: string, nowMs: number): V | undefined {
    const e = this.#map.get(token);
    if (e === undefined) return undefined;
    if (nowMs >= e.until) {
      this.#map.delete(token);
      return undefined;
    }
    e.used = true;
    return e.value;
  }

  delete(token: string): void {
    this.#map.delete(token);
  }

  /** `untilMs`: the entry's natural end (exp); capped by the ttl. */
  set(token: string, value: V, nowMs: number, untilMs: number): void {
    if (this.max <= 0) return;
    if (this.#map.size >= this.max && !this.#map.has(token)) this.#evict(nowMs);
    this.#map.set(token, { value, until: Math.min(untilMs, nowMs + this.ttlMs), used: false });
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
