// The verification stage: L1 (this isolate) -> L2 (KV, when the kvTiers part gives one) -> the library.
// L2 is a value with plain reads and writes (shared-tier.ts; the kvTiers part gives l2-tier.ts's), so a
// guard without KV tiers neither bundles nor runs its code. A verify that does not wait (an L1 hit; HS* or
// EdDSA in Wasm) returns no promise.

import { VerifyCache } from '../../../cache.js';
import { ownClaim, timeWindow, type JWTPayload } from '../../../claims.js';
import { deepFreeze } from '../../../freeze.js';
import type { KeyEntry } from '../../../keys/entry.js';
import type { OpenedToken, TwoStepVerifier, VerifyResult } from '../../../verify-path.js';
import type { GuardConfig } from '../../config-core.js';
import type { Level, Verified, WaitUntil } from '../../context.js';
import type { Counters } from '../../counters.js';
import type { IssuerIndex } from '../../issuer-index.js';
import type { IntrospectionStage } from '../introspection/introspection-stage.js';
import { refuseDeepPayload } from './payload-depth.js';
import type { KeptEntry, SharedVerifyTier } from './shared-tier.js';

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
  /** With cache.verify: the KV tier between L1 and the library (the kvTiers part's). */
  l2?: SharedVerifyTier | undefined;
  /** `issuers[].introspection`: where opaque tokens go instead of the library (introspection-stage.ts). */
  introspection?: IntrospectionStage | undefined;
}

/**
 * The verify tiers of one guard: L1, then L2 when the parts have one, then the library.
 *
 * @example
 * const tiers = new VerifyTiers(parts, issuers);
 * const v = await tiers.verify(token, ctx, { opened: undefined });
 */
export class VerifyTiers {
  // Not destructured: tests swap parts.verifier on a running guard.
  readonly #parts: TierParts;
  readonly #issuers: IssuerIndex;
  /** Each entry tied to the key that proved it (a refresh that drops the key ends it). */
  readonly #l1: VerifyCache<JWTPayload, KeyEntry> | undefined;
  readonly #l2: SharedVerifyTier | undefined;

  constructor(parts: TierParts, issuers: IssuerIndex) {
    this.#parts = parts;
    this.#issuers = issuers;
    const c = parts.config.cache;
    this.#l1 = c.l1Max > 0 ? new VerifyCache<JWTPayload, KeyEntry>(c.l1Max, c.verifyTtl) : undefined;
    this.#l2 = parts.l2;
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
      this.#l2?.seen(token, hit, ctx, this.#l1!);
      return { payload: hit, level: 'l1' };
    }
    // An opaque token is asked about at its authorization server, never opened (introspection-stage.ts).
    if (this.#parts.introspection?.takes(token) === true) return this.#opaque(token, ctx, nowMs);
    // The verify's first steps (split, header, the one parse of the payload); verifyOpened
    // carries on from them. A token that fails here throws what verify would.
    const opened = verifier.open(token);
    opening.opened = opened;
    // iss and alg only decide whether KV is asked (made-up issuers cost no KV read); nothing unverified is trusted.
    const viaL2 = this.#l2
      ?.read(token, opened)
      ?.then((kept) => (kept ? this.#keep(token, kept, nowMs, 'l2') : this.#library(token, ctx, opened, nowMs)));
    return viaL2 ?? this.#library(token, ctx, opened, nowMs);
  }

  /** An answer L1 did not hold (L2's, or introspection's): kept in L1 for as long as it says. */
  #keep(token: string, { payload, from, until, key }: KeptEntry, nowMs: number, level: Level): Verified {
    this.#l1?.set(token, payload, nowMs, from, until, key);
    return { payload, level };
  }

  /** The library's verify of an opened token; key-set writes for KV are handed to waitUntil once it settles. */
  #library(token: string, ctx: WaitUntil, opened: OpenedToken, nowMs: number): Verified | Promise<Verified> {
    let r: VerifyResult | Promise<VerifyResult>;
    try {
      r = this.#parts.verifier.verifyOpened(opened);
    } catch (e) {
      this.#drainKeyWrites(ctx);
      throw e;
    }
    if (!(r instanceof Promise)) return this.#verified(token, r, ctx, nowMs, opened);
    return r.then(
      (done) => this.#verified(token, done, ctx, nowMs, opened),
      (e: unknown) => {
        this.#drainKeyWrites(ctx);
        throw e;
      },
    );
  }

  /** An opaque token's answer, from KV or its authorization server (introspection-stage.ts). */
  async #opaque(token: string, ctx: WaitUntil, nowMs: number): Promise<Verified> {
    const answer = await this.#parts.introspection!.verify(token, nowMs, ctx);
    return this.#keep(token, answer, nowMs, answer.level);
  }

  #drainKeyWrites(ctx: WaitUntil): void {
    const writes = this.#parts.jwksStore?.drain();
    if (writes !== undefined) ctx.waitUntil(writes);
  }

  /** A payload the library verified: kept in L1 and handed to L2, each tied to the key that proved it. */
  #verified(token: string, { payload, header }: VerifyResult, ctx: WaitUntil, nowMs: number, o: OpenedToken): Verified {
    this.#drainKeyWrites(ctx); // the verify settled: its key-set writes are done with
    refuseDeepPayload(payload); // before any cache or JSON.stringify sees it (payload-depth.ts)
    this.#parts.counters.inc('verified');
    const w = this.#l1 && payloadWindow(payload, this.#parts.config, this.#issuers);
    // L1 hands the same payload to every later request with this token: frozen all the way down.
    if (w !== undefined) this.#l1!.set(token, deepFreeze(payload), nowMs, w.from, w.until, o.proof);
    this.#l2?.write(token, payload, o, ctx);
    return { payload, level: 'verify', header };
  }
}

/**
 * Clock ms in which a verified payload still holds (the library's window, claims.ts, with the configured
 * tolerance and its issuer's maxTokenAge); undefined without a numeric exp, which the guard never caches,
 * or with an nbf that is not a number.
 *
 * @example
 * const w = payloadWindow(payload, config, new IssuerIndex(config.issuers));
 * const fresh = w !== undefined && Date.now() >= w.from && Date.now() < w.until;
 */
export function payloadWindow(
  payload: JWTPayload,
  { clockTolerance }: Pick<GuardConfig, 'clockTolerance'>,
  issuers: IssuerIndex,
): { from: number; until: number } | undefined {
  const exp = ownClaim(payload, 'exp');
  const nbf = ownClaim(payload, 'nbf');
  // Number.isFinite is false for anything but a finite number.
  if (!Number.isFinite(exp) || (nbf !== undefined && !Number.isFinite(nbf))) return undefined;
  return timeWindow(payload, {
    clockTolerance,
    maxTokenAge: issuers.get(ownClaim(payload, 'iss') as string)?.maxTokenAge,
  });
}
