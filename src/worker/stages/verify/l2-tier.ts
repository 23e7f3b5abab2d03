// The KV verify tier (L2) the verify stage asks between L1 and the library (SharedVerifyTier,
// verify-tiers.ts): a token verified before is read only for the configured algorithms of a
// configured issuer and under the key that would verify it now (key-tags.ts), and written as
// the admission policy allows. kv-parts.ts makes it (the kvTiers part), so a guard without KV
// tiers bundles none of it.

import type { JWTPayload } from '../../../claims.js';
import type { KeyEntry } from '../../../keys/entry.js';
import type { OpenedToken } from '../../../verify-path.js';
import type { GuardConfig } from '../../config-core.js';
import type { WaitUntil } from '../../context.js';
import type { Counters } from '../../counters.js';
import { IssuerIndex } from '../../issuer-index.js';
import type { KeyTags } from '../../key-tags.js';
import type { WriteAdmission } from '../../l2-admission.js';
import type { KvVerifyCache } from '../../verify-cache.js';
import type { KeptEntry, SharedVerifyTier } from './shared-tier.js';
import { payloadWindow } from './verify-tiers.js';

/**
 * The KV verify cache, its write admission, the key tags its entries are written under, and what they read.
 *
 * @example
 * const parts: L2TierParts = { cache, admission, keyTags, config, counters, now: Date.now };
 */
export interface L2TierParts {
  cache: KvVerifyCache;
  admission: WriteAdmission;
  keyTags: KeyTags;
  config: Pick<GuardConfig, 'cache' | 'clockTolerance' | 'issuers'>;
  counters: Counters;
  now: () => number;
}

/**
 * L2: KV, for cache.verify's algorithms, and for introspection answers.
 *
 * @example
 * const l2 = new L2Tier({ cache, admission, keyTags, config, counters, now: Date.now });
 * const kept = await l2.read(token, verifier.open(token));
 */
export class L2Tier implements SharedVerifyTier {
  // Public for tests that plant or look up an entry under its KV key.
  readonly cache: KvVerifyCache;
  readonly keyTags: KeyTags;
  readonly #p: L2TierParts;
  readonly #issuers: IssuerIndex;
  /** Per issuer, the algorithms whose verifications go to KV. */
  readonly #algs = new Map<string, Set<string>>();

  constructor(parts: L2TierParts) {
    this.cache = parts.cache;
    this.keyTags = parts.keyTags;
    this.#p = parts;
    const { issuers } = parts.config;
    const kvAlgs = parts.config.cache.verifyAlgorithms;
    this.#issuers = new IssuerIndex(issuers);
    for (const is of issuers)
      for (const name of is.issuer) this.#algs.set(name, new Set(is.algorithms.filter((a) => kvAlgs.has(a))));
  }

  seen(token: string, payload: JWTPayload, ctx: WaitUntil, l1: { proofOf(token: string): KeyEntry | undefined }): void {
    // Waiting: verified once under a configured issuer and algorithm, and deferred.
    if (this.#p.admission.waiting(token)) this.#write(token, payload, ctx, l1.proofOf(token));
  }

  read(token: string, opened: OpenedToken): Promise<KeptEntry | undefined> | undefined {
    return this.#asks(opened) ? this.#read(token, opened) : undefined;
  }

  async #read(token: string, opened: OpenedToken): Promise<KeptEntry | undefined> {
    // Only under the key that would verify it now (key-tags.ts): none known, no KV read.
    const current = await this.keyTags.current(opened.iss as string, opened.alg, opened.kid);
    if (current === undefined) return undefined;
    // The payload comes frozen all the way down (verify-cache.ts): L1 hands it to every later request.
    return this.#kept(await this.cache.get(token, current.tag), Infinity, current.key);
  }

  write(token: string, payload: JWTPayload, opened: OpenedToken, ctx: WaitUntil): void {
    if (this.#asks(opened)) this.#write(token, payload, ctx, opened.proof);
  }

  /** Only the configured algorithms of a configured issuer: made-up issuers cost no KV read. */
  #asks({ iss, alg }: OpenedToken): boolean {
    return typeof iss === 'string' && this.#algs.get(iss)?.has(alg) === true;
  }

  #write(token: string, payload: JWTPayload, ctx: WaitUntil, proof: KeyEntry | undefined): void {
    const tag = this.keyTags.of(payload.iss as string, proof);
    if (tag === undefined) return;
    const { admission, counters, now } = this.#p;
    const t = now();
    const verdict = admission.decide(token, t);
    if (verdict === 'first-sighting') counters.inc('l2_write_deferred');
    else if (verdict === 'over-budget') counters.inc('l2_write_over_budget');
    else this.#put(token, payload, ctx, t, tag);
  }

  async readAnswer(token: string, slot: { tag: string; until: number }): Promise<KeptEntry | undefined> {
    return this.#kept(await this.cache.get(token, slot.tag), slot.until, undefined);
  }

  // Budget only, no seen-twice: each answer is a round trip to the authorization server, dearer than the write.
  writeAnswer(token: string, payload: JWTPayload, ctx: WaitUntil, tag: string): void {
    const t = this.#p.now();
    if (!this.#p.admission.budget(t)) this.#p.counters.inc('l2_write_over_budget');
    else this.#put(token, payload, ctx, t, tag);
  }

  /** The entry if it holds now and before `until`, counted as a hit. */
  #kept(payload: JWTPayload | undefined, until: number, key: KeyEntry | undefined): KeptEntry | undefined {
    const w = payload && payloadWindow(payload, this.#p.config, this.#issuers);
    const t = this.#p.now();
    if (w === undefined || t < w.from || t >= Math.min(w.until, until)) return undefined;
    this.#p.counters.inc('l2_hit');
    return { payload: payload!, from: w.from, until: Math.min(w.until, until), key };
  }

  #put(token: string, payload: JWTPayload, ctx: WaitUntil, t: number, tag: string): void {
    const write = this.cache.put(token, payload, t / 1000, tag);
    if (write !== undefined) ctx.waitUntil(write);
  }
}
