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
import type { L2Tier } from './l2-tier.js';
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
  /** The KV step, with cache.verify and CACHE_KEY (l2-tier.ts, from the kvTiers feature). */
  readonly #l2: L2Tier | undefined;

  constructor(parts: GuardParts, issuers: IssuerIndex) {
    this.#parts = parts;
    this.#issuers = issuers;
    const c = parts.config.cache;
    this.#l1 = c.l1Max > 0 ? new VerifyCache<JWTPayload, KeyEntry>(c.l1Max, c.verifyTtl) : undefined;
    this.#l2 = parts.l2Tier;
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
    const { verifier, counters, now } = this.#parts;
    const nowMs = now();
    // The L1 checks the time window itself on every hit.
    const hit = this.#l1?.get(token, nowMs);
    if (hit !== undefined) {
      counters.inc('l1_hit');
      // A token verified once and seen again: now worth a KV entry (seen-twice admission).
      if (this.#l2?.waiting(token) === true) this.#l2.write(token, hit, ctx, this.#l1!.proofOf(token));
      return { payload: hit, level: 'l1' };
    }
    // The verify's first steps (split, header, the one parse of the payload); verifyOpened
    // carries on from them. A token that fails here throws what verify would.
    const opened = verifier.open(token);
    opening.opened = opened;
    // iss and alg only decide whether KV is worth asking (l2-tier.ts); nothing unverified is trusted.
    if (this.#l2 !== undefined && this.#l2.wants(opened)) return this.#viaL2(token, ctx, opened, nowMs);
    return this.#library(token, ctx, opened, nowMs, false);
  }

  /** An L2 hit within its window, or the library's verify (then written to KV as admission allows). */
  async #viaL2(token: string, ctx: WaitUntil, opened: OpenedToken, nowMs: number): Promise<Verified> {
    const hit = await this.#l2!.read(token, opened, (payload) => this.#window(payload));
    if (hit === undefined) return this.#library(token, ctx, opened, nowMs, true);
    this.#parts.counters.inc('l2_hit');
    this.#remember(token, hit.payload, nowMs, hit.key);
    return { payload: hit.payload, level: 'l2' };
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
    if (useL2) this.#l2!.write(token, payload, ctx, proof);
    return { payload, level: 'verify', header };
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
