// Which verifications the KV verify cache (L2) writes: KV writes cost money (the
// free plan allows 1,000 a day), and most tokens in a Zipf mix are seen once.
// `seen-twice` (the default) writes a token's entry only on its second sighting
// in this isolate (an L1 hit, or a second full verify after the L1 let it go), so
// one-off tokens cost no write; `always` writes on the first verify. Either way at
// most `perMinute` writes per isolate per clock minute; the rest are counted.

export type Admission = 'seen-twice' | 'always';

export type AdmissionVerdict = 'write' | 'first-sighting' | 'over-budget';

export interface AdmissionOptions {
  mode: Admission;
  /** Writes allowed per isolate per minute. */
  perMinute: number;
  /** Tokens remembered as seen once; the set starts over when full (a doorkeeper). */
  capacity: number;
}

const MINUTE_MS = 60_000;

export class WriteAdmission {
  readonly #o: AdmissionOptions;
  /** Tokens verified once and not written yet (only for `seen-twice`). */
  readonly #seen = new Set<string>();
  #windowStart = -Infinity;
  #writes = 0;

  constructor(options: AdmissionOptions) {
    this.#o = options;
  }

  /** True while a token verified once waits for its second sighting (L1 hits ask this). */
  waiting(token: string): boolean {
    return this.#seen.size > 0 && this.#seen.has(token);
  }

  /**
   * A verification of `token` that could go to KV: whether to write it now.
   * Consumes budget only on 'write'.
   */
  decide(token: string, nowMs: number): AdmissionVerdict {
    if (this.#o.mode === 'seen-twice' && !this.#seen.delete(token)) {
      if (this.#seen.size >= this.#o.capacity) this.#seen.clear();
      this.#seen.add(token);
      return 'first-sighting';
    }
    if (!this.budget(nowMs)) {
      // Still a candidate: a later sighting may find budget.
      if (this.#o.mode === 'seen-twice') this.#seen.add(token);
      return 'over-budget';
    }
    return 'write';
  }

  /**
   * One write of this minute's budget, if any is left (true: taken). Introspection answers ask this alone:
   * each is a round trip to the authorization server, dearer than the write (stages/introspection/).
   */
  budget(nowMs: number): boolean {
    if (nowMs - this.#windowStart >= MINUTE_MS) {
      this.#windowStart = nowMs;
      this.#writes = 0;
    }
    if (this.#writes >= this.#o.perMinute) return false;
    this.#writes++;
    return true;
  }
}
