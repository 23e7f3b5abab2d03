// The verification stage: L1 (this isolate) -> the library's verify. The KV step between
// them (L2) is the kvTiers part's subclass (l2-tier.ts), so a guard without KV tiers
// neither bundles nor runs it. A verify that does not wait (an L1 hit; HS* or EdDSA in
// Wasm) returns no promise.

import { VerifyCache } from '../../../cache.js';
import { ownClaim, timeWindow, type JWTPayload } from '../../../claims.js';
import { deepFreeze } from '../../../freeze.js';
import type { KeyEntry } from '../../../keys/entry.js';
import type { OpenedToken, TwoStepVerifier, VerifyResult } from '../../../verify-path.js';
import type { GuardConfig } from '../../config-core.js';
import type { Verified, WaitUntil } from '../../context.js';
import type { Counters } from '../../counters.js';
import type { IssuerIndex } from '../../issuer-index.js';
import type { IntrospectionStage } from '../introspection/introspection-stage.js';
import { refuseDeepPayload } from './payload-depth.js';

/** Where verify leaves the token it opened, for the rejection log of a token that then fails. */
export interface Opening {
  opened: OpenedToken | undefined;
}

/**
 * What the verify stage reads of the guard's parts (build.ts's GuardParts).
 *
 * @example
 * const tiers = new VerifyTiers(await buildParts(config, env, {}, use), issuers);
 */
export interface TierParts {
  config: Pick<GuardConfig, 'cache' | 'clockTolerance' | 'issuers'>;
  verifier: TwoStepVerifier;
  counters: Counters;
  now: () => number;
  /** The KV copy of key sets: its writes are handed to waitUntil once a verify settles. */
  jwksStore: { drain(): Promise<void> | undefined } | undefined;
  /** `issuers[].introspection`: where opaque tokens go instead of the library (introspection-stage.ts). */
  introspection?: IntrospectionStage | undefined;
}

/**
 * How the kvTiers part makes the verify stage with its KV step (l2-tier.ts).
 *
 * @example
 * const make: VerifyStageMaker = (parts, issuers) => new L2VerifyTiers(parts, issuers, { l2, admission, keyTags });
 */
export type VerifyStageMaker = (parts: TierParts, issuers: IssuerIndex) => VerifyTiers;

/**
 * The verify tiers of one guard without KV: L1, then the library.
 *
 * @example
 * const tiers = parts.verifyTiers?.(parts, issuers) ?? new VerifyTiers(parts, issuers);
 * const v = await tiers.verify(token, ctx, { opened: undefined });
 */
export class VerifyTiers {
  // Not destructured: tests swap parts.verifier on a running guard.
  protected readonly parts: TierParts;
  readonly #issuers: IssuerIndex;
  /** Each entry tied to the key that proved it (a refresh that drops the key ends it). */
  protected readonly l1: VerifyCache<JWTPayload, KeyEntry> | undefined;

  constructor(parts: TierParts, issuers: IssuerIndex) {
    this.parts = parts;
    this.#issuers = issuers;
    const c = parts.config.cache;
    this.l1 = c.l1Max > 0 ? new VerifyCache<JWTPayload, KeyEntry>(c.l1Max, c.verifyTtl) : undefined;
  }

  /** Entries in this isolate's L1 (bounded by cache.l1Max). */
  get l1Size(): number {
    return this.l1?.size ?? 0;
  }

  /**
   * Verify through the tiers; without a promise when nothing waits (then a failure
   * is thrown rather than a rejected promise).
   */
  verify(token: string, ctx: WaitUntil, opening: Opening): Verified | Promise<Verified> {
    const { verifier, counters, now } = this.parts;
    const nowMs = now();
    // The L1 checks the time window itself on every hit.
    const hit = this.l1?.get(token, nowMs);
    if (hit !== undefined) {
      counters.inc('l1_hit');
      return { payload: hit, level: 'l1' };
    }
    // An opaque token is asked about at its authorization server, never opened (introspection-stage.ts).
    if (this.parts.introspection?.takes(token) === true) return this.opaque(token, ctx, nowMs);
    // The verify's first steps (split, header, the one parse of the payload); verifyOpened
    // carries on from them. A token that fails here throws what verify would.
    const opened = verifier.open(token);
    opening.opened = opened;
    return this.library(token, ctx, opened, nowMs);
  }

  /** The library's verify of an opened token; key-set writes for KV are handed to waitUntil once it settles. */
  protected library(token: string, ctx: WaitUntil, opened: OpenedToken, nowMs: number): Verified | Promise<Verified> {
    let r: VerifyResult | Promise<VerifyResult>;
    try {
      r = this.parts.verifier.verifyOpened(opened);
    } catch (e) {
      this.#drainKeyWrites(ctx);
      throw e;
    }
    if (r instanceof Promise) {
      return r.then(
        (done) => {
          this.#drainKeyWrites(ctx);
          return this.#verified(token, done, nowMs, opened.proof);
        },
        (e: unknown) => {
          this.#drainKeyWrites(ctx);
          throw e;
        },
      );
    }
    this.#drainKeyWrites(ctx);
    return this.#verified(token, r, nowMs, opened.proof);
  }

  /** An opaque token's checked answer; L1 keeps it no longer than min(exp, cacheMs) from now. */
  protected async opaque(token: string, _ctx: WaitUntil, nowMs: number): Promise<Verified> {
    const { payload, from, until } = await this.parts.introspection!.verify(token, nowMs);
    this.parts.counters.inc('verified');
    this.l1?.set(token, payload, nowMs, from, until);
    return { payload, level: 'verify' };
  }

  #drainKeyWrites(ctx: WaitUntil): void {
    const writes = this.parts.jwksStore?.drain();
    if (writes !== undefined) ctx.waitUntil(writes);
  }

  #verified(token: string, { payload, header }: VerifyResult, nowMs: number, proof: KeyEntry | undefined): Verified {
    refuseDeepPayload(payload); // before any cache or JSON.stringify sees it (payload-depth.ts)
    this.parts.counters.inc('verified');
    this.remember(token, payload, nowMs, proof);
    return { payload, level: 'verify', header };
  }

  protected remember(token: string, payload: JWTPayload, nowMs: number, proof: KeyEntry | undefined): void {
    if (this.l1 === undefined) return;
    const w = this.window(payload);
    // L1 hands the same payload to every later request with this token: frozen all the way down.
    if (w !== undefined) this.l1.set(token, deepFreeze(payload), nowMs, w.from, w.until, proof);
  }

  /**
   * Clock ms in which a verified payload still holds (the library's window, claims.ts,
   * with the configured tolerance and its issuer's maxTokenAge); undefined without a
   * numeric exp, which the guard never caches, or with an nbf that is not a number.
   */
  protected window(payload: JWTPayload): { from: number; until: number } | undefined {
    const exp = ownClaim(payload, 'exp');
    const nbf = ownClaim(payload, 'nbf');
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
    if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf))) return undefined;
    return timeWindow(payload, {
      clockTolerance: this.parts.config.clockTolerance,
      maxTokenAge: this.#issuers.get(ownClaim(payload, 'iss') as string)?.maxTokenAge,
    });
  }
}
