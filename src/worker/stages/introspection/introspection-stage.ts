// The introspection stage (`issuers[].introspection`, RFC 7662; issue 36): a bearer token
// that is not a compact JWS/JWE is asked about at the one configured issuer's endpoint,
// never opened. An active answer is checked here as the library checks a JWT's claims
// (iss, aud, exp, nbf, maxTokenAge), then becomes the Verified payload: the claim, rule,
// step-up, sender-constraint and revocation stages after it run on it unchanged.
// The verify stage calls it on an L1 miss (verify-tiers.ts); with the verify stage's L2 it keeps
// answers in KV. L1 and KV entries last no longer than min(exp, cacheMs) from the answer.
// Decision: docs/decisions/0003.

import { challengeResponse } from '../../../bearer/challenge.js';
import { checkClaims, timeWindow, type ClaimPolicy, type JWTPayload } from '../../../claims.js';
import { deepFreeze } from '../../../freeze.js';
import type { JoseHeader } from '../../../header.js';
import { createIntrospector, type Introspector } from '../../../introspection/client.js';
import { IntrospectionError } from '../../../introspection/error.js';
import { looksLikeJwt } from '../../../introspection/shape.js';
import { ConfigError } from '../../config-error.js';
import type { GuardConfig } from '../../config-core.js';
import type { AuthOutcome, RequestContext, WaitUntil } from '../../context.js';
import type { Counters } from '../../counters.js';
import type { IssuerConfig } from '../../issuers-config.js';
import { serverTiming, withTiming } from '../observe/observe.js';
import { refuseDeepPayload } from '../verify/payload-depth.js';
import type { SharedVerifyTier } from '../verify/shared-tier.js';
import * as answer from '../../responses.js';
import type { CheckScope } from '../claims/token-checks.js';
import { dpopSection } from '../dpop/section.js';

/**
 * An active answer, checked: its claims, the clock window (ms) in which a cache may hand them out, and
 * where it came from (`l2`: kept in KV; `verify`: asked now).
 *
 * @example
 * const { payload, from, until } = await stage.verify(token, now, ctx);
 * l1.set(token, payload, now, from, until);
 */
export interface IntrospectedToken {
  readonly payload: JWTPayload;
  readonly from: number;
  readonly until: number;
  readonly level: 'l2' | 'verify';
}

/**
 * What the verify and claim-check stages call when `issuers[].introspection` is set.
 *
 * @example
 * if (stage.takes(token)) { const { payload } = await stage.verify(token, Date.now(), ctx); }
 */
export interface IntrospectionStage {
  /** True for a token that goes to introspection: one that is not a compact JWS or JWE. */
  takes(token: string): boolean;
  /** The checked answer; rejects with an inactive-token error, an IntrospectionError or the claim's JwtError. */
  verify(token: string, nowMs: number, ctx: WaitUntil): Promise<IntrospectedToken>;
  /** The refusal of a failure `verify` rejected with, or undefined when it is not introspection's own. */
  failed(cx: RequestContext, e: unknown, g: CheckScope): AuthOutcome | undefined;
}

/** The endpoint said `active: false`: the client's token, refused like a JWT that fails to verify (401). */
class InactiveToken extends Error {
  constructor() {
    super('token is not active');
    this.name = 'InactiveToken';
  }
}

/** The stable code of an inactive token in the rejection log (and its `rejected:` counter). */
const INACTIVE_CODE = 'ERR_INTROSPECTION_INACTIVE';

/** The 503's Retry-After, seconds: the endpoint may be back within a second; no client should ask sooner. */
const RETRY_AFTER = 1;
const UNAVAILABLE = 'The authorization server could not be asked about the token';

/**
 * The stage for the issuer that sets `introspection`, or undefined when none does. The client secret is read from
 * `env[secretBinding]` now: missing or empty, the guard does not start (ConfigError naming the setting).
 *
 * @example
 * const stage = introspectionStage(config, env, { fetch, now: Date.now, counters, l2: undefined });
 */
export function introspectionStage(
  config: Pick<GuardConfig, 'issuers' | 'clockTolerance'>,
  env: { readonly [binding: string]: unknown },
  parts: { fetch: typeof globalThis.fetch; now: () => number; counters: Counters; l2?: SharedVerifyTier | undefined },
): IntrospectionStage | undefined {
  const { fetch, now, counters, l2 } = parts;
  const i = config.issuers.findIndex((is) => is.introspection !== undefined);
  if (i < 0) return undefined;
  const is = config.issuers[i]!;
  const settings = is.introspection!;
  const secret = env[settings.secretBinding];
  if (typeof secret !== 'string' || secret === '') {
    throw new ConfigError(`issuers[${i}].introspection.secretBinding`, 'the secret is not set');
  }
  const { cacheMs } = settings;
  const introspector = createIntrospector({
    issuer: is.issuer[0]!,
    endpoint: settings.endpoint,
    clientId: settings.clientId,
    clientSecret: secret,
    cacheMs,
    timeoutMs: settings.timeoutMs,
    fetch,
    now,
  });
  const policy = claimPolicy(is, config.clockTolerance);
  return {
    takes: (token) => !looksLikeJwt(token),
    verify: async (token, nowMs, ctx) => {
      // With L2, answers of one bucket of cacheMs share a KV tag, read only while the clock is in that bucket:
      // no entry is used longer than cacheMs after its answer. A verdict this isolate holds costs no KV read.
      let slot: { tag: string; until: number } | undefined;
      if (l2 !== undefined && cacheMs > 0 && introspector.cached(token) === undefined) {
        const bucket = Math.floor(nowMs / cacheMs);
        slot = { tag: `introspection.${bucket}`, until: (bucket + 1) * cacheMs };
        const kept = await l2.readAnswer(token, slot);
        if (kept !== undefined) return { payload: kept.payload, from: kept.from, until: kept.until, level: 'l2' };
      }
      const asked = await checked(introspector, token, policy, nowMs, cacheMs);
      counters.inc('verified');
      if (slot !== undefined) l2!.writeAnswer(token, asked.payload, ctx, slot.tag);
      return asked;
    },
    failed: (cx, e, g) => refusal(cx, e, g),
  };
}

/** The claim checks a JWT of this issuer gets from the library, minus its header's (an opaque token has none). */
function claimPolicy(is: IssuerConfig, clockTolerance: number): ClaimPolicy {
  return {
    issuer: new Set(is.issuer),
    audience: is.audience.length === 0 ? undefined : new Set(is.audience),
    subject: undefined,
    typ: undefined,
    clockTolerance,
    maxTokenAge: is.maxTokenAge,
    requiredClaims: [],
    requireExp: true,
    profile: undefined,
  };
}

/** An introspected token has no JOSE header: the claim checks read none of it. */
const NO_HEADER = Object.freeze({ alg: '' }) as JoseHeader;

async function checked(
  introspector: Introspector,
  token: string,
  policy: ClaimPolicy,
  nowMs: number,
  cacheMs: number,
): Promise<IntrospectedToken> {
  const verdict = await introspector.introspect(token);
  if (!verdict.active) throw new InactiveToken();
  const payload = verdict.claims;
  refuseDeepPayload(payload); // as a JWT's payload, before any cache or JSON.stringify sees it
  checkClaims(payload as Record<string, unknown>, NO_HEADER, policy, nowMs / 1000);
  const w = timeWindow(payload, policy);
  return { payload: deepFreeze(payload), from: w.from, until: Math.min(w.until, nowMs + cacheMs), level: 'verify' };
}

/** Inactive: 401 invalid_token. The endpoint down, slow, refusing the guard or answering junk: 503 and one log line. */
function refusal(cx: RequestContext, e: unknown, g: CheckScope): AuthOutcome | undefined {
  const { observe, config } = g;
  if (e instanceof InactiveToken) {
    const timing = serverTiming(performance.now() - cx.started, 'fail');
    observe.count(`rejected:${INACTIVE_CODE}`);
    const description = answer.publicDescription(undefined);
    // A token sent with the DPoP scheme is answered with the DPoP challenge (RFC 9449 §7.1), as token-checks does.
    const dpopAlgs = cx.scheme === 'dpop' ? dpopSection.of(config)?.algorithms : undefined;
    const res =
      dpopAlgs === undefined
        ? answer.invalidToken(config.realm, description)
        : g.dpop!.dpopRefusal(config.realm, dpopAlgs, 'invalid_token', description);
    return observe.refuse(cx, withTiming(res, timing), { code: INACTIVE_CODE, status: 401 });
  }
  if (!(e instanceof IntrospectionError)) return undefined;
  const timing = serverTiming(performance.now() - cx.started, 'fail');
  observe.count('unavailable');
  // Fixed text only (error.ts): never the token, the secret or the answer's bytes.
  g.log(JSON.stringify({ edgejwt: 'unavailable', code: e.code, message: e.message }));
  const res = challengeResponse('unavailable', { realm: '', retryAfter: RETRY_AFTER, description: UNAVAILABLE });
  return observe.refuse(cx, withTiming(res, timing), { code: e.code, status: 503 });
}
