// The verification stage: L1 (this isolate) -> L2 (KV, for the configured
// algorithms, written as the admission policy allows) -> the library's verify.
// A verify that does not wait (an L1 hit; HS* or EdDSA without L2) returns no promise.

import { VerifyCache } from '../cache.js';
import { ownClaim, timeWindow, type JWTPayload } from '../claims.js';
import { deepFreeze } from '../freeze.js';
import type { KeyEntry } from '../keys/entry.js';
import type { OpenedToken, VerifyResult } from '../verify-path.js';
import type { GuardParts } from './build.js';
import type { Verified, WaitUntil } from './context.js';
import type { IssuerIndex } from './issuer-index.js';
import type { WriteAdmission } from './l2-admission.js';
import { refuseDeepPayload } from './payload-depth.js';

/** Where verify leaves the token it opened, for the rejection log of a token that then fails. */
export interface Opening {
  opened: OpenedToken | undefined;
}

/**
 * The three verify tiers of one guard.
 *
 * @example
 * const tiers = new VerifyTiers(parts, issuers);
 * const v = await tiers.verify(token, ctx, { opened: undefined });
 */
export class VerifyTiers {
  // Not destructured: tests swap parts.verifier on a running guard.
  readonly #parts: GuardParts;
  readonly #issuers: IssuerIndex;
  /** Each entry tied to the key that proved it (a refresh that drops the key ends it). */
  readonly #l1: VerifyCache<JWTPayload, KeyEntry> | undefined;
  /** Per issuer, the algorithms whose verifications go to KV. */
  readonly #l2Algs = new Map<string, Set<string>>();
  /** Which of those verifications are written to KV, and how many a minute. */
  readonly #admission: WriteAdmission | undefined;

  constructor(parts: GuardParts, issuers: IssuerIndex) {
    this.#parts = parts;
    this.#issuers = issuers;
    const c = parts.config.cache;
    for (const is of parts.config.issuers) for (const name of is.issuer) this.#l2Algs.set(name, new Set(is.algorithms.filter((a) => c.verifyAlgorithms.has(a))));
    this.#l1 = c.l1Max > 0 ? new VerifyCache<JWTPayload, KeyEntry>(c.l1Max, c.verifyTtl) : undefined;
    this.#admission = parts.admission;
  }

  /** Entries in this isolate's L1 (bounded by cache.l1Max). */
  get l1Size(): number {
    return this.#l1?.size ?? 0;
  }

  /**
   * Verify through the tiers; without a promise when nothing waits (then a failure
   * is thrown rather than a rejected promise).
   */
  verify(token: string, ctx: WaitUntil, opening: Opening): Verified | Promise<Verified> {
    const { verifier, l2, counters, now } = this.#parts;
    const nowMs = now();
    // The L1 checks the time window itself on every hit.
    const hit = this.#l1?.get(token, nowMs);
    if (hit !== undefined) {
      counters.inc('l1_hit');
      // A token verified once and seen again: now worth a KV entry (seen-twice admission).
      if (this.#admission?.waiting(token) === true) this.#writeL2(token, hit, ctx, this.#l1!.proofOf(token));
      return { payload: hit, level: 'l1' };
    }
    // The verify's first steps (split, header, the one parse of the payload); verifyOpened
    // carries on from them. A token that fails here throws what verify would.
    const opened = verifier.open(token);
    opening.opened = opened;
    if (l2 !== undefined) {
      // iss and alg only decide whether KV is worth asking (so made-up issuers cost no
      // KV reads); nothing unverified is trusted.
      const iss = opened.iss;
      if (typeof iss === 'string' && this.#l2Algs.get(iss)?.has(opened.alg) === true) return this.#viaL2(token, ctx, opened, nowMs);
    }
    return this.#library(token, ctx, opened, nowMs, false);
  }

  /** An L2 hit within its window, or the library's verify (then written to KV as admission allows). */
  async #viaL2(token: string, ctx: WaitUntil, opened: OpenedToken, nowMs: number): Promise<Verified> {
    const { l2, counters, now, keyTags } = this.#parts;
    // Only under the key that would verify it now (key-tags.ts): none known, no KV read.
    const current = await keyTags!.current(opened.iss as string, opened.alg, opened.kid);
    if (current === undefined) return this.#library(token, ctx, opened, nowMs, true);
    const payload = await l2!.get(token, current.tag);
    const w = payload === undefined ? undefined : this.#window(payload);
    const t = now();
    if (payload !== undefined && w !== undefined && t >= w.from && t < w.until) {
      counters.inc('l2_hit');
      this.#remember(token, payload, nowMs, current.key);
      return { payload, level: 'l2' };
    }
    return this.#library(token, ctx, opened, nowMs, true);
  }

  /** The library's verify of an opened token; key-set writes for KV are handed to waitUntil once it settles. */
  #library(token: string, ctx: WaitUntil, opened: OpenedToken, nowMs: number, useL2: boolean): Verified | Promise<Verified> {
    let r: VerifyResult | Promise<VerifyResult>;
    try {
      r = this.#parts.verifier.verifyOpened(opened);
    } catch (e) {
      this.#drainKeyWrites(ctx);
      throw e;
    }
    if (r instanceof Promise) {
      return r.then(
        (done) => {
          this.#drainKeyWrites(ctx);
          return this.#verified(token, done, nowMs, useL2, ctx, opened.proof);
        },
        (e: unknown) => {
          this.#drainKeyWrites(ctx);
          throw e;
        },
      );
    }
    this.#drainKeyWrites(ctx);
    return this.#verified(token, r, nowMs, useL2, ctx, opened.proof);
  }

  #drainKeyWrites(ctx: WaitUntil): void {
    const writes = this.#parts.jwksStore?.drain();
    if (writes !== undefined) ctx.waitUntil(writes);
  }

  #verified(token: string, { payload, header }: VerifyResult, nowMs: number, useL2: boolean, ctx: WaitUntil, proof: KeyEntry | undefined): Verified {
    refuseDeepPayload(payload); // before any cache or JSON.stringify sees it (payload-depth.ts)
    this.#parts.counters.inc('verified');
    this.#remember(token, payload, nowMs, proof);
    if (useL2) this.#writeL2(token, payload, ctx, proof);
    return { payload, level: 'verify', header };
  }

  /** Hand a verified payload to KV if the admission policy and the write budget say so. */
  #writeL2(token: string, payload: JWTPayload, ctx: WaitUntil, proof: KeyEntry | undefined): void {
    const { l2, counters, now } = this.#parts;
    const tag = this.#parts.keyTags!.of(payload.iss as string, proof);
    if (tag === undefined) return;
    const t = now();
    const verdict = this.#admission!.decide(token, t);
    if (verdict === 'first-sighting') counters.inc('l2_write_deferred');
    else if (verdict === 'over-budget') counters.inc('l2_write_over_budget');
    else {
      const write = l2!.put(token, payload, t / 1000, tag);
      if (write !== undefined) ctx.waitUntil(write);
    }
  }

  #remember(token: string, payload: JWTPayload, nowMs: number, proof: KeyEntry | undefined): void {
    if (this.#l1 === undefined) return;
    const w = this.#window(payload);
    // L1 hands the same payload to every later request with this token: frozen all the way down.
    if (w !== undefined) this.#l1.set(token, deepFreeze(payload), nowMs, w.from, w.until, proof);
  }

  /**
   * Clock ms in which a verified payload still holds (the library's window, claims.ts,
   * with the configured tolerance and its issuer's maxTokenAge); undefined without a
   * numeric exp, which the guard never caches, or with an nbf that is not a number.
   */
  #window(payload: JWTPayload): { from: number; until: number } | undefined {
    const exp = ownClaim(payload, 'exp');
    const nbf = ownClaim(payload, 'nbf');
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
    if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf))) return undefined;
    return timeWindow(payload, { clockTolerance: this.#parts.config.clockTolerance, maxTokenAge: this.#issuers.get(ownClaim(payload, 'iss') as string)?.maxTokenAge });
  }
}
