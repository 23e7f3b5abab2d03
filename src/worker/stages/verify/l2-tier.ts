// The verify stage with its L2 step (verify-tiers.ts's VerifyTiers, plus KV): a KV entry
// for a token verified before, read only for the configured algorithms of a configured
// issuer and under the key that would verify it now (key-tags.ts), and written as the
// admission policy allows. kv-parts.ts makes it (the kvTiers part), so a guard without
// KV tiers bundles none of it.

import type { JWTPayload } from '../../../claims.js';
import type { KeyEntry } from '../../../keys/entry.js';
import type { OpenedToken } from '../../../verify-path.js';
import type { Verified, WaitUntil } from '../../context.js';
import type { IssuerIndex } from '../../issuer-index.js';
import type { KeyTags } from '../../key-tags.js';
import type { WriteAdmission } from '../../l2-admission.js';
import type { KvVerifyCache } from '../../verify-cache.js';
import { VerifyTiers, type Opening, type TierParts } from './verify-tiers.js';

/**
 * The KV verify cache, its write admission and the key tags its entries are written under.
 *
 * @example
 * const kv: L2Parts = { l2: new KvVerifyCache(opts), admission: new WriteAdmission(policy), keyTags: new KeyTags(fetched) };
 */
export interface L2Parts {
  l2: KvVerifyCache;
  admission: WriteAdmission;
  keyTags: KeyTags;
}

/**
 * L1 -> L2 (KV, for cache.verify's algorithms) -> the library.
 *
 * @example
 * const tiers = new L2VerifyTiers(parts, issuers, { l2, admission, keyTags });
 * const v = await tiers.verify(token, ctx, { opened: undefined });
 */
export class L2VerifyTiers extends VerifyTiers {
  readonly #kv: L2Parts;
  /** Per issuer, the algorithms whose verifications go to KV. */
  readonly #algs = new Map<string, Set<string>>();

  constructor(parts: TierParts, issuers: IssuerIndex, kv: L2Parts) {
    super(parts, issuers);
    this.#kv = kv;
    const { cache, issuers: configured } = parts.config;
    for (const is of configured)
      for (const name of is.issuer)
        this.#algs.set(name, new Set(is.algorithms.filter((a) => cache.verifyAlgorithms.has(a))));
  }

  override verify(token: string, ctx: WaitUntil, opening: Opening): Verified | Promise<Verified> {
    const v = super.verify(token, ctx, opening);
    // A token verified once and seen again: now worth a KV entry (seen-twice admission).
    if (!(v instanceof Promise) && v.level === 'l1' && this.#kv.admission.waiting(token))
      this.#write(token, v.payload, ctx, this.l1!.proofOf(token));
    return v;
  }

  /** iss and alg only decide whether KV is worth asking (so made-up issuers cost no KV reads); nothing unverified is trusted. */
  protected override library(
    token: string,
    ctx: WaitUntil,
    opened: OpenedToken,
    nowMs: number,
  ): Verified | Promise<Verified> {
    const iss = opened.iss;
    if (typeof iss === 'string' && this.#algs.get(iss)?.has(opened.alg) === true)
      return this.#viaL2(token, ctx, opened, nowMs);
    return super.library(token, ctx, opened, nowMs);
  }

  /** An L2 hit within its window, or the library's verify (then written to KV as admission allows). */
  async #viaL2(token: string, ctx: WaitUntil, opened: OpenedToken, nowMs: number): Promise<Verified> {
    const hit = await this.#read(token, opened);
    if (hit === undefined) {
      const v = await super.library(token, ctx, opened, nowMs);
      this.#write(token, v.payload, ctx, opened.proof);
      return v;
    }
    this.parts.counters.inc('l2_hit');
    this.remember(token, hit.payload, nowMs, hit.key);
    return { payload: hit.payload, level: 'l2' };
  }

  /** The entry within its window, and the key it is tied to; undefined: the library verifies. */
  async #read(
    token: string,
    opened: OpenedToken,
  ): Promise<{ payload: JWTPayload; key: KeyEntry | undefined } | undefined> {
    // Only under the key that would verify it now (key-tags.ts): none known, no KV read.
    const current = await this.#kv.keyTags.current(opened.iss as string, opened.alg, opened.kid);
    if (current === undefined) return undefined;
    const payload = await this.#kv.l2.get(token, current.tag);
    const w = payload === undefined ? undefined : this.window(payload);
    const t = this.parts.now();
    return payload !== undefined && w !== undefined && t >= w.from && t < w.until
      ? { payload, key: current.key }
      : undefined;
  }

  /**
   * An opaque token: its answer read from and sealed in KV under its cacheMs bucket's tag (introspection-stage.ts),
   * so no entry is used longer than cacheMs after the answer it holds; written as the write budget allows.
   */
  protected override async opaque(token: string, ctx: WaitUntil, nowMs: number): Promise<Verified> {
    const intro = this.parts.introspection!;
    const slot = intro.l2Tag(nowMs);
    if (slot === undefined || intro.cached(token)) return super.opaque(token, ctx, nowMs);
    const hit = await this.#kv.l2.get(token, slot.tag);
    const w = hit === undefined ? undefined : this.window(hit);
    const t = this.parts.now();
    if (hit !== undefined && w !== undefined && t >= w.from && t < Math.min(w.until, slot.until)) {
      this.parts.counters.inc('l2_hit');
      this.l1?.set(token, hit, nowMs, w.from, Math.min(w.until, slot.until));
      return { payload: hit, level: 'l2' };
    }
    const v = await super.opaque(token, ctx, nowMs);
    if (!this.#kv.admission.budget(t)) this.parts.counters.inc('l2_write_over_budget');
    else {
      const write = this.#kv.l2.put(token, v.payload, t / 1000, slot.tag);
      if (write !== undefined) ctx.waitUntil(write);
    }
    return v;
  }

  /** Hand a verified payload to KV if the admission policy and the write budget say so. */
  #write(token: string, payload: JWTPayload, ctx: WaitUntil, proof: KeyEntry | undefined): void {
    const tag = this.#kv.keyTags.of(payload.iss as string, proof);
    if (tag === undefined) return;
    const t = this.parts.now();
    const verdict = this.#kv.admission.decide(token, t);
    if (verdict === 'first-sighting') this.parts.counters.inc('l2_write_deferred');
    else if (verdict === 'over-budget') this.parts.counters.inc('l2_write_over_budget');
    else {
      const write = this.#kv.l2.put(token, payload, t / 1000, tag);
      if (write !== undefined) ctx.waitUntil(write);
    }
  }
}
