// The L2 step of the verify stage (verify-tiers.ts): a KV entry for a token verified
// before, read only for the configured algorithms of a configured issuer and under the
// key that would verify it now (key-tags.ts), and written as the admission policy allows.
// kv-parts.ts builds it, so a guard without KV tiers bundles none of it.

import type { JWTPayload } from '../claims.js';
import type { KeyEntry } from '../keys/entry.js';
import type { OpenedToken } from '../verify-path.js';
import type { GuardConfig } from './config.js';
import type { WaitUntil } from './context.js';
import type { Counters } from './counters.js';
import type { KeyTags } from './key-tags.js';
import type { WriteAdmission } from './l2-admission.js';
import type { KvVerifyCache } from './verify-cache.js';

/** The clock ms in which a verified payload holds (verify-tiers.ts works it out). */
export type PayloadWindow = (payload: JWTPayload) => { from: number; until: number } | undefined;

/**
 * The KV verify cache as the verify stage uses it.
 *
 * @example
 * if (tier.wants(opened)) { const hit = await tier.read(token, opened, window); }
 */
export class L2Tier {
  readonly #l2: KvVerifyCache;
  readonly #admission: WriteAdmission;
  readonly #keyTags: KeyTags;
  readonly #counters: Counters;
  readonly #now: () => number;
  /** Per issuer, the algorithms whose verifications go to KV. */
  readonly #algs = new Map<string, Set<string>>();

  constructor(parts: { l2: KvVerifyCache; admission: WriteAdmission; keyTags: KeyTags }, config: GuardConfig, counters: Counters, now: () => number) {
    this.#l2 = parts.l2;
    this.#admission = parts.admission;
    this.#keyTags = parts.keyTags;
    this.#counters = counters;
    this.#now = now;
    const c = config.cache;
    for (const is of config.issuers) for (const name of is.issuer) this.#algs.set(name, new Set(is.algorithms.filter((a) => c.verifyAlgorithms.has(a))));
  }

  /** Whether KV is worth asking: iss and alg only decide that (so made-up issuers cost no KV reads); nothing unverified is trusted. */
  wants(opened: OpenedToken): boolean {
    const iss = opened.iss;
    return typeof iss === 'string' && this.#algs.get(iss)?.has(opened.alg) === true;
  }

  /** A token verified once and seen again (seen-twice admission): now worth a KV entry. */
  waiting(token: string): boolean {
    return this.#admission.waiting(token);
  }

  /** The entry within its window, and the key it is tied to; undefined: the library verifies. */
  async read(token: string, opened: OpenedToken, window: PayloadWindow): Promise<{ payload: JWTPayload; key: KeyEntry | undefined } | undefined> {
    // Only under the key that would verify it now (key-tags.ts): none known, no KV read.
    const current = await this.#keyTags.current(opened.iss as string, opened.alg, opened.kid);
    if (current === undefined) return undefined;
    const payload = await this.#l2.get(token, current.tag);
    const w = payload === undefined ? undefined : window(payload);
    const t = this.#now();
    return payload !== undefined && w !== undefined && t >= w.from && t < w.until ? { payload, key: current.key } : undefined;
  }

  /** Hand a verified payload to KV if the admission policy and the write budget say so. */
  write(token: string, payload: JWTPayload, ctx: WaitUntil, proof: KeyEntry | undefined): void {
    const tag = this.#keyTags.of(payload.iss as string, proof);
    if (tag === undefined) return;
    const t = this.#now();
    const verdict = this.#admission.decide(token, t);
    if (verdict === 'first-sighting') this.#counters.inc('l2_write_deferred');
    else if (verdict === 'over-budget') this.#counters.inc('l2_write_over_budget');
    else {
      const write = this.#l2.put(token, payload, t / 1000, tag);
      if (write !== undefined) ctx.waitUntil(write);
    }
  }
}
